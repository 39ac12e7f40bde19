#include "moderation/rule.h"

#include <algorithm>

namespace aev::moderation {

const std::vector<std::string>& actionNames() {
  static const std::vector<std::string> names = {"allow", "redact", "block", "flag"};
  return names;
}

const std::vector<std::string>& targetNames() {
  static const std::vector<std::string> names = {"request", "response", "tool_call"};
  return names;
}

const std::vector<std::string>& coreDetectors() {
  static const std::vector<std::string> names = {kRegex, kKeyword, kToolName, kToolArg};
  return names;
}

bool isCoreDetector(const std::string& name) {
  const auto& core = coreDetectors();
  return std::find(core.begin(), core.end(), name) != core.end();
}

std::optional<Action> actionOf(const std::string& name) {
  if (name == "allow") return Action::Allow;
  if (name == "redact") return Action::Redact;
  if (name == "block") return Action::Block;
  if (name == "flag") return Action::Flag;
  return std::nullopt;
}

std::optional<Target> targetOf(const std::string& name) {
  if (name == "request") return Target::Request;
  if (name == "response") return Target::Response;
  if (name == "tool_call") return Target::ToolCall;
  return std::nullopt;
}

std::string nameOf(Action action) {
  switch (action) {
    case Action::Allow: return "allow";
    case Action::Redact: return "redact";
    case Action::Block: return "block";
    case Action::Flag: return "flag";
  }
  return "flag";
}

std::string nameOf(Target target) {
  switch (target) {
    case Target::Request: return "request";
    case Target::Response: return "response";
    case Target::ToolCall: return "tool_call";
  }
  return "request";
}

}  // namespace aev::moderation
