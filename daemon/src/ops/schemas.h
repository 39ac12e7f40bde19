#pragma once
// JSON Schemas (2020-12) for every `$schema` a second-shape body names, served at
// /schemas/<Name>.json, and the OpenAPI 3.1 document built from the route table.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace aev::ops {

// A query parameter as the OpenAPI document shows it.
struct QueryParamDoc {
  std::string name;
  std::string type;  // "string" | "integer"
  std::string description;
  std::vector<std::string> allowed;  // enum, when not empty
  bool required = false;
};

// What a route accepts and answers, as the OpenAPI document shows it (http::RouteInfo is
// this type: the router keeps it per route, route files fill it in).

struct RouteDoc {
  std::string method;
  std::string pathTemplate;  // /organizations/{id}
  std::string summary;
  std::string tag;
  bool isPublic = false;
  std::vector<QueryParamDoc> query;
  std::string responseSchema;  // a catalog name for the 2XX body, "" when undocumented
  std::string apiKeyScope{};   // "": Bearer only; else an API key with this scope works too ("*": any key)
  std::string requestSchema{};      // a catalog name for the JSON request body, "" when none is documented
  std::string responseMediaType{};  // of the 2XX body when it is not JSON (text/event-stream, text/plain)
  bool noContent = false;           // 204 with no body
  // Request headers the handler reads besides the credentials (x-channel-id, Last-Event-ID,
  // mcp-protocol-version, ...); x-tenant-id is added to every authenticated route unless
  // declared here (e.g. required on the first-shape app and channel routes).
  std::vector<QueryParamDoc> headers{};
  bool bearerAccepted = true;        // a Bearer JWT works (false on /mcp: API keys only)
  bool basicAccepted = false;        // Authorization: Basic base64(<any>:<key>) (the OTLP routes)
  bool refreshCookie = false;        // the console's refresh cookie stands in for the body's token
  bool requestBodyOptional = false;  // the body may be absent (the cookie routes)
  // Media types of the request body; empty: application/json. A JSON type gets
  // requestSchema, any other a binary string.
  std::vector<std::string> requestMediaTypes{};
};

// The schema text for a name ("Organization"), std::nullopt when unknown.
std::optional<std::string> schemaText(const std::string& name, const std::string& baseUrl);
std::vector<std::string> schemaNames();
// Schemas kept in their own files (e.g. analytics_schemas.cpp), merged into the catalog.
const std::map<std::string, std::string>& analyticsSchemas();
const std::map<std::string, std::string>& moderationSchemas();
const std::map<std::string, std::string>& auditSchemas();
const std::map<std::string, std::string>& sessionSchemas();  // sessions, end users
const std::map<std::string, std::string>& alertSchemas();
const std::map<std::string, std::string>& spendSchemas();
const std::map<std::string, std::string>& deliverySchemas();
const std::map<std::string, std::string>& eventSchemas();
const std::map<std::string, std::string>& accountSchemas();
const std::map<std::string, std::string>& inputSchemas();  // request bodies

// The catalog, every name → schema text (the `$ref`s in it name other schemas' files).
const std::map<std::string, std::string>& allSchemas();

// The OpenAPI 3.1 document of these routes (ops/openapi.cpp).
std::string openApiDocument(const std::vector<RouteDoc>& routes, const std::string& baseUrl);
// The operationId of a route, by the one rule docs/api.md#operation-ids states: the
// method in lower case, then each path segment in UpperCamelCase, a parameter `{name}` as
// `By` + Name (GET /apps/{appId}/channels -> getAppsByAppIdChannels).
std::string operationIdOf(const std::string& method, const std::string& pathTemplate);

}  // namespace aev::ops
