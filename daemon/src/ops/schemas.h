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
};

// The schema text for a name ("Organization"), std::nullopt when unknown.
std::optional<std::string> schemaText(const std::string& name, const std::string& baseUrl);
std::vector<std::string> schemaNames();
// Schemas kept in their own files (e.g. analytics_schemas.cpp), merged into the catalog.
const std::map<std::string, std::string>& analyticsSchemas();
const std::map<std::string, std::string>& moderationSchemas();
const std::map<std::string, std::string>& auditSchemas();
const std::map<std::string, std::string>& alertSchemas();
const std::map<std::string, std::string>& spendSchemas();
const std::map<std::string, std::string>& deliverySchemas();
const std::map<std::string, std::string>& eventSchemas();
const std::map<std::string, std::string>& accountSchemas();

std::string openApiDocument(const std::vector<RouteDoc>& routes, const std::string& baseUrl);

}  // namespace aev::ops
