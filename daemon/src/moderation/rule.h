#pragma once
// Moderation rules (docs/features.md#moderation): the names of actions, targets and
// the detectors the daemon implements itself. Plugin detectors (e.g. "pii.email") come
// from the plugin registry; their names are not listed here.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace aev::moderation {

enum class Action { Allow, Redact, Block, Flag };
enum class Target { Request, Response, ToolCall };

inline constexpr std::size_t kNameMax = 120;          // code points
inline constexpr std::size_t kPatternMax = 4096;      // code points, every detector
inline constexpr std::size_t kMaxRulesPerOrg = 1000;  // each rule costs time on every publish

// The detectors implemented in-core; every other name must be a registered plugin detector.
inline constexpr const char* kRegex = "regex";
inline constexpr const char* kKeyword = "keyword";
inline constexpr const char* kToolName = "tool_name";
inline constexpr const char* kToolArg = "tool_arg";

const std::vector<std::string>& actionNames();    // allow, redact, block, flag
const std::vector<std::string>& targetNames();    // request, response, tool_call
const std::vector<std::string>& coreDetectors();  // regex, keyword, tool_name, tool_arg
bool isCoreDetector(const std::string& name);

std::optional<Action> actionOf(const std::string& name);
std::optional<Target> targetOf(const std::string& name);
std::string nameOf(Action action);
std::string nameOf(Target target);

// A rule as stored (and as the engine compiles it).
struct Rule {
  std::int64_t id = 0;
  std::int64_t orgId = 0;
  std::string name;
  Action action = Action::Flag;
  std::string detector;
  std::optional<std::string> pattern;
  Target target = Target::Request;
  // Plugin detectors only: the per-rule configuration handed to the detector's create()
  // (a JSON object, secret keys opened) and the lowest score of a match that counts.
  std::string detectorConfig = "{}";
  std::optional<double> minScore;
  bool enabled = true;
  std::int64_t createdAt = 0;
  std::int64_t updatedAt = 0;
};

}  // namespace aev::moderation
