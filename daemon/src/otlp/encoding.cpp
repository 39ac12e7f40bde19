#include "otlp/encoding.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace aev::otlp {

std::optional<Encoding> encodingForContentType(std::string_view contentType) {
  const auto semicolon = contentType.find(';');
  std::string_view type = contentType.substr(0, semicolon);
  while (!type.empty() && std::isspace(static_cast<unsigned char>(type.front()))) type.remove_prefix(1);
  while (!type.empty() && std::isspace(static_cast<unsigned char>(type.back()))) type.remove_suffix(1);
  std::string lower(type);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower == "application/x-protobuf") return Encoding::Protobuf;
  if (lower == "application/json") return Encoding::Json;
  return std::nullopt;
}

const char* contentTypeOf(Encoding encoding) {
  return encoding == Encoding::Protobuf ? "application/x-protobuf" : "application/json";
}

}  // namespace aev::otlp
