#pragma once
// The checks a 2026-07-28 (modern) request must pass before its method runs: the
// per-request _meta fields, and the HTTP headers that mirror the body
// (basic/transports/streamable-http, "Server Validation"). Intermediaries route and rate
// on those headers, so a header that disagrees with the body is refused, never trusted.
#include <Poco/JSON/Object.h>

#include <optional>
#include <string>
#include <string_view>

namespace aev::mcp {

// The request headers MCP defines, as sent ("" when absent).
struct RequestHeaders {
  std::string protocolVersion;  // MCP-Protocol-Version
  std::string method;           // Mcp-Method
  std::string name;             // Mcp-Name (tools/call), maybe "=?base64?…?=" encoded
};

struct EnvelopeProblem {
  int status = 400;
  int code = 0;  // JSON-RPC error code
  std::string message;
};

// `params` may be null. `metaVersion` is params._meta's protocol version, already read.
std::optional<EnvelopeProblem> checkModernEnvelope(const RequestHeaders& headers, const std::string& method,
                                                   const Poco::JSON::Object::Ptr& params,
                                                   const std::string& metaVersion);

// A header value as the client meant it: "=?base64?<standard base64>?=" decoded (the
// sentinel is case-sensitive), any other value as it is. Nothing for a sentinel whose
// payload is not base64 or not UTF-8, or a plain value with a control character.
std::optional<std::string> decodeMirroredHeader(std::string_view value);

// params._meta[key] when it is a string, else "".
std::string metaString(const Poco::JSON::Object::Ptr& params, const char* key);

}  // namespace aev::mcp
