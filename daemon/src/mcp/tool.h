#pragma once
// One MCP tool: its name, description, arguments (the input schema is generated from
// them), output schema, and the handler that answers it from the services the REST
// routes use. Handlers throw ToolError for what the model can fix (isError results).
#include <Poco/JSON/Object.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "mcp/arguments.h"
#include "mcp/options.h"

namespace aev::http {
struct AppContext;
}

namespace aev::mcp {

using JsonObject = Poco::JSON::Object::Ptr;

// Who calls (an API key with `read`, acting on its organization) and with what.
struct ToolContext {
  http::AppContext& app;
  std::int64_t orgId = 0;
  std::int64_t apiKeyId = 0;
  std::string keyPrefix;  // the first characters of the key, to name it without revealing it
  std::vector<std::string> scopes;
  std::string baseUrl;
  std::int64_t now = 0;  // µs, one clock reading per call
  const Options& options;
  std::string tool;
};

struct ToolOutput {
  JsonObject structured;  // conforms to the tool's outputSchema
  std::size_t rows = 0;   // for the audit entry
  bool truncated = false;
};

using ToolHandler = std::function<ToolOutput(const ToolContext&, const Arguments&)>;

struct Tool {
  std::string name;  // ^[a-z][a-z0-9_]*$
  std::string title;
  std::string description;
  std::vector<Param> params;
  JsonObject outputSchema;
  ToolHandler handler;
};

// An object output schema naming the top-level fields and their JSON types ("array",
// "object", "string", "integer", "number", "boolean"); listings add truncated, nextCursor
// and returned, windowed tools add window.
struct OutputField {
  std::string name;
  std::string type;
};
JsonObject outputSchema(const std::vector<OutputField>& fields, bool listing, bool windowed);

}  // namespace aev::mcp
