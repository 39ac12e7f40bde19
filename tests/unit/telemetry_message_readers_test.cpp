// The two message readers of telemetry/messages.h give the same lists: the flat one
// (messages_from_text.h: attribute values as text, JSON text read with JsonView, lists as
// structs) and the Poco one it hands odd shapes to (messages_from_tree.h). Each case is read
// by both and compared as stored text; MessageLists::appendJson is held to what condensing
// its Poco object writes; and takeMessages bounds, falls back and refuses as before.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <random>

#include "common/json_condense.h"
#include "telemetry/messages.h"
#include "telemetry/messages_from_text.h"
#include "telemetry/messages_from_tree.h"

namespace aev::telemetry {
namespace {

using Poco::JSON::Object;

Object::Ptr object(const std::string& json) { return Poco::JSON::Parser().parse(json).extract<Object::Ptr>(); }

std::string text(const MessageLists& lists) {
  std::string out;
  lists.appendJson(out);
  return out;
}

// Both readers on `metadata`: the flat one must read it (no hand-over) and agree.
std::string readByBoth(const Object& metadata) {
  const auto flat = from_text::readMessages(metadata);
  const auto tree = from_tree::readMessages(metadata);
  EXPECT_EQ(text(flat), text(tree));
  EXPECT_EQ(text(flat), condensedJsonAnyOrder(flat.toObject()));
  return text(flat);
}

std::string readByBoth(const std::string& metadataJson) { return readByBoth(*object(metadataJson)); }

Object::Ptr oneAttribute(const std::string& key, const std::string& value) {
  Object::Ptr o = new Object;
  o->set(key, value);
  return o;
}

TEST(TelemetryMessageReaders, OtelPartsOfEveryKind) {
  EXPECT_EQ(
      readByBoth(
          R"({"gen_ai.system_instructions":"be brief",
    "gen_ai.input.messages":"[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"a\\nb \\u00e9 \\/\"},7,true,null,1.5,)"
          R"({\"type\":\"tool_call_response\",\"id\":\"c0\",\"response\":{\"z\":1,\"a\":[2,{\"y\":null}]}},)"
          R"({\"type\":\"tool-result\",\"result\":\"done\"},{\"type\":3,\"text\":\"typed\"},{\"other\":1}]}]",
    "gen_ai.output.messages":"[{\"role\":\"assistant\",\"parts\":[{\"type\":\"tool_call\",\"id\":\"c1\",\"name\":\"get\",)"
          R"(\"arguments\":{\"city\":\"Paris\"}},{\"type\":\"function_call\",\"name\":\"\"},{\"type\":\"tool-call\",\"toolCallId\":\"t\",)"
          R"(\"toolName\":\"add\",\"input\":{\"a\":1}}]}]"})"),
      R"({"input":[{"role":"system","content":"be brief"},{"role":"user","content":"a\nb é /\n7\ntrue\n1.5\n)"
      R"({\"a\":[2,{\"y\":null}],\"z\":1}\ndone\ntyped"}],"output":[{"role":"assistant","content":null,)"
      R"("toolCalls":[{"id":"c1","name":"get","arguments":"{\"city\":\"Paris\"}"},{"id":"t","name":"add",)"
      R"("arguments":"{\"a\":1}"}]}]})");
}

TEST(TelemetryMessageReaders, OpenAiRequestAndResponseShapes) {
  readByBoth(
      R"({"input.value":"{\"model\":\"m\",\"messages\":[{\"role\":\"system\",\"content\":\"s\"},)"
      R"({\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}},)"
      R"({\"function\":\"not an object\",\"name\":\"g\"},5]},{\"role\":\"tool\",\"tool_call_id\":\"c\",\"content\":\"42\"},)"
      R"(\"plain\",[1,2]]}",
    "output.value":"{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"ok\"}},{\"message\":\"x\"},3]}"})");
  readByBoth(R"({"ai.prompt":"{\"system\":\"sys\",\"prompt\":[{\"type\":\"text\",\"text\":\"hi\"}]}",
                 "ai.response.text":"","ai.response.toolCalls":"[{\"toolCallId\":\"t1\",\"toolName\":\"add\",\"args\":{\"a\":1}}]"})");
  readByBoth(
      R"({"langfuse.observation.input":"{\"anything\":{\"nested\":true}}","langfuse.observation.output":"\"quoted\""})");
  readByBoth(
      R"({"gen_ai.prompt":"  [\"a\",\"b\"]  ","gen_ai.completion":"{\"role\":7,\"content\":{\"text\":\"t\"}}"})");
}

// Duplicate members: the last one wins, as in Poco's objects.
TEST(TelemetryMessageReaders, DuplicateMembersAndNumbers) {
  EXPECT_EQ(readByBoth(R"({"gen_ai.input.messages":"[{\"role\":\"user\",\"role\":\"system\",\"content\":[1e2,-0,)"
                       R"(18446744073709551615,9223372036854775807,-9223372036854775808,0.1]}]"})"),
            R"({"input":[{"role":"system","content":"100\n0\n18446744073709551615\n9223372036854775807\n)"
            R"(-9223372036854775808\n0.1"}],"output":[]})");
}

TEST(TelemetryMessageReaders, IndexedFamiliesWithPartsToolCallsAndGaps) {
  readByBoth(R"({"llm.input_messages.0.message.role":"user",
    "llm.input_messages.0.message.contents.0.message_content.text":"p0",
    "llm.input_messages.0.message.contents.1.message_content.type":"image",
    "llm.input_messages.0.message.contents.10.message_content.text":"p10",
    "llm.input_messages.3.message.content":"{\"text\":\"json content\"}",
    "llm.input_messages.12000.message.content":"beyond the cut",
    "llm.input_messages.x.message.content":"not indexed",
    "llm.input_messages.5.message.role":5,
    "llm.output_messages.0.message.finish_reason":"stop",
    "llm.output_messages.1.message.tool_calls.0.tool_call.id":"c",
    "llm.output_messages.1.message.tool_calls.0.tool_call.function.name":"f",
    "llm.output_messages.1.message.tool_calls.1.tool_call.function.arguments":"{}",
    "llm.output_messages.1.message.tool_call_id":7})");
  readByBoth(R"({"gen_ai.prompt.0.role":"user","gen_ai.prompt.0.content":"[{\"type\":\"text\",\"text\":\"a\"}]",
    "gen_ai.prompt.1.tool_calls.0.name":"n","gen_ai.prompt.1.tool_calls.0.arguments":"{}",
    "gen_ai.completion.0.role":"assistant","gen_ai.completion.0.content":true,
    "gen_ai.completion.0.finish_reason":"stop"})");
}

// Text that is not well-formed JSON stays text: ill-formed UTF-8, an unpaired surrogate,
// nesting deeper than the readers' 32 levels; 32 levels are read.
TEST(TelemetryMessageReaders, TextThatIsNotJsonStaysText) {
  EXPECT_EQ(readByBoth(*oneAttribute("gen_ai.prompt", "[\"\xC3\x28\"]")),
            text(from_tree::readMessages(*oneAttribute("gen_ai.prompt", "[\"\xC3\x28\"]"))));
  readByBoth(*oneAttribute("gen_ai.input.messages", "[{\"role\":\"user\",\"content\":\"\\ud800\"}]"));
  readByBoth(*oneAttribute("gen_ai.input.messages", "[{\"role\":\"user\",\"content\":\"a\\u0000b\"}]"));
  const std::string deep = std::string(40, '[') + "\"x\"" + std::string(40, ']');
  EXPECT_NE(readByBoth(*oneAttribute("gen_ai.prompt", deep)).find(R"("content":"[[[[)"), std::string::npos);
  const std::string thirtyTwo = std::string(32, '[') + "1" + std::string(32, ']');
  readByBoth(*oneAttribute("gen_ai.prompt", thirtyTwo));
  readByBoth(*oneAttribute("gen_ai.prompt", "[1,"));
  readByBoth(*oneAttribute("gen_ai.prompt", "   "));
}

// What the flat reader leaves to the tree reader: attributes that are arrays or objects
// themselves, and roles or part types that are null, arrays or objects.
TEST(TelemetryMessageReaders, OddShapesAreHandedToTheTreeReader) {
  const auto handsOver = [](const std::string& json) {
    EXPECT_THROW(from_text::readMessages(*object(json)), from_text::NeedsTree) << json;
  };
  handsOver(R"({"gen_ai.input.messages":[{"role":"user","content":"hi"}]})");
  handsOver(R"({"gen_ai.input.messages":"[{\"role\":{\"a\":1},\"content\":\"hi\"}]"})");
  handsOver(R"({"gen_ai.input.messages":"[{\"role\":null,\"content\":\"hi\"}]"})");
  handsOver(R"({"gen_ai.input.messages":"[{\"role\":\"user\",\"parts\":[{\"type\":null}]}]"})");
  // takeMessages gives the tree reader's answer for them: the lists, or nothing (and the
  // metadata unchanged) for what it cannot read.
  auto metadata = object(R"({"gen_ai.input.messages":[{"role":"user","content":"hi"}],"model":"m"})");
  auto lists = takeMessages(*metadata, 100);
  ASSERT_TRUE(lists);
  EXPECT_EQ(text(*lists), R"({"input":[{"role":"user","content":"hi"}],"output":[]})");
  EXPECT_FALSE(metadata->has("gen_ai.input.messages"));
  auto nullRole = object(R"({"gen_ai.input.messages":"[{\"role\":null,\"content\":\"hi\"}]"})");
  EXPECT_FALSE(takeMessages(*nullRole, 100));
  EXPECT_TRUE(nullRole->has("gen_ai.input.messages"));
}

// One budget for every string, in order (contents, then each call's arguments), cut with
// the marker, whole UTF-8 characters kept.
TEST(TelemetryMessageReaders, HugeMessagesAreCutAtTheBoundWithTheMarker) {
  std::string huge;
  for (int i = 0; i < 20000; ++i) huge += "\xC3\xA9x";
  Object::Ptr metadata = new Object;
  metadata->set("gen_ai.input.messages", "[{\"role\":\"user\",\"content\":\"" + huge + "\"}]");
  metadata->set("gen_ai.output.messages",
                "[{\"role\":\"assistant\",\"parts\":[{\"type\":\"tool_call\",\"name\":\"f\",\"arguments\":\"abc\"}]}]");
  auto lists = takeMessages(*metadata, 1001);
  ASSERT_TRUE(lists);
  ASSERT_EQ(lists->input.size(), 1u);
  EXPECT_EQ(*lists->input[0].content, huge.substr(0, 1500) + "\xC3\xA9\xE2\x80\xA6[+38999 chars]");
  EXPECT_EQ(*lists->output[0].toolCalls[0].arguments, "\xE2\x80\xA6[+3 chars]");
  EXPECT_EQ(text(*lists), condensedJsonAnyOrder(lists->toObject()));
  EXPECT_TRUE(metadata->size() == 0);
}

// The flat reader names the keys takeMessages moves out in its one pass: isMessageKey's.
TEST(TelemetryMessageReaders, TheKeysMovedOutAreTheMessageKeys) {
  auto metadata = object(R"({"gen_ai.prompt":"p","gen_ai.prompt.0.content":"c","gen_ai.prompt.0.finish_reason":"x",
    "gen_ai.completion.0.finish_reason":"stop","gen_ai.completion.1.content":"o","llm.input_messages.0.message.role":"u",
    "llm.output_messages.x":1,"input.mime_type":"text/plain","output.mime_type":"json","input.value":"v",
    "gen_ai.promptx":"not one","gen_ai.request.model":"m","ai.prompt.messages":"[]","ai.response.text":"t",
    "langfuse.observation.input":"i","gen_ai.system_instructions":"s","gen_ai.input.messages":"[]"})");
  std::vector<std::string> keys;
  from_text::readMessages(*metadata, &keys);
  std::vector<std::string> expected;
  for (const auto& [key, value] : *metadata)
    if (isMessageKey(key)) expected.push_back(key);
  EXPECT_EQ(keys, expected);
  EXPECT_EQ(expected.size(), 13u);  // not the finish reasons, gen_ai.promptx nor the model
}

TEST(TelemetryMessageReaders, RequestedToolSkipsHandOffs) {
  auto lists = from_text::readMessages(*object(
      R"({"gen_ai.output.messages":"[{\"role\":\"assistant\",\"parts\":[)"
      R"({\"type\":\"tool_call\",\"name\":\"transfer_to_b\"},{\"type\":\"tool_call\",\"name\":\"lookup\"}]}]"})"));
  EXPECT_EQ(lists.requestedTool(), "lookup");
  EXPECT_EQ(lists.requestedTool(), requestedTool(lists.toObject()));
  EXPECT_FALSE(MessageLists{}.requestedTool());
}

// Seeded random message JSON of the shapes the readers look at, as attribute text: the
// two readers agree on every one the flat reader keeps, and refuse the same ones.
class RandomMessages {
 public:
  explicit RandomMessages(unsigned seed) : rng_(seed) {}

  std::string value(int depth) {
    switch (pick(depth > 3 ? 6 : 9)) {
      case 0:
        return "null";
      case 1:
        return pick(2) ? "true" : "false";
      case 2:
        return std::to_string(static_cast<int>(pick(2000)) - 1000);
      case 3:
        return pick(2) ? "1.25" : "1e3";
      case 4:
      case 5:
        return quoted(word());
      case 6:
        return array(depth);
      case 7:
      case 8:
        return objectText(depth);
    }
    return "null";
  }

 private:
  std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }
  std::string word() {
    static const char* const words[] = {"user",
                                        "assistant",
                                        "tool_call",
                                        "tool-call",
                                        "text",
                                        "hi \"there\"",
                                        "\xC3\xA9t\xC3\xA9",
                                        "a\\nb",
                                        "transfer_to_x",
                                        "",
                                        "[\\\"nested\\\"]",
                                        "{\\\"text\\\":\\\"t\\\"}"};
    return words[pick(std::size(words))];
  }
  static std::string quoted(const std::string& s) { return "\"" + s + "\""; }
  std::string array(int depth) {
    std::string out = "[";
    for (std::size_t i = 0, n = pick(4); i < n; ++i) out += (i ? "," : "") + value(depth + 1);
    return out + "]";
  }
  std::string objectText(int depth) {
    static const char* const keys[] = {"role",     "content",  "parts",       "type",    "text",     "tool_calls",
                                       "function", "name",     "arguments",   "id",      "toolName", "toolCallId",
                                       "args",     "input",    "messages",    "choices", "message",  "system",
                                       "prompt",   "response", "tool_call_id"};
    std::string out = "{";
    for (std::size_t i = 0, n = pick(5); i < n; ++i)
      out += std::string(i ? "," : "") + quoted(keys[pick(std::size(keys))]) + ":" + value(depth + 1);
    return out + "}";
  }

  std::mt19937 rng_;
};

TEST(TelemetryMessageReaders, RandomMessagesReadAlikeByBothReaders) {
  static const char* const keys[] = {"gen_ai.input.messages",      "gen_ai.output.messages",
                                     "langfuse.observation.input", "ai.prompt",
                                     "ai.response.toolCalls",      "output.value",
                                     "gen_ai.completion",          "llm.input_messages.0.message.content",
                                     "gen_ai.system_instructions"};
  RandomMessages random(25);
  int read = 0, handedOver = 0;
  for (int i = 0; i < 3000; ++i) {
    Object::Ptr metadata = new Object;
    for (const char* key : keys)
      if (i % 3 == 0 || std::hash<std::string>{}(key + std::to_string(i)) % 3 == 0) metadata->set(key, random.value(0));
    std::optional<std::string> tree;
    try {
      tree = text(from_tree::readMessages(*metadata));
    } catch (const Poco::Exception&) {
    }
    try {
      const auto flat = text(from_text::readMessages(*metadata));
      ASSERT_TRUE(tree) << condensedJsonAnyOrder(metadata);
      ASSERT_EQ(flat, *tree) << condensedJsonAnyOrder(metadata);
      ++read;
    } catch (const from_text::NeedsTree&) {
      ++handedOver;
    }
  }
  EXPECT_GT(read, 2000);  // the flat reader reads most of them itself
  EXPECT_GT(handedOver, 0);
}

}  // namespace
}  // namespace aev::telemetry
