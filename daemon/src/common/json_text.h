#pragma once
// Hand-built JSON text for hot paths (one event serialized once, then copied to every
// subscriber), where building a Poco::JSON tree would cost more than the output.
#include <string>
#include <string_view>

namespace aev {

// Appends s as a quoted JSON string (RFC 8259 escaping; well-formed UTF-8 passes through,
// each ill-formed subpart becomes U+FFFD: the output is valid UTF-8 whatever s holds).
void appendJsonString(std::string& out, std::string_view s);

}  // namespace aev
