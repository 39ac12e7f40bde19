// libFuzzer target for the moderation `tool_arg` expression grammar (moderation/tool_arg.h)
// and its evaluation. Input: an expression, a NUL byte, then a JSON tool call. Parsing
// either accepts or answers with a message (never throws, never crashes); an accepted
// expression evaluates on any JSON document, every hit has a path, and every regex range
// lies inside the string it matched.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "common/json_parse.h"
#include "fuzz_support.h"
#include "moderation/json_slot.h"
#include "moderation/tool_arg.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const auto nul = input.find('\0');
  const std::string expression = input.substr(0, nul);
  const std::string document = nul == std::string::npos
                                   ? R"({"tool":"shell","args":{"cmd":"ls /etc","n":[1,2,{"x":"y"}]}})"
                                   : input.substr(nul + 1);
  auto parsed = aev::moderation::ToolArgExpression::parse(expression);
  if (auto* message = std::get_if<std::string>(&parsed)) {
    aev::fuzz::require(!message->empty());
    return 0;
  }
  const auto& compiled = std::get<aev::moderation::ToolArgExpression>(parsed);
  aev::moderation::JsonSlot root;
  root.path = "toolCall";
  try {
    root.value = aev::parseJson(document, 64);
  } catch (const aev::JsonSyntaxError&) {
    return 0;
  }
  root.replace = [](const Poco::Dynamic::Var&) {};
  for (const auto& hit : compiled.evaluate(root)) {
    aev::fuzz::require(!hit.slot.path.empty());
    std::string text;
    if (!hit.ranges.empty()) {
      aev::fuzz::require(aev::moderation::scalarText(hit.slot.value, text));
      for (const auto& r : hit.ranges) aev::fuzz::require(r.start <= r.end && r.end <= text.size());
    }
  }
  return 0;
}
