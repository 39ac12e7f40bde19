#pragma once
// Helpers of the moderation unit tests: rules compiled without plugins, and events as
// parsed JSON documents.
#include <Poco/JSON/Parser.h>
#include <Poco/JSON/Stringifier.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "moderation/evaluator.h"

namespace aev::moderation::testing {

inline Rule makeRule(Action action, const std::string& detector, const std::string& pattern,
                     Target target = Target::Request, const std::string& name = "rule") {
  Rule r;
  r.name = name;
  r.action = action;
  r.detector = detector;
  if (!pattern.empty()) r.pattern = pattern;
  r.target = target;
  return r;
}

// Ids 1, 2, ... in the given (creation) order; with the prefilters the daemon builds
// unless `prefilter` is false.
inline RuleSet ruleSet(std::vector<Rule> rules, bool prefilter = true) {
  RuleSet set;
  std::int64_t id = 0;
  for (auto& r : rules) {
    r.id = ++id;
    auto compiled = CompiledRule::compile(r, nullptr);
    if (!std::holds_alternative<std::shared_ptr<const CompiledRule>>(compiled))
      throw std::runtime_error("rule does not compile: " + std::get<std::vector<FieldError>>(compiled).front().message);
    set.byTarget[static_cast<std::size_t>(r.target)].push_back(std::get<std::shared_ptr<const CompiledRule>>(compiled));
  }
  if (prefilter) set.prepare();
  return set;
}

inline Poco::JSON::Object::Ptr parseObject(const std::string& json) {
  if (json.empty()) return nullptr;
  return Poco::JSON::Parser().parse(json).extract<Poco::JSON::Object::Ptr>();
}

inline EventDocument event(const std::string& type, const std::string& payload, const std::string& metadata = "",
                           const std::string& source = "api") {
  return EventDocument{type, source, parseObject(payload), parseObject(metadata)};
}

inline std::string json(const Poco::JSON::Object::Ptr& object) {
  if (!object) return "null";
  std::ostringstream out;
  Poco::JSON::Stringifier::condense(object, out);
  return out.str();
}

}  // namespace aev::moderation::testing
