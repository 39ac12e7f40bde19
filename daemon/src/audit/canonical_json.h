#pragma once
// Canonical JSON text (what the audit chain hashes): object keys sorted by their UTF-8
// bytes, no insignificant whitespace, strings escaped only where JSON requires it
// (`"`, `\`, control characters; other bytes as they are), integers in decimal,
// other numbers in the shortest form that reads back to the same double, booleans and
// null as literals. The same value always gives the same bytes, on every node.
#include <Poco/Dynamic/Var.h>

#include <string>

namespace aev::audit {

std::string canonicalJson(const Poco::Dynamic::Var& value);
// Parses JSON text (common/json_parse.h) and returns its canonical form; throws
// JsonSyntaxError on invalid JSON.
std::string canonicalizeText(const std::string& jsonText);

}  // namespace aev::audit
