#pragma once
// MCP protocol revisions this endpoint speaks and the JSON-RPC error codes it answers with.
// Two eras share POST /mcp, decided per request:
// - legacy (2025-03-26 .. 2025-11-25): an initialize handshake, here without sessions;
// - modern (2026-07-28): no handshake, every request carries its version and client
//   capabilities in params._meta and mirrors method and tool name into headers.
#include <optional>
#include <string>
#include <vector>

namespace aev::mcp {

// What a legacy initialize answers when the client asks for a version we do not speak.
inline constexpr const char* kLatestLegacyVersion = "2025-11-25";
inline constexpr const char* kModernVersion = "2026-07-28";
// A request without MCP-Protocol-Version is from a 2025-03-26 client (the spec's rule).
inline constexpr const char* kAssumedVersion = "2025-03-26";

// The _meta keys of the modern era (basic/index, "Per-request protocol fields").
inline constexpr const char* kMetaProtocolVersion = "io.modelcontextprotocol/protocolVersion";
inline constexpr const char* kMetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities";
inline constexpr const char* kMetaServerInfo = "io.modelcontextprotocol/serverInfo";

// Every version served, newest first: the modern one, then the legacy ones.
const std::vector<std::string>& supportedVersions();
bool isSupported(const std::string& version);
// Revisions from 2026-07-28 on carry their version per request (no handshake).
bool isModern(const std::string& version);
// "2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26": for error messages.
std::string supportedList();
// The version a legacy initialize answers: the client's when it is a supported legacy
// one, else the latest legacy one (initialize never negotiates the modern era).
std::string negotiateLegacy(const std::optional<std::string>& requested);

namespace rpc {
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
// Reserved for the MCP specification (2026-07-28, basic/index "Error Codes").
inline constexpr int kHeaderMismatch = -32020;
inline constexpr int kUnsupportedProtocolVersion = -32022;
}  // namespace rpc

}  // namespace aev::mcp
