#include "moderation/detector_kinds.h"

#include "moderation/rule.h"
#include "plugins/registry.h"

namespace aev::moderation {

namespace {

// What each core detector matches: shown by the console as the pattern field's hint.
std::string coreDetectorDescription(const std::string& name) {
  if (name == kRegex) return "A regular expression (RE2 syntax: linear time, no backreferences or lookaround).";
  if (name == kKeyword) return "A literal, matched case-insensitively.";
  if (name == kToolName) return "The exact name of a called tool (target tool_call).";
  if (name == kToolArg) return "A tool argument test, e.g. $.args.path ~ /^\\/etc\\// (target tool_call).";
  return "";
}

// AEV_TARGET_* bits (0: all) as target names, in targetNames() order.
std::vector<std::string> targetsOfBits(std::uint32_t bits) {
  static const std::uint32_t kBits[] = {AEV_TARGET_REQUEST, AEV_TARGET_RESPONSE, AEV_TARGET_TOOL_CALL};
  std::vector<std::string> out;
  const auto& names = targetNames();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (bits == 0 || (bits & kBits[i])) out.push_back(names[i]);
  return out;
}

}  // namespace

std::vector<DetectorKind> detectorKinds(const plugins::Registry* registry) {
  std::vector<DetectorKind> out;
  for (const auto& name : coreDetectors()) {
    DetectorKind k;
    k.info.kind = plugins::Kind::Detector;
    k.info.name = name;
    k.info.description = coreDetectorDescription(name);
    k.builtIn = true;
    k.takesPattern = true;
    const bool toolOnly = name == kToolName || name == kToolArg;
    k.targets = toolOnly ? std::vector<std::string>{"tool_call"} : targetNames();
    out.push_back(std::move(k));
  }
  if (registry)
    for (const auto& d : registry->detectors()) {
      DetectorKind k;
      k.info = d->info();
      k.targets = targetsOfBits(k.info.targets);
      out.push_back(std::move(k));
    }
  return out;
}

}  // namespace aev::moderation
