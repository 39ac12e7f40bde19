#include "mcp/registry.h"

#include <Poco/JSON/Array.h>

#include <stdexcept>

namespace aev::mcp {

namespace {

bool validName(const std::string& name) {
  if (name.empty() || name.size() > 64 || name[0] < 'a' || name[0] > 'z') return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

// Every tool only reads this organization's data: clients may auto-approve them.
JsonObject readOnlyAnnotations(const std::string& title) {
  JsonObject a = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  a->set("title", title);
  a->set("readOnlyHint", true);
  a->set("destructiveHint", false);
  a->set("idempotentHint", true);
  a->set("openWorldHint", false);
  return a;
}

}  // namespace

ToolRegistry ToolRegistry::standard() {
  ToolRegistry r;
  addContextTools(r);
  addEventTools(r);
  addTraceTools(r);
  addSessionTools(r);
  addAnalyticsTools(r);
  addAlertTools(r);
  addModerationTools(r);
  addSpendTools(r);
  return r;
}

void ToolRegistry::add(Tool tool) {
  if (!validName(tool.name) || find(tool.name)) throw std::logic_error("bad or repeated MCP tool name: " + tool.name);
  tools_.push_back(std::move(tool));
}

const Tool* ToolRegistry::find(const std::string& name) const {
  for (const auto& t : tools_)
    if (t.name == name) return &t;
  return nullptr;
}

JsonObject ToolRegistry::listResult() const {
  Poco::JSON::Array::Ptr list = new Poco::JSON::Array;
  for (const auto& t : tools_) {
    JsonObject obj = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
    obj->set("name", t.name);
    obj->set("title", t.title);
    obj->set("description", t.description);
    obj->set("inputSchema", inputSchema(t.params));
    obj->set("outputSchema", t.outputSchema);
    obj->set("annotations", readOnlyAnnotations(t.title));
    list->add(obj);
  }
  JsonObject result = new Poco::JSON::Object;
  result->set("tools", list);
  return result;
}

JsonObject outputSchema(const std::vector<OutputField>& fields, bool listing, bool windowed) {
  JsonObject schema = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  schema->set("type", "object");
  JsonObject properties = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  Poco::JSON::Array::Ptr required = new Poco::JSON::Array;
  auto add = [&](const std::string& name, Poco::Dynamic::Var type) {
    JsonObject p = new Poco::JSON::Object;
    p->set("type", type);
    properties->set(name, p);
    required->add(name);
  };
  for (const auto& f : fields) add(f.name, f.type);
  add("truncated", "boolean");
  if (listing) {
    add("returned", "integer");
    Poco::JSON::Array::Ptr stringOrNull = new Poco::JSON::Array;
    stringOrNull->add("string");
    stringOrNull->add("null");
    add("nextCursor", stringOrNull);
  }
  if (windowed) add("window", "object");
  schema->set("properties", properties);
  schema->set("required", required);
  return schema;
}

}  // namespace aev::mcp
