#include "otlp/export_response.h"

#include "common/json_text.h"

namespace aev::otlp {

namespace {

// Just enough protobuf writing for two flat messages: tags, varints, length-delimited.
void varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

void varintField(std::string& out, std::uint32_t number, std::uint64_t v) {
  varint(out, static_cast<std::uint64_t>(number) << 3 | 0);  // wire type 0: varint
  varint(out, v);
}

void bytesField(std::string& out, std::uint32_t number, std::string_view bytes) {
  varint(out, static_cast<std::uint64_t>(number) << 3 | 2);  // wire type 2: length-delimited
  varint(out, bytes.size());
  out.append(bytes);
}

}  // namespace

std::string exportTraceResponse(Encoding encoding, std::int64_t rejectedSpans, std::string_view errorMessage) {
  const bool partial = rejectedSpans != 0 || !errorMessage.empty();
  if (encoding == Encoding::Protobuf) {
    if (!partial) return {};
    std::string partialSuccess;
    // int64 on the wire is two's complement, so a (nonsensical) negative count still round-trips.
    if (rejectedSpans != 0) varintField(partialSuccess, 1, static_cast<std::uint64_t>(rejectedSpans));
    if (!errorMessage.empty()) bytesField(partialSuccess, 2, errorMessage);
    std::string out;
    bytesField(out, 1, partialSuccess);
    return out;
  }
  if (!partial) return "{}";
  std::string out = "{\"partialSuccess\":{";
  if (rejectedSpans != 0) out += "\"rejectedSpans\":\"" + std::to_string(rejectedSpans) + "\"";
  if (!errorMessage.empty()) {
    if (rejectedSpans != 0) out += ',';
    out += "\"errorMessage\":";
    appendJsonString(out, errorMessage);
  }
  out += "}}";
  return out;
}

std::string rpcStatus(Encoding encoding, int code, std::string_view message) {
  if (encoding == Encoding::Protobuf) {
    std::string out;
    // int32 varints sign-extend to 64 bits, as protobuf writes negative int32 values.
    if (code != 0) varintField(out, 1, static_cast<std::uint64_t>(static_cast<std::int64_t>(code)));
    if (!message.empty()) bytesField(out, 2, message);
    return out;
  }
  std::string out = "{";
  if (code != 0) out += "\"code\":" + std::to_string(code);
  if (!message.empty()) {
    if (code != 0) out += ',';
    out += "\"message\":";
    appendJsonString(out, message);
  }
  out += '}';
  return out;
}

}  // namespace aev::otlp
