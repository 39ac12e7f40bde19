#include "moderation/compiled_rule.h"

#include "common/text.h"
#include "plugins/registry.h"

namespace aev::moderation {

namespace {

aev_target abiTarget(Target target) {
  switch (target) {
    case Target::Request: return AEV_TARGET_REQUEST;
    case Target::Response: return AEV_TARGET_RESPONSE;
    case Target::ToolCall: return AEV_TARGET_TOOL_CALL;
  }
  return AEV_TARGET_REQUEST;
}

std::string detectorChoices(const plugins::Registry* registry) {
  std::string out = "regex, keyword, tool_name, tool_arg";
  if (registry)
    for (const auto& d : registry->detectors()) out += ", " + d->info().name;
  return out;
}

}  // namespace

CompiledRule::Result CompiledRule::compile(const Rule& rule, const plugins::Registry* registry) {
  auto compiled = std::make_shared<CompiledRule>();
  compiled->rule_ = rule;
  std::vector<FieldError> problems;
  const std::string pattern = rule.pattern.value_or("");
  const std::string shown = pattern.substr(0, 200);

  if (isCoreDetector(rule.detector)) {
    if (pattern.empty()) {
      problems.push_back({"body.pattern", "is required for the " + rule.detector + " detector", ""});
    } else if (utf8Length(pattern) > kPatternMax) {
      problems.push_back({"body.pattern", "must be at most " + std::to_string(kPatternMax) + " characters", shown});
    } else if (rule.detector == kRegex || rule.detector == kKeyword) {
      auto re = compilePattern(pattern, rule.detector == kKeyword);
      if (auto* message = std::get_if<std::string>(&re))
        problems.push_back({"body.pattern", *message, shown});
      else
        compiled->pattern_ = std::get<CompiledPattern>(re);
    } else if (rule.detector == kToolArg) {
      auto expression = ToolArgExpression::parse(pattern);
      if (auto* message = std::get_if<std::string>(&expression))
        problems.push_back({"body.pattern", *message, shown});
      else
        compiled->toolArg_ = std::move(std::get<ToolArgExpression>(expression));
    }
    if ((rule.detector == kToolName || rule.detector == kToolArg) && rule.target != Target::ToolCall)
      problems.push_back(
          {"body.target", "must be tool_call for the " + rule.detector + " detector", nameOf(rule.target)});
    if (rule.detectorConfig != "{}")
      problems.push_back({"body.detectorConfig", "is only used by plugin detectors", ""});
    if (rule.minScore) problems.push_back({"body.minScore", "is only used by plugin detectors", ""});
  } else {
    auto component = registry ? registry->detector(rule.detector) : nullptr;
    if (!component) {
      problems.push_back(
          {"body.detector", "must be one of " + detectorChoices(registry), rule.detector.substr(0, 200)});
    } else {
      if (!pattern.empty())
        problems.push_back(
            {"body.pattern", "is only used by the regex, keyword, tool_name and tool_arg detectors", shown});
      if (rule.minScore && !(*rule.minScore >= 0 && *rule.minScore <= 1))
        problems.push_back({"body.minScore", "must be a number from 0 to 1", std::to_string(*rule.minScore)});
      if (!component->supportsTarget(abiTarget(rule.target)))
        problems.push_back(
            {"body.target", "is not a target the " + rule.detector + " detector scans", nameOf(rule.target)});
      if (problems.empty()) {
        try {
          // The detector checks the rule's own configuration: its refusal is the 422.
          compiled->detector_ = component->create(rule.detectorConfig);
          compiled->pluginKey_ = rule.detector + '\n' + rule.detectorConfig;
        } catch (const std::exception& e) {
          if (rule.detectorConfig == "{}")
            problems.push_back({"body.detector", std::string("could not be set up: ") + e.what(), rule.detector});
          else
            problems.push_back({"body.detectorConfig", e.what(), ""});
        }
      }
    }
  }
  if (!problems.empty()) return problems;
  return std::shared_ptr<const CompiledRule>(std::move(compiled));
}

std::optional<std::string> CompiledRule::setPattern() const {
  if (!pattern_) return std::nullopt;
  if (rule_.detector == kKeyword) return "(?i)" + re2::RE2::QuoteMeta(rule_.pattern.value_or(""));
  return rule_.pattern;
}

std::vector<Range> CompiledRule::scan(std::string_view text, const std::string& path,
                                      const std::string& eventType) const {
  if (pattern_) return findAll(*pattern_, text);
  if (!detector_) return {};
  // A failing plugin call is logged and counted by the host (components.h) and reads as
  // "nothing found": a broken detector never drops or blocks an event.
  auto result = detector_->scan(text, abiTarget(rule_.target), eventType, path);
  std::vector<Range> out;
  if (!result.ok()) return out;
  out.reserve(result.findings.size());
  for (const auto& f : result.findings)
    if (f.end > f.start && f.end <= text.size()) out.push_back({f.start, f.end, f.score, f.label});
  return out;
}

}  // namespace aev::moderation
