#pragma once
// A rule ready to run: its regex compiled (RE2), its keyword turned into a literal
// case-insensitive pattern, its tool_arg expression parsed, or an instance of its plugin
// detector created. Built once per rule change (rule_cache.h), shared by every publish.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/errors.h"
#include "moderation/pattern.h"
#include "moderation/rule.h"
#include "moderation/tool_arg.h"

namespace aev::plugins {
class Registry;
class DetectorInstance;
}  // namespace aev::plugins

namespace aev::moderation {

class CompiledRule {
 public:
  using Result = std::variant<std::shared_ptr<const CompiledRule>, std::vector<FieldError>>;
  // The problems (locations body.detector, body.pattern, body.target) when the rule's
  // detector, pattern and target do not fit together; registry may be null (no plugins).
  static Result compile(const Rule& rule, const plugins::Registry* registry);

  const Rule& rule() const { return rule_; }
  // regex, keyword and plugin detectors scan each string of the event on their own.
  bool scansText() const { return pattern_ != nullptr || detector_ != nullptr; }
  // The byte ranges found in one string; `path` and `eventType` are passed to plugins.
  std::vector<Range> scan(std::string_view text, const std::string& path, const std::string& eventType) const;
  const ToolArgExpression* toolArg() const { return toolArg_ ? &*toolArg_ : nullptr; }
  // A plugin detector: every rule with the same detector and detectorConfig finds the same
  // ranges (pluginKey() names them), before each rule's minScore drops the low scores.
  bool usesPlugin() const { return detector_ != nullptr; }
  const std::string& pluginKey() const { return pluginKey_; }
  // Whether a plugin match of this score counts for this rule (minScore).
  bool counts(double score) const { return !rule_.minScore || score >= *rule_.minScore; }
  // The pattern as a member of a prefilter set (prefilter.h): a regex as it is, a keyword
  // as a case-insensitive literal; none for other detectors.
  std::optional<std::string> setPattern() const;

 private:
  Rule rule_;
  CompiledPattern pattern_;
  std::optional<ToolArgExpression> toolArg_;
  std::shared_ptr<plugins::DetectorInstance> detector_;
  std::string pluginKey_;
};

}  // namespace aev::moderation
