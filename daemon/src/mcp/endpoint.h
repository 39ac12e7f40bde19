#pragma once
// The JSON-RPC side of POST /mcp (Streamable HTTP, stateless): one request per POST,
// answered with one JSON object. Each request is served in the era it opens:
// - legacy (2025-xx, or no version): initialize, ping, tools/list, tools/call;
// - modern (2026-07-28: the version in params._meta and the header): server/discover,
//   tools/list, tools/call, each checked against its mirrored headers first.
// Notifications and client responses are accepted (202). No session is kept, so any node
// answers any request, before or after a restart. HTTP concerns (origin, auth, rate, body
// size) are the route's.
#include <optional>
#include <string>

#include "audit/actor.h"
#include "mcp/modern_envelope.h"
#include "mcp/options.h"
#include "mcp/registry.h"

namespace aev::http {
struct AppContext;
}

namespace aev::mcp {

struct Caller {
  std::int64_t orgId = 0;
  std::int64_t apiKeyId = 0;
  std::string keyPrefix;
  std::vector<std::string> scopes;
  audit::Actor actor;  // source "mcp"
  std::string baseUrl;
  std::string userAgent;
};

struct Answer {
  int status = 200;
  std::string body;  // empty: no body (202)
};

class Endpoint {
 public:
  Endpoint(http::AppContext& app, Options options);

  Answer handle(const Caller& caller, const RequestHeaders& headers, const std::string& body);
  // A JSON-RPC error object without id, for answers the route gives before parsing.
  static std::string errorBody(int code, const std::string& message);

  const Options& options() const { return options_; }

 private:
  Answer legacy(const Caller& caller, const std::string& version, const Poco::Dynamic::Var& id,
                const std::string& method, const Poco::JSON::Object::Ptr& params);
  Answer modern(const Caller& caller, const RequestHeaders& headers, const Poco::Dynamic::Var& id,
                const std::string& method, const Poco::JSON::Object::Ptr& params, const std::string& metaVersion);
  std::optional<Answer> toolMethod(const Caller& caller, const std::string& version, const Poco::Dynamic::Var& id,
                                   const std::string& method, const Poco::JSON::Object::Ptr& params, bool modernEra);
  Poco::JSON::Object::Ptr callTool(const Caller& caller, const std::string& version, Poco::JSON::Object::Ptr params,
                                   int& rpcError, std::string& rpcMessage);

  http::AppContext& app_;
  Options options_;
  ToolRegistry tools_;
};

}  // namespace aev::mcp
