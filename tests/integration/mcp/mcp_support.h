#pragma once
// Helpers of the MCP suites: raw JSON-RPC POSTs to /mcp, and an organization seeded with
// what every tool reads (a trace with telemetry, an error, a moderation violation, an
// alert rule, a spend policy, custom attributes, and a channel too big for one answer).
#include <string>

#include "integration/telemetry/traces_support.h"

namespace aev::testing {

struct SeededOrg {
  Publisher publisher;  // tenant, app, channel, key with publish + read
  std::string traceId;
  std::int64_t eventId = 0;  // one event of the trace
  std::int64_t bigChannelId = 0;
  std::string policyId;
  ApiKey readKey;     // scope read only
  ApiKey publishKey;  // scope publish only
  ApiKey revokedKey;  // read, revoked
};

class McpTest : public TracesTest {
 protected:
  static SeededOrg seedOrg(const std::string& tag, int bigEvents);
  // POST /mcp with the JSON-RPC `body` and the key as `Authorization: Bearer`, plus `extra`
  // headers (a header with an empty value removes that default).
  static HttpResult rpc(const std::string& key, const std::string& body, const Headers& extra = {});
  static std::string call(int id, const std::string& method, const std::string& params = "{}");
  static void createFlagRule(const Tenant& t);
};

}  // namespace aev::testing
