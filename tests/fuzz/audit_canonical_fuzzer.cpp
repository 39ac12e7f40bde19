// libFuzzer target for the audit log's canonical JSON (what the tamper-evident chain
// hashes). Any text either is refused with JsonSyntaxError or gives a canonical form that
// is a fixed point (canonicalising it again changes no byte: the hash of an entry does not
// depend on who re-serialised it), valid UTF-8, and the same whether built from the text
// (canonicalizeText) or from the value the daemon's reader made of it (canonicalJson).
#include <cstdint>
#include <cstdlib>
#include <string>

#include "audit/canonical_json.h"
#include "common/json_parse.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::string canonical;
  Poco::Dynamic::Var value;
  try {
    value = aev::parseJson(text, 1000);
    canonical = aev::audit::canonicalJson(value);
  } catch (const aev::JsonSyntaxError&) {
    return 0;
  }
  aev::fuzz::require(aev::fuzz::validUtf8(canonical));  // the reader accepts only UTF-8
  try {
    auto again = aev::parseJson(canonical, 1000);
    aev::fuzz::require(aev::audit::canonicalJson(again) == canonical);
    aev::fuzz::require(aev::audit::canonicalizeText(text) == canonical);
  } catch (const aev::JsonSyntaxError&) {
    std::abort();  // our own output must read back
  }
  return 0;
}
