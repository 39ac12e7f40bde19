#pragma once
// Text forms of OTLP binary values: ids as hex (OTLP/JSON writes trace and span ids in
// hex, not the base64 of the standard protobuf JSON mapping), bytes as base64 (the
// standard mapping, used for AnyValue.bytes_value), and the UTF-8 check that protobuf
// `string` fields must pass.
#include <optional>
#include <string>
#include <string_view>

#include "common/utf8.h"

namespace aev::otlp {

std::string lowerHex(std::string_view bytes);
// Case-insensitive hex to bytes; nullopt for odd lengths or non-hex characters.
std::optional<std::string> bytesFromHex(std::string_view hex);
// Standard or URL-safe alphabet, padding optional (the proto3 JSON mapping accepts
// both); nullopt for anything else.
std::optional<std::string> bytesFromBase64(std::string_view text);
// The UTF-8 check is aev::isValidUtf8 (common/utf8.h).

}  // namespace aev::otlp
