#pragma once
// A tool's arguments: declared once (the input schema is generated from the same
// declaration) and checked all at once, so a model gets every mistake and the fix in one
// tool error (SEP-1303: input errors are tool results with isError, not protocol errors).
#include <Poco/JSON/Object.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace aev::mcp {

// A tool result with isError: the text tells the model how to correct the call.
class ToolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class ParamType { String, Integer, Number, Boolean, StringArray };

struct Param {
  std::string name;
  ParamType type = ParamType::String;
  std::string description;
  bool required = false;
  std::vector<std::string> values;                     // String: the allowed values (an enum) when not empty
  std::optional<std::int64_t> min, max, defaultValue;  // Integer
  std::optional<std::size_t> maxLength;                // String (code points)

  static Param text(std::string name, std::string description, bool required = false);
  static Param oneOf(std::string name, std::string description, std::vector<std::string> values);
  static Param integer(std::string name, std::string description, std::int64_t min, std::int64_t max,
                       std::optional<std::int64_t> defaultValue = std::nullopt);
  static Param flag(std::string name, std::string description);
  static Param strings(std::string name, std::string description);
};

// The JSON Schema (2020-12, flat: no unions, no nullable) of a parameter list.
Poco::JSON::Object::Ptr inputSchema(const std::vector<Param>& params);

class Arguments {
 public:
  // Checks `args` (may be null: no arguments) against `params`; throws ToolError listing
  // every problem (unknown names, wrong types, values out of range or not allowed).
  Arguments(const std::vector<Param>& params, Poco::JSON::Object::Ptr args);

  std::optional<std::string> text(const std::string& name) const;
  std::int64_t integer(const std::string& name) const;  // its value or its default
  std::optional<std::int64_t> optionalInteger(const std::string& name) const;
  std::optional<double> number(const std::string& name) const;
  bool flag(const std::string& name) const;  // false when absent
  std::vector<std::string> strings(const std::string& name) const;
  // A decimal id argument (ids are strings in this API): ToolError when not one.
  std::optional<std::int64_t> id(const std::string& name) const;

  // The arguments as sent, minus `cursor` and `limit`: a cursor is only valid for the
  // call it continues.
  std::string fingerprint() const;
  Poco::JSON::Object::Ptr raw() const { return args_; }

 private:
  const Param& param(const std::string& name) const;
  const std::vector<Param>& params_;
  Poco::JSON::Object::Ptr args_;
};

}  // namespace aev::mcp
