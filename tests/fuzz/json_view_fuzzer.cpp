// libFuzzer target for common/json_view.h against common/json_parse.h (reliability
// checklist B9: untrusted bodies). Both read the input; they must accept and refuse alike
// (the same message), and for an accepted document every node must condense to what
// parseJson + condensedJson make of that node's text. Never a crash (ASan, UBSan).
// Built and run by `make fuzz` / `make fuzz-ci` (docs/fuzzing.md).
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "common/json_condense.h"
#include "common/json_parse.h"
#include "common/json_view.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::optional<std::string> parseError, viewError;
  std::optional<Poco::Dynamic::Var> parsed;
  std::optional<aev::JsonView> view;
  try {
    parsed = aev::parseJson(text, 16);
  } catch (const aev::JsonSyntaxError& e) {
    parseError = e.what();
  }
  try {
    view.emplace(text, 16);
  } catch (const aev::JsonSyntaxError& e) {
    viewError = e.what();
  }
  if (parseError != viewError) std::abort();
  if (!view) return 0;
  for (std::uint32_t i = aev::JsonView::kRoot; i < view->endOf(aev::JsonView::kRoot); ++i) {
    std::string fromView;
    view->appendCondensed(fromView, i);
    if (fromView != aev::condensedJson(aev::parseJson(view->text(i), 16))) std::abort();
  }
  return 0;
}
