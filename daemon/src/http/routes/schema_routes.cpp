// /openapi.json and /schemas/<Name>.json (public; docs/api.md#the-two-shapes).
#include "common/errors.h"
#include "http/context.h"
#include "http/router.h"
#include "ops/schemas.h"

namespace aev::http {

namespace {

// What the OpenAPI document says about routes whose files do not document themselves:
// the API-key scope each one checks (auth::Authenticator::userOrApiKey in its handler),
// request and answer bodies, and the query parameters of the first-shape lists and
// streams. A route named here that no longer exists stops start-up (Router::document),
// so the document cannot silently describe a route that is gone.
void documentFirstShapeRoutes(Router& router) {
  struct Access {
    const char* method;
    const char* path;
    const char* apiKeyScope;
    const char* requestSchema;
    const char* responseMediaType;
  };
  static const Access kAccess[] = {
      {"POST", "/auth/register", "", "RegisterInput", ""},
      {"POST", "/auth/login", "", "LoginInput", ""},
      {"POST", "/auth/refresh", "", "RefreshInput", ""},
      {"POST", "/auth/logout", "", "RefreshInput", ""},
      {"GET", "/auth/whoami", "*", "", ""},
      {"POST", "/event", "publish", "EventInput", ""},
      {"POST", "/events/batch", "publish", "EventBatchInput", ""},
      {"GET", "/event/{channelId}/list", "read", "", ""},
      {"GET", "/channel/{channelId}/subscribe", "subscribe", "", "text/event-stream"},
      {"GET", "/channel/{channelId}/{eventIdentifier}/subscribe", "subscribe", "", "text/event-stream"},
      {"POST", "/stream-tokens", "subscribe", "StreamTokenInput", ""},
      {"GET", "/traces", "read", "", ""},
      {"GET", "/traces/{traceId}/events", "read", "", ""},
      {"GET", "/traces/{traceId}/summary", "read", "", ""},
      {"GET", "/analytics/breakdown", "read", "", ""},
      {"GET", "/analytics/dimensions", "read", "", ""},
      {"GET", "/analytics/timeseries", "read", "", ""},
      {"GET", "/analytics/latency", "read", "", ""},
      {"GET", "/moderation/violations", "read", "", ""},
      {"GET", "/moderation/efficacy", "read", "", ""},
      {"POST", "/moderation/evaluate", "publish", "ModerationSampleInput", ""},
      {"POST", "/spend-policies/check", "publish", "SpendCheckInput", ""},
      {"POST", "/v1/traces", "publish", "OtlpTraceExport", ""},
      {"POST", "/api/public/otel/v1/traces", "publish", "OtlpTraceExport", ""},
      {"POST", "/mcp", "read", "JsonRpcRequest", ""},
      {"GET", "/metrics", "", "", "text/plain"},
  };
  for (const auto& a : kAccess)
    router.documentAccess(a.method, a.path, a.apiKeyScope, a.requestSchema, a.responseMediaType);

  // The JSON bodies of the Bearer routes (each handler's BodyReader; ops/input_schemas.cpp).
  struct Body {
    const char* method;
    const char* path;
    const char* schema;
  };
  static const Body kBodies[] = {
      {"POST", "/organizations", "OrganizationInput"},
      {"PATCH", "/organizations/{id}", "OrganizationPatch"},
      {"PATCH", "/organization", "OrganizationPatch"},
      {"PATCH", "/organizations/{orgId}/members/{userId}", "MemberRoleInput"},
      {"POST", "/organizations/{id}/invitations", "InvitationInput"},
      {"PATCH", "/users/me", "UserPatch"},
      {"PATCH", "/users/me/active-org", "ActiveOrgInput"},
      {"PATCH", "/v2/users/me/active-org", "ActiveOrgInputV2"},
      {"PUT", "/users/{id}", "UserUpdate"},
      {"POST", "/api-keys", "ApiKeyInput"},
      {"PATCH", "/api-keys/{id}", "ApiKeyPatch"},
      {"POST", "/apps", "NameInput"},
      {"PATCH", "/apps/{appId}", "NameInput"},
      {"POST", "/apps/{appId}/channels", "NameInput"},
      {"POST", "/channel", "ChannelInput"},
      {"POST", "/environments", "EnvironmentInput"},
      {"PATCH", "/environments/{environmentId}", "EnvironmentPatch"},
      {"POST", "/admin/access-requests/{requestId}/status", "AccessRequestDecision"},
      {"POST", "/moderation/rules", "ModerationRuleInput"},
      {"PATCH", "/moderation/rules/{ruleId}", "ModerationRulePatch"},
      {"POST", "/spend-policies", "SpendPolicyInput"},
      {"PATCH", "/spend-policies/{policyId}", "SpendPolicyPatch"},
      {"POST", "/export-destinations", "ExportDestinationInput"},
      {"PATCH", "/export-destinations/{destinationId}", "ExportDestinationPatch"},
      {"POST", "/export-destinations/{destinationId}/redeliver", "ExportRedeliverInput"},
      {"POST", "/webhooks/endpoints", "WebhookEndpointInput"},
      {"PATCH", "/webhooks/endpoints/{id}", "WebhookEndpointPatch"},
      {"POST", "/v2/alerts", "AlertRuleInput"},
      {"PATCH", "/v2/alerts/{alertRuleId}", "AlertRulePatch"},
  };
  for (const auto& b : kBodies) router.documentationOf(b.method, b.path).requestSchema = b.schema;

  // Credentials and headers beyond the default (a Bearer token, plus an API key where
  // apiKeyScope says so, and x-tenant-id on every authenticated route).
  router.documentationOf("POST", "/auth/refresh").refreshCookie = true;
  router.documentationOf("POST", "/auth/logout").refreshCookie = true;
  auto& mcp = router.documentationOf("POST", "/mcp");
  mcp.bearerAccepted = false;  // API keys only (http/routes/mcp_routes.cpp)
  mcp.headers = {{"mcp-protocol-version", "string", "the MCP revision the client speaks", {}, false},
                 {"mcp-method", "string", "the JSON-RPC method (2026-07-28 revision)", {}, false},
                 {"mcp-name", "string", "the tool or resource name (2026-07-28 revision)", {}, false},
                 {"origin", "string", "a browser's origin: only mcp.allowed_origins are served", {}, false}};
  auto& otlp = router.documentationOf("POST", "/v1/traces");
  otlp.basicAccepted = true;
  otlp.requestMediaTypes = {"application/x-protobuf", "application/json"};
  otlp.query = {{"channel_id", "integer", "the channel to ingest into, when x-channel-id is not sent", {}, false}};
  otlp.headers = {{"x-channel-id", "integer", "the channel to ingest into (or ?channel_id=)", {}, false},
                  {"content-encoding", "string", "gzip when the body is compressed", {"gzip", "identity"}, false}};
  router.documentationOf("POST", "/webhooks/ingest/{endpointId}").headers = {
      {"x-internal-key", "string", "the service's internal key; every other caller gets a 403", {}, true}};
  for (const char* path : {"/channel/{channelId}/subscribe", "/channel/{channelId}/{eventIdentifier}/subscribe"})
    router.documentationOf("GET", path).headers = {
        {"last-event-id", "string", "resume after this event id (an EventSource reconnecting sends it)", {}, false}};

  const ops::QueryParamDoc page{"page", "integer", "1-based page, default 1", {}, false};
  const ops::QueryParamDoc limit{"limit", "integer", "1 to 100, default 20", {}, false};
  const std::vector<ops::QueryParamDoc> streamQuery = {
      {"agent_id", "string", "only events of this agentId", {}, false},
      {"event_type", "string", "only events of this eventType", {}, false},
      {"trace_id", "string", "only events of this traceId", {}, false},
      {"user", "string", "only events of this end user (metadata.user or a convention's user id)", {}, false},
      {"last_event_id", "string", "resume after this event id (as the Last-Event-ID header)", {}, false},
      {"stream_token", "string", "a token from POST /stream-tokens, for clients that cannot send headers", {}, false},
  };
  router.document("POST", "/event", {}, "Event");
  router.document("POST", "/events/batch", {}, "EventBatchResult");
  router.document(
      "GET", "/event/{channelId}/list",
      {page,
       limit,
       {"cursor", "string", "meta.nextCursor of the previous page (instead of page)", {}, false},
       {"traceId", "string", "only events of this traceId (also trace_id)", {}, false},
       {"eventType", "string", "only events of this eventType (also event_type)", {}, false},
       {"agentId", "string", "only events of this agentId (also agent_id)", {}, false},
       {"trace_id", "string", "as traceId", {}, false},
       {"event_type", "string", "as eventType", {}, false},
       {"agent_id", "string", "as agentId", {}, false},
       {"user", "string", "only events of this end user (metadata.user or a convention's user id)", {}, false},
       {"since", "string", "RFC 3339, events received at or after", {}, false},
       {"until", "string", "RFC 3339, events received before", {}, false}},
      "EventPage");
  router.document("GET", "/channel/{channelId}/subscribe", streamQuery, "");
  router.document("GET", "/channel/{channelId}/{eventIdentifier}/subscribe", streamQuery, "");
  router.document("POST", "/stream-tokens", {}, "StreamToken");
  for (const char* otlpPath : {"/v1/traces", "/api/public/otel/v1/traces"})
    router.document("POST", otlpPath,
                    {{"channel_id", "integer", "the channel to ingest into, as header x-channel-id", {}, false}},
                    "OtlpExportResult");
  router.document(
      "GET", "/traces",
      {page,
       limit,
       {"app", "string", "app id", {}, false},
       {"channel", "string", "channel id", {}, false},
       {"agent", "string", "agentId", {}, false},
       {"model", "string", "traces with an event of this model", {}, false},
       {"provider", "string", "traces with an event of this provider", {}, false},
       {"tool", "string", "traces with an event of this tool", {}, false},
       {"environment", "string", "traces with an event in this environment (id or slug)", {}, false},
       {"user", "string", "traces of this end user (exact)", {}, false},
       {"session", "string", "traces of this session (exact)", {}, false},
       {"filterTagKey", "string", "custom attribute key; with filterTagValue", {}, false},
       {"filterTagValue", "string", "traces with an event whose tag filterTagKey has this value", {}, false},
       {"status", "string", "error: with errors; ok: without", {"error", "ok"}, false},
       {"since", "string", "RFC 3339, traces starting at or after", {}, false},
       {"until", "string", "RFC 3339, traces starting before", {}, false},
       {"sort",
        "string",
        "the order (default start)",
        {"start", "duration", "events", "errors", "tokens", "cost"},
        false},
       {"order", "string", "desc (default) or asc", {"desc", "asc"}, false}},
      "TraceList");
  router.document("GET", "/traces/{traceId}/summary", {}, "TraceSummary");
  router.document("POST", "/auth/login", {}, "TokenPair");
  router.document("POST", "/auth/refresh", {}, "TokenPair");
  router.document("GET", "/auth/whoami", {}, "WhoAmI");

  // Answers whose `$schema` names a catalog schema (http/render.cpp, the routes' withSchema).
  struct Answer {
    const char* method;
    const char* path;
    const char* schema;
  };
  static const Answer kAnswers[] = {
      {"POST", "/organizations", "Organization"},
      {"GET", "/organizations/{id}", "Organization"},
      {"PATCH", "/organizations/{id}", "Organization"},
      {"PATCH", "/organization", "Organization"},
      {"GET", "/v2/users/me/organizations", "OrganizationMemberships"},
      {"PATCH", "/v2/users/me/active-org", "ActiveOrgResult"},
      {"PATCH", "/organizations/{orgId}/members/{userId}", "OkResult"},
      {"GET", "/admin/access-requests", "AccessRequestList"},
      {"POST", "/admin/access-requests/{requestId}/status", "OkResult"},
      {"POST", "/apps", "App"},
      {"GET", "/apps/{appId}", "App"},
      {"PATCH", "/apps/{appId}", "App"},
      {"POST", "/apps/{appId}/channels", "Channel"},
      {"POST", "/channel", "Channel"},
      {"GET", "/channel/{id}", "Channel"},
      {"POST", "/environments", "Environment"},
      {"GET", "/environments", "EnvironmentList"},
      {"GET", "/environments/{environmentId}", "Environment"},
      {"PATCH", "/environments/{environmentId}", "Environment"},
  };
  for (const auto& a : kAnswers) router.document(a.method, a.path, {}, a.schema);
  router.document("GET", "/admin/access-requests",
                  {{"status", "string", "only requests in this state", {"pending", "approved", "rejected"}, false}},
                  "AccessRequestList");

  // First-shape answers (no `$schema` field) of the routes that do not document their own.
  static const Answer kFirstShapeAnswers[] = {
      {"GET", "/healthz", "Health"},
      {"GET", "/readyz", "Readiness"},
      {"POST", "/auth/register", "User"},
      {"GET", "/users/me", "User"},
      {"PATCH", "/users/me", "User"},
      {"GET", "/users/me/organizations", "MembershipList"},
      {"PATCH", "/users/me/active-org", "TokenPair"},
      {"GET", "/users", "UserList"},
      {"PUT", "/users/{id}", "User"},
      {"GET", "/organizations/{id}/members", "MemberList"},
      {"GET", "/organizations/{id}/contents", "OrganizationContents"},
      {"POST", "/organizations/{id}/invitations", "Invitation"},
      {"GET", "/organizations/{id}/invitations", "InvitationList"},
      {"POST", "/invitations/{code}/accept", "Membership"},
      {"POST", "/api-keys", "ApiKey"},
      {"GET", "/api-keys", "ApiKeyList"},
      {"GET", "/admin/plugins", "PluginReport"},
      {"GET", "/apps", "AppList"},
      {"GET", "/traces/{traceId}/events", "TraceEventList"},
      {"PATCH", "/api-keys/{id}", "ApiKey"},
      {"GET", "/webhooks/endpoints/channel/{channelId}", "WebhookEndpointList"},
      {"GET", "/webhooks/deliveries/{endpointId}", "WebhookDeliveryList"},
      {"POST", "/webhooks/endpoints/{id}/deliveries/{deliveryId}/redeliver", "QueuedResult"},
      {"POST", "/webhooks/ingest/{endpointId}", "PendingResult"},
      {"POST", "/mcp", "JsonRpcMessage"},
  };
  for (const auto& a : kFirstShapeAnswers) router.documentAnswer(a.method, a.path, a.schema);

  // Every DELETE, and logout, answers 204 with no body.
  for (const auto& r : router.routes())
    if (r.method == "DELETE" && r.tag != "console") router.documentNoContent(r.method, r.pathTemplate);
  router.documentNoContent("POST", "/auth/logout");
  router.document("GET", "/admin/users",
                  {{"q", "string", "part of an e-mail address or username", {}, false},
                   {"limit", "integer", "1 to 500, default 50", {}, false}},
                  "AdminUserList");
}

}  // namespace

void registerSchemaRoutes(Router& router, AppContext&) {
  documentFirstShapeRoutes(router);
  router.add(
      "GET", "/schemas/{file}",
      [](Request& req) {
        std::string name = req.param("file");
        if (name.size() > 5 && name.ends_with(".json")) name.resize(name.size() - 5);
        auto text = ops::schemaText(name, req.baseUrl);
        if (!text) throw errors::notFound("Schema");
        return Response::text(200, "application/schema+json", *text);
      },
      "The JSON Schema named by a response's `$schema`.", "ops", true);

  // Registered last, it captures itself too; the route table is read per request so the
  // document always matches what the router serves.
  router.add(
      "GET", "/openapi.json",
      [&router](Request& req) {
        std::vector<ops::RouteDoc> docs;
        for (const auto& r : router.routes())
          if (r.tag != "console") docs.push_back(r);  // the console's web files are not part of the API
        return Response::text(200, "application/json", ops::openApiDocument(docs, req.baseUrl));
      },
      "This OpenAPI 3.1 document.", "ops", true);
  router.documentAccess("GET", "/schemas/{file}", "", "", "application/schema+json");
  router.documentAnswer("GET", "/schemas/{file}", "JsonSchema");
  router.documentAnswer("GET", "/openapi.json", "OpenApiDocument");
}

}  // namespace aev::http
