#include "mcp/arguments.h"

#include <Poco/JSON/Array.h>

#include <algorithm>

#include "common/text.h"
#include "http/request.h"

namespace aev::mcp {

namespace {
Param declared(std::string name, ParamType type, std::string description) {
  Param p;
  p.name = std::move(name);
  p.type = type;
  p.description = std::move(description);
  return p;
}
}  // namespace

Param Param::text(std::string name, std::string description, bool required) {
  auto p = declared(std::move(name), ParamType::String, std::move(description));
  p.required = required;
  p.maxLength = 1000;
  return p;
}

Param Param::oneOf(std::string name, std::string description, std::vector<std::string> values) {
  auto p = declared(std::move(name), ParamType::String, std::move(description));
  p.values = std::move(values);
  return p;
}

Param Param::integer(std::string name, std::string description, std::int64_t min, std::int64_t max,
                     std::optional<std::int64_t> defaultValue) {
  auto p = declared(std::move(name), ParamType::Integer, std::move(description));
  p.min = min;
  p.max = max;
  p.defaultValue = defaultValue;
  return p;
}

Param Param::flag(std::string name, std::string description) {
  return declared(std::move(name), ParamType::Boolean, std::move(description));
}

Param Param::strings(std::string name, std::string description) {
  return declared(std::move(name), ParamType::StringArray, std::move(description));
}

namespace {

const char* typeName(ParamType t) {
  switch (t) {
    case ParamType::String:
      return "string";
    case ParamType::Integer:
      return "integer";
    case ParamType::Number:
      return "number";
    case ParamType::Boolean:
      return "boolean";
    case ParamType::StringArray:
      return "array";
  }
  return "string";
}

std::string shownArgument(const Poco::Dynamic::Var& v) { return http::stringify(v).substr(0, 80); }

// What is wrong with one argument's value, or "" when nothing is.
std::string problemOf(const Param& p, const Poco::Dynamic::Var& v) {
  switch (p.type) {
    case ParamType::String: {
      if (!v.isString()) return "must be a string, not " + shownArgument(v);
      const auto s = v.extract<std::string>();
      if (!p.values.empty() && std::find(p.values.begin(), p.values.end(), s) == p.values.end())
        return "must be one of " + joinWithCommas(p.values) + ", not \"" + s.substr(0, 80) + "\"";
      if (p.maxLength && utf8Length(s) > *p.maxLength)
        return "must be at most " + std::to_string(*p.maxLength) + " characters";
      if (p.required && s.empty()) return "must not be empty";
      return "";
    }
    case ParamType::Integer: {
      const auto range = "must be an integer from " + std::to_string(*p.min) + " to " + std::to_string(*p.max);
      if (!v.isInteger()) return range + ", not " + shownArgument(v);
      const auto n = v.convert<std::int64_t>();
      if (n < *p.min || n > *p.max) return range + ", not " + std::to_string(n);
      return "";
    }
    case ParamType::Number:
      return v.isNumeric() ? "" : "must be a number, not " + shownArgument(v);
    case ParamType::Boolean:
      return v.isBoolean() ? "" : "must be true or false, not " + shownArgument(v);
    case ParamType::StringArray: {
      Poco::JSON::Array::Ptr arr;
      if (v.type() == typeid(Poco::JSON::Array::Ptr)) arr = v.extract<Poco::JSON::Array::Ptr>();
      if (!arr) return "must be an array of strings, not " + shownArgument(v);
      if (arr->size() > 50) return "must have at most 50 items";
      for (std::size_t i = 0; i < arr->size(); ++i)
        if (!arr->get(i).isString()) return "must be an array of strings";
      return "";
    }
  }
  return "";
}

}  // namespace

Poco::JSON::Object::Ptr inputSchema(const std::vector<Param>& params) {
  Poco::JSON::Object::Ptr schema = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  schema->set("type", "object");
  Poco::JSON::Object::Ptr properties = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  Poco::JSON::Array::Ptr required = new Poco::JSON::Array;
  for (const auto& p : params) {
    Poco::JSON::Object::Ptr prop = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
    prop->set("type", typeName(p.type));
    prop->set("description", p.description);
    if (!p.values.empty()) {
      Poco::JSON::Array::Ptr values = new Poco::JSON::Array;
      for (const auto& v : p.values) values->add(v);
      prop->set("enum", values);
    }
    if (p.min) prop->set("minimum", *p.min);
    if (p.max) prop->set("maximum", *p.max);
    if (p.defaultValue) prop->set("default", *p.defaultValue);
    if (p.maxLength) prop->set("maxLength", static_cast<Poco::UInt64>(*p.maxLength));
    if (p.type == ParamType::StringArray) {
      Poco::JSON::Object::Ptr items = new Poco::JSON::Object;
      items->set("type", "string");
      prop->set("items", items);
      prop->set("maxItems", 50);
    }
    properties->set(p.name, prop);
    if (p.required) required->add(p.name);
  }
  schema->set("properties", properties);
  if (required->size()) schema->set("required", required);
  schema->set("additionalProperties", false);
  return schema;
}

Arguments::Arguments(const std::vector<Param>& params, Poco::JSON::Object::Ptr args)
    : params_(params), args_(args ? args : Poco::JSON::Object::Ptr(new Poco::JSON::Object)) {
  std::vector<std::string> problems;
  std::vector<std::string> names;
  for (const auto& p : params_) names.push_back(p.name);
  for (const auto& [name, value] : *args_) {
    auto it = std::find_if(params_.begin(), params_.end(), [&](const Param& p) { return p.name == name; });
    if (it == params_.end()) {
      problems.push_back("unknown argument '" + name.substr(0, 80) + "' (this tool takes: " +
                         (names.empty() ? std::string("no arguments") : joinWithCommas(names)) + ")");
      continue;
    }
    if (value.isEmpty()) continue;  // null reads as absent
    if (auto problem = problemOf(*it, value); !problem.empty()) problems.push_back("'" + name + "' " + problem);
  }
  for (const auto& p : params_)
    if (p.required && (!args_->has(p.name) || args_->isNull(p.name)))
      problems.push_back("'" + p.name + "' is required (" + p.description + ")");
  if (!problems.empty()) {
    std::string text = "Invalid arguments: ";
    for (std::size_t i = 0; i < problems.size(); ++i) text += (i ? "; " : "") + problems[i];
    throw ToolError(text + ". Fix them and call again.");
  }
}

const Param& Arguments::param(const std::string& name) const {
  for (const auto& p : params_)
    if (p.name == name) return p;
  throw std::logic_error("tool argument not declared: " + name);
}

std::optional<std::string> Arguments::text(const std::string& name) const {
  param(name);
  if (!args_->has(name) || args_->isNull(name)) return std::nullopt;
  return args_->getValue<std::string>(name);
}

std::optional<std::int64_t> Arguments::optionalInteger(const std::string& name) const {
  const auto& p = param(name);
  if (!args_->has(name) || args_->isNull(name)) return p.defaultValue;
  return args_->get(name).convert<std::int64_t>();
}

std::int64_t Arguments::integer(const std::string& name) const {
  auto v = optionalInteger(name);
  if (!v) throw std::logic_error("integer argument without a default: " + name);
  return *v;
}

std::optional<double> Arguments::number(const std::string& name) const {
  param(name);
  if (!args_->has(name) || args_->isNull(name)) return std::nullopt;
  return args_->get(name).convert<double>();
}

bool Arguments::flag(const std::string& name) const {
  param(name);
  return args_->has(name) && !args_->isNull(name) && args_->get(name).convert<bool>();
}

std::vector<std::string> Arguments::strings(const std::string& name) const {
  param(name);
  std::vector<std::string> out;
  if (!args_->has(name) || args_->isNull(name)) return out;
  auto arr = args_->getArray(name);
  for (std::size_t i = 0; i < arr->size(); ++i) out.push_back(arr->getElement<std::string>(i));
  return out;
}

std::optional<std::int64_t> Arguments::id(const std::string& name) const {
  auto t = text(name);
  if (!t) return std::nullopt;
  auto n = parseInt64(*t);
  if (!n || *n < 1)
    throw ToolError("'" + name +
                    "' must be a decimal id like \"42\" (as get_context and the list tools show them), not \"" +
                    t->substr(0, 80) + "\".");
  return n;
}

std::string Arguments::fingerprint() const {
  Poco::JSON::Object copy(*args_);
  copy.remove("cursor");
  copy.remove("limit");
  return http::stringify(Poco::Dynamic::Var(Poco::JSON::Object::Ptr(new Poco::JSON::Object(copy))));
}

}  // namespace aev::mcp
