// The OpenAPI 3.1 document, built from the route table (http::Router's RouteInfo) and the
// schema catalog. Everything a generator or gateway needs is derived from the route's
// documentation by one rule each, so a new route gets it without a list to update:
// operationId from method + path, security from isPublic / apiKeyScope / the credential
// flags, x-tenant-id on every authenticated route, the error answers from the route's
// protocol (Problem, google.rpc.Status on OTLP, JSON-RPC on /mcp). References are local
// (`#/components/schemas/<Name>`); the per-schema files under /schemas/ keep theirs.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <Poco/JSON/Stringifier.h>

#include <cctype>
#include <set>
#include <sstream>

#include "ops/schemas.h"

namespace aev::ops {

namespace {

using Poco::JSON::Array;
using Poco::JSON::Object;

Object::Ptr parseObject(const std::string& text) {
  Poco::JSON::Parser parser;
  return parser.parse(text).extract<Object::Ptr>();
}

Object::Ptr ordered() { return new Object(Poco::JSON_PRESERVE_KEY_ORDER); }

std::string schemaRef(const std::string& name) { return "#/components/schemas/" + name; }

Object::Ptr refTo(const std::string& name) {
  auto o = ordered();
  o->set("$ref", schemaRef(name));
  return o;
}

// A catalog schema as a component: `$ref: "Name.json"` (resolved against the file's
// `$id` when served alone) becomes the local `#/components/schemas/Name`.
void localiseRefs(const Poco::Dynamic::Var& node) {
  if (node.type() == typeid(Object::Ptr)) {
    auto o = node.extract<Object::Ptr>();
    if (o->has("$ref") && o->get("$ref").isString()) {
      auto target = o->getValue<std::string>("$ref");
      if (target.ends_with(".json") && target.find('/') == std::string::npos)
        o->set("$ref", schemaRef(target.substr(0, target.size() - 5)));
    }
    for (const auto& [_, v] : *o) localiseRefs(v);
  } else if (node.type() == typeid(Array::Ptr)) {
    for (const auto& v : *node.extract<Array::Ptr>()) localiseRefs(v);
  }
}

// The protocol a route's errors follow.
enum class ErrorShape { Problem, RpcStatus, JsonRpc };

ErrorShape errorShapeOf(const RouteDoc& r) {
  // The OTLP/HTTP export paths follow that protocol's errors; the rest of the otlp tag (GET
  // /ingest/problems, what those exports refused) is the API's own.
  const auto& p = r.pathTemplate;
  if (r.tag == "otlp" && p.size() >= 10 && p.compare(p.size() - 10, 10, "/v1/traces") == 0)
    return ErrorShape::RpcStatus;
  if (r.tag == "mcp") return ErrorShape::JsonRpc;
  return ErrorShape::Problem;
}

Object::Ptr components() {
  auto c = ordered();
  c->set("securitySchemes", parseObject(R"({
    "bearer": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT",
      "description": "An access token from POST /auth/login, /auth/refresh or an organization switch."},
    "apiKey": {"type": "apiKey", "in": "header", "name": "X-API-Key",
      "description": "An API key (aes_...). The requirement lists the scope the route needs."},
    "apiKeyBearer": {"type": "http", "scheme": "bearer", "bearerFormat": "aes_ API key",
      "description": "The same API key as `Authorization: Bearer aes_...` (told apart from a JWT by its prefix)."},
    "apiKeyAxonpush": {"type": "apiKey", "in": "header", "name": "x-axonpush-api-key",
      "description": "The same API key under the header name the seed system's SDK sends."},
    "otlpBasic": {"type": "http", "scheme": "basic",
      "description": "OTLP routes only: Basic base64(<any>:<API key>), the Langfuse SDKs' form."},
    "refreshCookie": {"type": "apiKey", "in": "cookie", "name": "aev_refresh",
      "description": "The console's HttpOnly refresh cookie (POST /auth/login with refresh_cookie: true)."}
  })"));
  c->set("headers", parseObject(R"({
    "X-Request-Id": {"description": "The request's id (echoed when the request sent one).", "schema": {"type": "string"}},
    "WWW-Authenticate": {"description": "On a 401: the accepted credentials.", "schema": {"type": "string"}},
    "Retry-After": {"description": "On a 429 (and a 503): seconds to wait.", "schema": {"type": "integer", "minimum": 0}},
    "Allow": {"description": "On a 405: the methods the path accepts.", "schema": {"type": "string"}}
  })"));
  return c;
}

// The error schemas the catalog does not hold: the OTLP and JSON-RPC error bodies.
void addProtocolErrorSchemas(Object::Ptr schemas) {
  schemas->set("RpcStatus", parseObject(R"({
    "title": "RpcStatus", "type": "object", "description": "google.rpc.Status, the OTLP/HTTP error body.",
    "properties": {"code": {"type": "integer"}, "message": {"type": "string"},
      "details": {"type": "array", "items": {"type": "object"}}}})"));
  schemas->set("JsonRpcError", parseObject(R"({
    "title": "JsonRpcError", "type": "object", "required": ["jsonrpc", "error"],
    "properties": {"jsonrpc": {"const": "2.0"}, "id": {"type": ["string", "integer", "null"]},
      "error": {"type": "object", "required": ["code", "message"],
        "properties": {"code": {"type": "integer"}, "message": {"type": "string"}, "data": {}}}}})"));
}

Object::Ptr headerRefs(std::initializer_list<const char*> names) {
  auto h = ordered();
  for (const char* n : names) {
    auto o = ordered();
    o->set("$ref", std::string("#/components/headers/") + n);
    h->set(n, o);
  }
  return h;
}

Object::Ptr errorContent(ErrorShape shape) {
  auto content = ordered();
  auto media = [](const std::string& schema) {
    auto m = ordered();
    m->set("schema", refTo(schema));
    return m;
  };
  switch (shape) {
    case ErrorShape::Problem:
      content->set("application/problem+json", media("Problem"));
      break;
    case ErrorShape::RpcStatus:
      content->set("application/json", media("RpcStatus"));
      content->set("application/x-protobuf", parseObject(R"({"schema": {"type": "string", "format": "binary"}})"));
      break;
    case ErrorShape::JsonRpc:
      content->set("application/json", media("JsonRpcError"));
      break;
  }
  return content;
}

Object::Ptr errorResponse(ErrorShape shape, const std::string& description,
                          std::initializer_list<const char*> headers) {
  auto r = ordered();
  r->set("description", description);
  r->set("headers", headerRefs(headers));
  r->set("content", errorContent(shape));
  return r;
}

Object::Ptr successResponse(const RouteDoc& r) {
  auto ok = ordered();
  ok->set("description", r.noContent ? "No Content" : "Success");
  ok->set("headers", headerRefs({"X-Request-Id"}));
  if (r.noContent) return ok;
  auto content = ordered();
  auto media = ordered();
  if (!r.responseSchema.empty()) {
    media->set("schema", refTo(r.responseSchema));
    content->set(r.responseMediaType.empty() ? "application/json" : r.responseMediaType, media);
  } else if (!r.responseMediaType.empty()) {
    const bool json = r.responseMediaType.ends_with("json");
    media->set("schema", parseObject(json ? R"({"type": "object"})" : R"({"type": "string"})"));
    content->set(r.responseMediaType, media);
  } else {
    media->set("schema", parseObject(R"({"type": "object"})"));
    content->set("application/json", media);
  }
  ok->set("content", content);
  return ok;
}

Object::Ptr responsesOf(const RouteDoc& r) {
  const auto shape = errorShapeOf(r);
  auto responses = ordered();
  responses->set(r.noContent ? "204" : "2XX", successResponse(r));
  if (!r.isPublic)
    responses->set("401", errorResponse(shape, "No or bad credentials.", {"X-Request-Id", "WWW-Authenticate"}));
  responses->set(
      "429", errorResponse(shape, "A rate limit, quota or spend block: retry later.", {"X-Request-Id", "Retry-After"}));
  responses->set("4XX", errorResponse(shape, "The request was refused (the body says why).",
                                      {"X-Request-Id", "WWW-Authenticate", "Allow"}));
  responses->set("default", errorResponse(shape, "A server error (no stack trace, no SQL).", {"X-Request-Id"}));
  return responses;
}

// Either credential a route takes, as OpenAPI requirements (alternatives). A non-OAuth
// requirement may list the roles it needs (OpenAPI 3.1): here the API key's scope.
Array::Ptr securityOf(const RouteDoc& r) {
  Array::Ptr security = new Array;
  if (r.isPublic) {
    // The console's refresh cookie, or nothing at all (the body's refresh token).
    if (r.refreshCookie) {
      security->add(parseObject(R"({"refreshCookie": []})"));
      security->add(ordered());
    }
    return security;
  }
  auto requirement = [&](const std::string& scheme, bool scoped) {
    auto o = ordered();
    Array::Ptr scopes = new Array;
    if (scoped && r.apiKeyScope != "*") scopes->add(r.apiKeyScope);
    o->set(scheme, scopes);
    security->add(o);
  };
  if (r.bearerAccepted) requirement("bearer", false);
  if (!r.apiKeyScope.empty()) {
    requirement("apiKey", true);
    requirement("apiKeyBearer", true);
    requirement("apiKeyAxonpush", true);
    if (r.basicAccepted) requirement("otlpBasic", true);
  }
  return security;
}

std::string securityText(const RouteDoc& r) {
  if (r.isPublic || r.apiKeyScope.empty()) return "";
  std::string who = r.apiKeyScope == "*" ? "any API key" : "an API key with the `" + r.apiKeyScope + "` scope";
  std::string text = r.bearerAccepted ? "A Bearer token, or " + who : "Only " + who + " (no Bearer JWT)";
  text += " (X-API-Key, x-axonpush-api-key or Authorization: Bearer aes_...";
  text += r.basicAccepted ? ", or Authorization: Basic base64(<any>:<key>))." : ").";
  return text;
}

Object::Ptr parameter(const QueryParamDoc& q, const std::string& in) {
  auto p = ordered();
  p->set("name", q.name);
  p->set("in", in);
  p->set("required", q.required);
  if (!q.description.empty()) p->set("description", q.description);
  auto schema = ordered();
  schema->set("type", q.type.empty() ? "string" : q.type);
  if (!q.allowed.empty()) {
    Array::Ptr values = new Array;
    for (const auto& v : q.allowed) values->add(v);
    schema->set("enum", values);
  }
  p->set("schema", schema);
  return p;
}

Array::Ptr parametersOf(const RouteDoc& r) {
  Array::Ptr params = new Array;
  for (std::size_t pos = r.pathTemplate.find('{'); pos != std::string::npos; pos = r.pathTemplate.find('{', pos + 1)) {
    auto end = r.pathTemplate.find('}', pos);
    auto p = ordered();
    p->set("name", r.pathTemplate.substr(pos + 1, end - pos - 1));
    p->set("in", "path");
    p->set("required", true);
    p->set("schema", parseObject(R"({"type": "string"})"));
    params->add(p);
  }
  for (const auto& q : r.query) params->add(parameter(q, "query"));
  bool tenantDeclared = false;
  for (const auto& h : r.headers) {
    tenantDeclared = tenantDeclared || h.name == "x-tenant-id";
    params->add(parameter(h, "header"));
  }
  // Every authenticated route reads x-tenant-id (http/credentials.h).
  if (!r.isPublic && !tenantDeclared)
    params->add(parameter({"x-tenant-id",
                           "string",
                           "The organization to act in (one the user belongs to, else 403); with an API key it "
                           "must equal the key's organization if sent.",
                           {},
                           false},
                          "header"));
  return params;
}

Object::Ptr requestBodyOf(const RouteDoc& r) {
  auto body = ordered();
  body->set("required", !r.requestBodyOptional);
  auto content = ordered();
  std::vector<std::string> types = r.requestMediaTypes;
  if (types.empty()) types.push_back("application/json");
  for (const auto& type : types) {
    auto media = ordered();
    if (type.ends_with("json") && !r.requestSchema.empty())
      media->set("schema", refTo(r.requestSchema));
    else
      media->set("schema", parseObject(R"({"type": "string", "format": "binary"})"));
    content->set(type, media);
  }
  body->set("content", content);
  return body;
}

// One line per tag for the document's tag list (a tag not named here still gets one).
std::string tagDescription(const std::string& tag) {
  static const std::map<std::string, std::string> known = {
      {"ops", "Health, readiness, metrics and this document."},
      {"auth", "Registration, login, tokens."},
      {"users", "The caller's account and, for the instance admin, every user."},
      {"organizations", "Organizations, members and invitations."},
      {"admin", "Instance administration."},
      {"api-keys", "API keys of the active organization."},
      {"apps", "Apps and channels."},
      {"environments", "Environments events are tagged with."},
      {"events", "Publishing, listing and streaming events."},
      {"traces", "Traces built from events."},
      {"analytics", "Usage, cost and latency analytics."},
      {"moderation", "Moderation rules and their reports."},
      {"spend", "Spend policies."},
      {"alerts", "Alert rules and their events."},
      {"webhooks", "Webhook endpoints and deliveries."},
      {"exports", "Export destinations and deliveries."},
      {"audit", "The audit log."},
      {"otlp", "OpenTelemetry (OTLP/HTTP) trace ingest."},
      {"mcp", "The Model Context Protocol endpoint."},
  };
  auto it = known.find(tag);
  return it != known.end() ? it->second : "Operations on " + tag + ".";
}

std::string upperFirst(std::string s) {
  if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

}  // namespace

std::string operationIdOf(const std::string& method, const std::string& pathTemplate) {
  std::string id;
  for (char c : method) id += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::size_t start = 0;
  while (start < pathTemplate.size()) {
    auto slash = pathTemplate.find('/', start);
    if (slash == std::string::npos) slash = pathTemplate.size();
    std::string segment = pathTemplate.substr(start, slash - start);
    start = slash + 1;
    if (segment.empty()) continue;
    if (segment.front() == '{') {
      segment = segment.substr(1, segment.size() - 2);
      if (segment.ends_with("*")) segment.pop_back();
      id += "By";
    }
    // Words split at anything but a letter or digit; each starts upper case.
    std::string word;
    for (char c : segment + "-") {
      if (std::isalnum(static_cast<unsigned char>(c))) {
        word += c;
      } else if (!word.empty()) {
        id += upperFirst(word);
        word.clear();
      }
    }
  }
  return id;
}

std::string openApiDocument(const std::vector<RouteDoc>& routes, const std::string& baseUrl) {
  auto doc = ordered();
  doc->set("openapi", "3.1.0");
  auto info = ordered();
  info->set("title", "agent-events API");
  info->set("version", AEV_VERSION);
  info->set("description",
            "Ingest, stream and govern AI-agent events. Errors are application/problem+json (RFC 9457); the OTLP "
            "routes answer google.rpc.Status and /mcp JSON-RPC errors. operationId = the method in lower case, then "
            "each path segment in UpperCamelCase, a parameter as By<Name>.");
  // The project has chosen no licence yet: "UNLICENSED" (npm's word) says none is granted.
  info->set("license", parseObject(R"({"name": "UNLICENSED"})"));
  doc->set("info", info);
  Array::Ptr servers = new Array;
  auto server = ordered();
  server->set("url", baseUrl);
  server->set("description", "This daemon");
  servers->add(server);
  doc->set("servers", servers);

  auto comps = components();
  auto schemas = ordered();
  for (const auto& [name, text] : allSchemas()) {
    auto schema = parseObject(text);
    localiseRefs(schema);
    schemas->set(name, schema);
  }
  addProtocolErrorSchemas(schemas);

  std::set<std::string> tagsUsed;
  auto paths = ordered();
  for (const auto& r : routes) {
    Object::Ptr item = paths->getObject(r.pathTemplate);
    if (!item) item = ordered();
    auto op = ordered();
    op->set("operationId", operationIdOf(r.method, r.pathTemplate));
    op->set("summary", r.summary);
    const std::string tag = r.tag.empty() ? "ops" : r.tag;
    tagsUsed.insert(tag);
    Array::Ptr tags = new Array;
    tags->add(tag);
    op->set("tags", tags);
    if (auto text = securityText(r); !text.empty()) op->set("description", text);
    auto params = parametersOf(r);
    if (params->size() > 0) op->set("parameters", params);
    op->set("security", securityOf(r));
    if (!r.requestSchema.empty() || !r.requestMediaTypes.empty()) op->set("requestBody", requestBodyOf(r));
    op->set("responses", responsesOf(r));
    std::string method = r.method;
    for (auto& c : method) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    item->set(method, op);
    paths->set(r.pathTemplate, item);
  }
  Array::Ptr tagList = new Array;
  for (const auto& t : tagsUsed) {
    auto o = ordered();
    o->set("name", t);
    o->set("description", tagDescription(t));
    tagList->add(o);
  }
  doc->set("tags", tagList);
  doc->set("paths", paths);
  comps->set("schemas", schemas);
  doc->set("components", comps);
  std::ostringstream out;
  Poco::JSON::Stringifier::condense(doc, out);
  return out.str();
}

}  // namespace aev::ops
