#pragma once
// Settings of the MCP endpoint (mcp.* in the configuration).
#include <cstddef>
#include <string>
#include <vector>

namespace aev::mcp {

struct Options {
  // Browser origins allowed to call POST /mcp (exact match). Empty: every request that
  // carries an Origin is refused (a web page must not reach a local daemon by DNS
  // rebinding); CLI clients send none.
  std::vector<std::string> allowedOrigins;
  int callsPerMinute = 120;            // per API key, every JSON-RPC request counts
  std::size_t maxBodyBytes = 65536;    // a JSON-RPC request is small
  std::size_t maxOutputChars = 40000;  // the text of one tool result (Claude Code rejects ~25k tokens)
};

}  // namespace aev::mcp
