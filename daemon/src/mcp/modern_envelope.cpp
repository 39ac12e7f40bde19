#include "mcp/modern_envelope.h"

#include "common/encoding.h"
#include "common/utf8.h"
#include "mcp/protocol.h"

namespace aev::mcp {

namespace {

constexpr std::string_view kSentinelPrefix = "=?base64?";
constexpr std::string_view kSentinelSuffix = "?=";

EnvelopeProblem mismatch(const std::string& message) {
  return {400, rpc::kHeaderMismatch, "Header mismatch: " + message};
}

std::string quotedValue(std::string_view value) { return "'" + std::string(value.substr(0, 80)) + "'"; }

Poco::JSON::Object::Ptr meta(const Poco::JSON::Object::Ptr& params) {
  return params && params->has("_meta") ? params->getObject("_meta") : nullptr;
}

}  // namespace

std::string metaString(const Poco::JSON::Object::Ptr& params, const char* key) {
  auto m = meta(params);
  if (!m || !m->has(key) || !m->get(key).isString()) return {};
  return m->getValue<std::string>(key);
}

std::optional<std::string> decodeMirroredHeader(std::string_view value) {
  if (value.size() >= kSentinelPrefix.size() + kSentinelSuffix.size() && value.starts_with(kSentinelPrefix) &&
      value.ends_with(kSentinelSuffix)) {
    auto decoded = base64Decode(
        value.substr(kSentinelPrefix.size(), value.size() - kSentinelPrefix.size() - kSentinelSuffix.size()));
    if (!decoded || !isValidUtf8(*decoded)) return std::nullopt;
    return decoded;
  }
  for (unsigned char c : value)
    if ((c < 0x20 && c != '\t') || c == 0x7f) return std::nullopt;
  return std::string(value);
}

std::optional<EnvelopeProblem> checkModernEnvelope(const RequestHeaders& headers, const std::string& method,
                                                   const Poco::JSON::Object::Ptr& params,
                                                   const std::string& metaVersion) {
  if (headers.protocolVersion.empty())
    return mismatch("the MCP-Protocol-Version header is required (it must equal params._meta[\"" +
                    std::string(kMetaProtocolVersion) + "\"])");
  if (metaVersion != headers.protocolVersion)
    return mismatch("MCP-Protocol-Version header value " + quotedValue(headers.protocolVersion) +
                    " does not match params._meta[\"" + kMetaProtocolVersion + "\"] " + quotedValue(metaVersion));
  if (headers.method.empty()) return mismatch("the Mcp-Method header is required");
  if (headers.method != method)
    return mismatch("Mcp-Method header value " + quotedValue(headers.method) + " does not match body value " +
                    quotedValue(method));
  if (method == "tools/call") {
    const std::string bodyName =
        params && params->has("name") && params->get("name").isString() ? params->getValue<std::string>("name") : "";
    if (headers.name.empty()) return mismatch("the Mcp-Name header is required for tools/call");
    const auto headerName = decodeMirroredHeader(headers.name);
    if (!headerName) return mismatch("the Mcp-Name header value is malformed");
    if (*headerName != bodyName)
      return mismatch("Mcp-Name header value " + quotedValue(*headerName) + " does not match body value " +
                      quotedValue(bodyName));
  }
  auto m = meta(params);
  if (!m || !m->has(kMetaClientCapabilities) || !m->getObject(kMetaClientCapabilities))
    return EnvelopeProblem{400, rpc::kInvalidParams,
                           "Invalid params: params._meta[\"" + std::string(kMetaClientCapabilities) +
                               "\"] (an object) is required on every 2026-07-28 request"};
  return std::nullopt;
}

}  // namespace aev::mcp
