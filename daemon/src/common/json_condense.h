#pragma once
// Condensed JSON text of a parsed Poco JSON value, byte for byte what
// Poco::JSON::Stringifier::condense writes, at a fraction of its cost (no ostream, no
// per-value string conversion for the common types). The publish paths store each
// event's payload and metadata this way.
//
// For objects from Poco::JSON::Parser's default handler (keys kept sorted), which is
// what request bodies are. Strings that need escaping (control characters, quotes,
// backslashes, '/', non-ASCII) and uncommon scalar types are handed to Poco itself.
#include <Poco/Dynamic/Var.h>

#include <string>
#include <string_view>

namespace aev {

void appendCondensedJson(std::string& out, const Poco::Dynamic::Var& value);
// A string value (or member name) quoted and escaped as Poco does (common/json_text.h's
// appendJsonString escapes the RFC 8259 minimum instead).
void appendPocoJsonString(std::string& out, std::string_view s);
std::string condensedJson(const Poco::Dynamic::Var& value);
// A double as Stringifier writes it (Var's conversion: double-conversion's shortest digits),
// without making a Var or a string of it on the common path.
void appendJsonDouble(std::string& out, double value);

// The same for objects in any key order: a Poco::JSON::Object built with
// JSON_PRESERVE_KEY_ORDER is written in its insertion order, as Stringifier::condense
// writes it (the OTLP mapping builds its payloads so). Each object's names are copied out
// once to learn that order, so the sorted-only functions above stay the cheaper choice for
// parsed request bodies.
void appendCondensedJsonAnyOrder(std::string& out, const Poco::Dynamic::Var& value);
std::string condensedJsonAnyOrder(const Poco::Dynamic::Var& value);

}  // namespace aev
