#pragma once
// JSON Schemas (2020-12) for every `$schema` a second-shape body names, served at
// /schemas/<Name>.json, and the OpenAPI 3.1 document built from the route table.
#include <optional>
#include <string>
#include <vector>

namespace aev::ops {

struct RouteDoc {
  std::string method;
  std::string pathTemplate;  // /organizations/{id}
  std::string summary;
  std::string tag;
  bool isPublic = false;
};

// The schema text for a name ("Organization"), std::nullopt when unknown.
std::optional<std::string> schemaText(const std::string& name, const std::string& baseUrl);
std::vector<std::string> schemaNames();
std::string openApiDocument(const std::vector<RouteDoc>& routes, const std::string& baseUrl);

}  // namespace aev::ops
