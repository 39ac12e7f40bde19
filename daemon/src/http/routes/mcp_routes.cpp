// POST /mcp: the Model Context Protocol endpoint (Streamable HTTP, stateless; the JSON-RPC
// side is mcp::Endpoint). Here the HTTP rules: browser origins refused unless allowed, an
// API key with `read` (any form of auth/credential_forms.h), a per-key rate, a small
// body. GET and DELETE get the router's 405 with Allow: POST (no SSE stream, no sessions).
#include <algorithm>

#include "auth/authenticator.h"
#include "common/clock.h"
#include "common/errors.h"
#include "http/audit_actor.h"
#include "http/context.h"
#include "http/credentials.h"
#include "http/router.h"
#include "mcp/endpoint.h"
#include "mcp/protocol.h"
#include "mcp/rate_limiter.h"

namespace aev::http {

namespace {

constexpr const char* kRealm = "Bearer realm=\"agent-events\"";

Response rpcFailure(int status, int code, const std::string& message) {
  Response r;
  r.status = status;
  r.body = mcp::Endpoint::errorBody(code, message);
  return r;
}

Response unauthorized(const std::string& message, bool keyPresented) {
  auto r = rpcFailure(401, mcp::rpc::kInvalidRequest, message);
  r.headers.emplace_back("WWW-Authenticate",
                         keyPresented ? std::string(kRealm) + ", error=\"invalid_token\"" : std::string(kRealm));
  return r;
}

// Answers as JSON, or as one SSE event for a client that accepts only text/event-stream.
void negotiateMedia(const Request& req, Response& r) {
  const auto accept = req.header("accept");
  const bool sseOnly = accept.find("text/event-stream") != std::string::npos &&
                       accept.find("application/json") == std::string::npos && accept.find("*/*") == std::string::npos;
  if (!sseOnly || r.body.empty()) return;
  r.contentType = "text/event-stream";
  r.body = "event: message\ndata: " + r.body + "\n\n";
  r.headers.emplace_back("Cache-Control", "no-cache");
  r.headers.emplace_back("X-Accel-Buffering", "no");
}

}  // namespace

void registerMcpRoutes(Router& router, AppContext& ctx, const mcp::Options& options) {
  auto endpoint = std::make_shared<mcp::Endpoint>(ctx, options);
  auto limiter = std::make_shared<mcp::RateLimiter>(std::max(1, options.callsPerMinute));
  router.add(
      "POST", "/mcp",
      [&ctx, endpoint, limiter](Request& req) {
        const auto& opts = endpoint->options();
        const auto origin = req.header("origin");
        if (!origin.empty() &&
            std::find(opts.allowedOrigins.begin(), opts.allowedOrigins.end(), origin) == opts.allowedOrigins.end())
          return rpcFailure(403, mcp::rpc::kInvalidRequest,
                            "Origin not allowed: add it to mcp.allowed_origins to call /mcp from a browser");
        // The API key in any of its forms (auth/credential_forms.h); dashboard JWTs are not
        // accepted here.
        auto credentials = credentialsOf(req);
        const auto key = credentials.apiKey;
        if (key.empty())
          return unauthorized("An API key is required. Accepted: " + auth::acceptedCredentialForms(false, false) + ".",
                              false);
        credentials.authorization.clear();
        auth::Principal p;
        try {
          p = ctx.authenticator->userOrApiKey(credentials, "read");
        } catch (const ApiError& e) {
          if (e.status() == 401) {
            // The authenticator's text names the session form too, which /mcp does not take.
            const std::string detail = e.detail();
            return unauthorized(detail.substr(0, detail.find(" Accepted: ")) +
                                    " Accepted: " + auth::acceptedCredentialForms(false, false) + ".",
                                true);
          }
          if (e.status() != 403) throw;
          auto r = rpcFailure(403, mcp::rpc::kInvalidRequest, e.what());
          r.headers.emplace_back("WWW-Authenticate", "Bearer error=\"insufficient_scope\", scope=\"read\"");
          return r;
        }
        const auto orgId = p.requireOrg();
        if (auto wait = limiter->admit(p.apiKeyId, clock::nowMicros())) {
          auto r = rpcFailure(429, mcp::rpc::kInvalidRequest,
                              "Rate limit: " + std::to_string(opts.callsPerMinute) + " calls per minute per API key");
          r.headers.emplace_back("Retry-After", std::to_string(wait));
          return r;
        }
        const auto contentType = req.header("content-type");
        if (contentType.rfind("application/json", 0) != 0)
          return rpcFailure(415, mcp::rpc::kInvalidRequest, "Content-Type must be application/json");
        if (req.body.size() > opts.maxBodyBytes)
          return rpcFailure(413, mcp::rpc::kInvalidRequest,
                            "The body exceeds " + std::to_string(opts.maxBodyBytes) + " bytes (mcp.max_body_bytes)");
        mcp::Caller caller;
        caller.orgId = orgId;
        caller.apiKeyId = p.apiKeyId;
        caller.keyPrefix = key.substr(0, std::min<std::size_t>(key.size(), 12));
        caller.scopes = p.scopes;
        caller.actor = actorOf(p, req);
        caller.actor.source = "mcp";
        caller.baseUrl = req.baseUrl;
        caller.userAgent = req.header("user-agent");
        auto answer = endpoint->handle(
            caller, {req.header("mcp-protocol-version"), req.header("mcp-method"), req.header("mcp-name")}, req.body);
        Response r;
        r.status = answer.status;
        if (answer.body.empty()) {
          r.contentType.clear();
        } else {
          r.body = std::move(answer.body);
          negotiateMedia(req, r);
        }
        return r;
      },
      "Model Context Protocol (Streamable HTTP, stateless, JSON answers; revisions 2026-07-28 and 2025-11-25 to "
      "2025-03-26): read-only tools over this organization's events, traces, analytics, moderation, alerts and spend. "
      "API key with read.",
      "mcp");
}

}  // namespace aev::http
