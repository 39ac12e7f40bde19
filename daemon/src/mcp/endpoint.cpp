#include "mcp/endpoint.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cmath>

#include "audit/audit_log.h"
#include "common/clock.h"
#include "common/errors.h"
#include "http/context.h"
#include "http/request.h"
#include "mcp/listing.h"
#include "mcp/protocol.h"

namespace aev::mcp {

namespace {

using Var = Poco::Dynamic::Var;

constexpr std::size_t kAuditArgumentChars = 300;

constexpr const char* kInstructions =
    "agent-events: the events, traces, analytics, moderation, alerts and spend of one organization (the API key's). "
    "All tools are read-only. Times are RFC 3339 UTC or relative like 24h; start with get_context. Lists are "
    "bounded: follow nextCursor when truncated is true or more rows exist.";

Poco::JSON::Object::Ptr newObject() { return new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER); }

std::string envelope(const Var& id, const char* member, const Var& value) {
  auto obj = newObject();
  obj->set("jsonrpc", "2.0");
  obj->set("id", id);
  obj->set(member, value);
  return http::stringify(obj);
}

Poco::JSON::Object::Ptr errorObject(int code, const std::string& message) {
  auto err = newObject();
  err->set("code", code);
  err->set("message", message);
  return err;
}

std::string errorReply(const Var& id, int code, const std::string& message) {
  return envelope(id, "error", errorObject(code, message));
}

Poco::JSON::Object::Ptr textContent(const std::string& text) {
  Poco::JSON::Array::Ptr content = new Poco::JSON::Array;
  auto block = newObject();
  block->set("type", "text");
  block->set("text", text);
  content->add(block);
  auto result = newObject();
  result->set("content", content);
  return result;
}

Poco::JSON::Object::Ptr toolError(const std::string& text) {
  auto result = textContent(text);
  result->set("isError", true);
  return result;
}

// A service's refusal as the model should read it. A 404 names no more than "not in this
// organization": whether the id exists elsewhere is never told.
std::string refusalText(const ApiError& e) {
  if (e.status() == 404)
    return std::string(e.what()) + " in this organization. Take ids from get_context or the list tools.";
  std::string text = e.what();
  for (const auto& f : e.fieldErrors()) text += "; " + f.location + ": " + f.message;
  return text + ". Fix the arguments and call again.";
}

// Tool list and discovery change only with the daemon's version: ten minutes keeps a
// rolling upgrade's new tools visible soon without a client asking on every turn.
constexpr int kCacheTtlMs = 600000;

Poco::JSON::Object::Ptr serverInfo() {
  auto info = newObject();
  info->set("name", "agent-events");
  info->set("title", "agent-events");
  info->set("version", AEV_VERSION);
  return info;
}

Poco::JSON::Object::Ptr capabilities() {
  auto tools = newObject();
  tools->set("listChanged", false);
  auto caps = newObject();
  caps->set("tools", tools);
  return caps;
}

// A modern result: complete (no input requested), naming the server.
Poco::JSON::Object::Ptr completed(Poco::JSON::Object::Ptr result) {
  result->set("resultType", "complete");
  auto meta = newObject();
  meta->set(kMetaServerInfo, serverInfo());
  result->set("_meta", meta);
  return result;
}

// The same for every caller: shared caches may keep it.
Poco::JSON::Object::Ptr cacheable(Poco::JSON::Object::Ptr result) {
  result->set("ttlMs", kCacheTtlMs);
  result->set("cacheScope", "public");
  return result;
}

Poco::JSON::Array::Ptr supportedVersionArray() {
  Poco::JSON::Array::Ptr versions = new Poco::JSON::Array;
  for (const auto& v : supportedVersions()) versions->add(v);
  return versions;
}

bool hasCursor(const Poco::JSON::Object::Ptr& params) {
  return params && params->has("cursor") && !params->isNull("cursor");
}

std::string unsupportedVersion(const Var& id, const std::string& requested) {
  auto err = errorObject(rpc::kUnsupportedProtocolVersion, "Unsupported protocol version \"" + requested.substr(0, 40) +
                                                               "\"; supported: " + supportedList());
  auto data = newObject();
  data->set("supported", supportedVersionArray());
  data->set("requested", requested.substr(0, 40));
  err->set("data", data);
  return envelope(id, "error", err);
}

}  // namespace

Endpoint::Endpoint(http::AppContext& app, Options options)
    : app_(app), options_(std::move(options)), tools_(ToolRegistry::standard()) {}

std::string Endpoint::errorBody(int code, const std::string& message) { return errorReply(Var(), code, message); }

Answer Endpoint::handle(const Caller& caller, const RequestHeaders& headers, const std::string& body) {
  Var parsed;
  try {
    parsed = Poco::JSON::Parser().parse(body);
  } catch (const std::exception&) {
    return {400, errorReply(Var(), rpc::kParseError, "Parse error: the body is not JSON")};
  }
  if (parsed.type() == typeid(Poco::JSON::Array::Ptr))
    return {400,
            errorReply(Var(), rpc::kInvalidRequest, "Batches are not supported: send one JSON-RPC message per POST")};
  if (parsed.type() != typeid(Poco::JSON::Object::Ptr))
    return {400, errorReply(Var(), rpc::kInvalidRequest, "Invalid Request: a JSON-RPC message is an object")};
  auto msg = parsed.extract<Poco::JSON::Object::Ptr>();
  const bool hasId = msg->has("id");
  const Var id = hasId ? msg->get("id") : Var();
  const bool idValid = hasId && !id.isEmpty() && (id.isString() || id.isInteger());
  if (msg->optValue<std::string>("jsonrpc", "") != "2.0")
    return {200, errorReply(Var(), rpc::kInvalidRequest, "Invalid Request: \"jsonrpc\" must be \"2.0\"")};
  if (!msg->has("method")) {
    // A client's response (to a request we never send) is acknowledged like a notification.
    if (hasId && (msg->has("result") || msg->has("error"))) return {202, ""};
    return {200, errorReply(Var(), rpc::kInvalidRequest, "Invalid Request: no \"method\"")};
  }
  if (!msg->get("method").isString())
    return {200, errorReply(Var(), rpc::kInvalidRequest, "Invalid Request: \"method\" must be a string")};
  const auto method = msg->getValue<std::string>("method");
  const auto& headerVersion = headers.protocolVersion;
  if (!headerVersion.empty() && !isSupported(headerVersion))
    return {400, unsupportedVersion(idValid ? id : Var(), headerVersion)};
  if (!hasId) return {202, ""};  // notifications/initialized, notifications/cancelled, ...
  if (!idValid)
    return {200, errorReply(Var(), rpc::kInvalidRequest,
                            "Invalid Request: \"id\" must be a string or an integer, never null")};
  Poco::JSON::Object::Ptr params;
  if (msg->has("params") && !msg->isNull("params")) {
    params = msg->getObject("params");
    if (!params) return {200, errorReply(id, rpc::kInvalidParams, "Invalid params: \"params\" must be an object")};
  }
  // The era is the request's: a modern version in the header, or a _meta version the
  // header does not repeat (then the modern checks refuse it as a mismatch). A legacy
  // request whose _meta merely repeats its legacy header stays legacy.
  const auto metaVersion = metaString(params, kMetaProtocolVersion);
  if ((!headerVersion.empty() && isModern(headerVersion)) || (!metaVersion.empty() && metaVersion != headerVersion))
    return modern(caller, headers, id, method, params, metaVersion);
  return legacy(caller, headerVersion.empty() ? std::string(kAssumedVersion) : headerVersion, id, method, params);
}

Answer Endpoint::legacy(const Caller& caller, const std::string& version, const Var& id, const std::string& method,
                        const Poco::JSON::Object::Ptr& params) {
  if (method == "initialize") {
    std::optional<std::string> requested;
    if (params && params->has("protocolVersion") && params->get("protocolVersion").isString())
      requested = params->getValue<std::string>("protocolVersion");
    auto result = newObject();
    result->set("protocolVersion", negotiateLegacy(requested));
    result->set("capabilities", capabilities());
    result->set("serverInfo", serverInfo());
    result->set("instructions", kInstructions);
    return {200, envelope(id, "result", result)};
  }
  if (method == "ping") return {200, envelope(id, "result", newObject())};
  if (auto answer = toolMethod(caller, version, id, method, params, false)) return *answer;
  return {200, errorReply(id, rpc::kMethodNotFound,
                          "Method not found: " + method.substr(0, 80) +
                              " (this server offers initialize, ping, tools/list, tools/call)")};
}

// A 2026-07-28 request: its headers agree with its body, then one of the three methods.
// Every result says resultType and names the server in _meta; the cacheable ones (the
// same for every caller until the daemon is upgraded) carry ttlMs and cacheScope.
Answer Endpoint::modern(const Caller& caller, const RequestHeaders& headers, const Var& id, const std::string& method,
                        const Poco::JSON::Object::Ptr& params, const std::string& metaVersion) {
  if (auto problem = checkModernEnvelope(headers, method, params, metaVersion))
    return {problem->status, errorReply(id, problem->code, problem->message)};
  if (method == "server/discover") {
    auto result = newObject();
    result->set("supportedVersions", supportedVersionArray());
    result->set("capabilities", capabilities());
    result->set("instructions", kInstructions);
    return {200, envelope(id, "result", cacheable(completed(result)))};
  }
  if (auto answer = toolMethod(caller, metaVersion, id, method, params, true)) return *answer;
  return {404, errorReply(id, rpc::kMethodNotFound,
                          "Method not found: " + method.substr(0, 80) + " (" + kModernVersion +
                              " requests may call server/discover, tools/list, tools/call)")};
}

// tools/list and tools/call, the same in both eras but for the modern result fields;
// nothing for another method.
std::optional<Answer> Endpoint::toolMethod(const Caller& caller, const std::string& version, const Var& id,
                                           const std::string& method, const Poco::JSON::Object::Ptr& params,
                                           bool modernEra) {
  if (method == "tools/list") {
    if (hasCursor(params))
      return Answer{200,
                    errorReply(id, rpc::kInvalidParams, "Invalid params: unknown cursor (the tool list is one page)")};
    auto list = tools_.listResult();
    return Answer{200, envelope(id, "result", modernEra ? cacheable(completed(list)) : list)};
  }
  if (method == "tools/call") {
    int rpcError = 0;
    std::string rpcMessage;
    auto result = callTool(caller, version, params, rpcError, rpcMessage);
    if (rpcError) return Answer{200, errorReply(id, rpcError, rpcMessage)};
    return Answer{200, envelope(id, "result", modernEra ? completed(result) : result)};
  }
  return std::nullopt;
}

Poco::JSON::Object::Ptr Endpoint::callTool(const Caller& caller, const std::string& version,
                                           Poco::JSON::Object::Ptr params, int& rpcError, std::string& rpcMessage) {
  const auto started = std::chrono::steady_clock::now();
  std::string name;
  if (params && params->has("name") && params->get("name").isString()) name = params->getValue<std::string>("name");
  Poco::JSON::Object::Ptr arguments;
  bool argumentsOk = true;
  if (params && params->has("arguments") && !params->isNull("arguments")) {
    arguments = params->getObject("arguments");
    argumentsOk = static_cast<bool>(arguments);
  }
  const Tool* tool = tools_.find(name);
  Poco::JSON::Object::Ptr result;
  std::string outcome = "ok";
  std::size_t rows = 0;
  bool truncated = false;
  if (!tool) {
    rpcError = rpc::kInvalidParams;
    rpcMessage =
        name.empty() ? "Invalid params: \"name\" (the tool) is required" : "Unknown tool: " + name.substr(0, 80);
  } else if (!argumentsOk) {
    rpcError = rpc::kInvalidParams;
    rpcMessage = "Invalid params: \"arguments\" must be an object";
  } else {
    ToolContext ctx{app_,           caller.orgId,       caller.apiKeyId, caller.keyPrefix, caller.scopes,
                    caller.baseUrl, clock::nowMicros(), options_,        tool->name};
    try {
      Arguments args(tool->params, arguments);
      auto out = tool->handler(ctx, args);
      rows = out.rows;
      truncated = out.truncated;
      result = textContent(http::stringify(out.structured));
      result->set("structuredContent", out.structured);
      result->set("isError", false);
    } catch (const ToolError& e) {
      result = toolError(e.what());
      outcome = "isError";
    } catch (const ApiError& e) {
      if (e.status() >= 500) {
        rpcError = rpc::kInternalError;
        rpcMessage = std::string("Internal error: ") + e.what();
      } else {
        result = toolError(refusalText(e));
        outcome = "isError";
      }
    } catch (const std::exception& e) {
      spdlog::error("mcp: tool {} failed (request {}): {}", tool->name, caller.actor.requestId, e.what());
      rpcError = rpc::kInternalError;
      rpcMessage = "Internal error (request id " + caller.actor.requestId + ")";
    }
  }
  if (rpcError) outcome = std::to_string(rpcError);
  const auto durationMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  auto metadata =
      audit::metadata({{"tool", name.substr(0, 80)},
                       {"apiKeyId", std::to_string(caller.apiKeyId)},
                       {"outcome", outcome},
                       {"durationMs", std::round(durationMs * 1000.0) / 1000.0},
                       {"rows", static_cast<Poco::UInt64>(rows)},
                       {"truncated", truncated},
                       {"arguments", cutText(arguments ? http::stringify(arguments) : "{}", kAuditArgumentChars)},
                       {"userAgent", cutText(caller.userAgent, 200)},
                       {"protocolVersion", version}});
  app_.audit->append(caller.orgId, caller.actor, audit::Change{"mcp.call", "mcp", name.substr(0, 80), metadata});
  return result;
}

}  // namespace aev::mcp
