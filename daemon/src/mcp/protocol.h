#pragma once
// MCP protocol revisions this endpoint speaks (legacy Streamable HTTP, without sessions)
// and the JSON-RPC error codes it answers with.
#include <optional>
#include <string>
#include <vector>

namespace aev::mcp {

inline constexpr const char* kLatestVersion = "2025-11-25";
// A request without MCP-Protocol-Version is from a 2025-03-26 client (the spec's rule).
inline constexpr const char* kAssumedVersion = "2025-03-26";

const std::vector<std::string>& supportedVersions();
bool isSupported(const std::string& version);
// "2025-11-25, 2025-06-18, 2025-03-26": for error messages.
std::string supportedList();
// The version initialize answers: the client's when supported, else the latest.
std::string negotiate(const std::optional<std::string>& requested);

namespace rpc {
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
}  // namespace rpc

}  // namespace aev::mcp
