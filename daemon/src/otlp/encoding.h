#pragma once
// The two OTLP/HTTP payload encodings, chosen by Content-Type. The response uses the
// request's encoding (the OTLP specification: same Content-Type in as out).
#include <optional>
#include <string_view>

namespace aev::otlp {

enum class Encoding { Protobuf, Json };

// application/x-protobuf → Protobuf, application/json → Json (media type parameters such
// as "; charset=utf-8" and letter case ignored); nullopt for anything else (415).
std::optional<Encoding> encodingForContentType(std::string_view contentType);

// The Content-Type to answer with.
const char* contentTypeOf(Encoding encoding);

}  // namespace aev::otlp
