#pragma once
// The UTF-8 check that protobuf `string` fields must pass. (The text forms of OTLP's
// binary values, ids as hex and bytes as base64, are common/encoding.h's.)
#include <string_view>

namespace aev::otlp {

// Well-formed UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF).
bool isValidUtf8(std::string_view s);

}  // namespace aev::otlp
