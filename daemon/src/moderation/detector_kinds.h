#pragma once
// Every detector a moderation rule may name (GET /moderation/detector-kinds): the four the
// daemon implements itself, which read the rule's pattern, then each loaded plugin's, which
// read the rule's detectorConfig (their configSchema) and score their matches (minScore).
#include <string>
#include <vector>

#include "plugins/components.h"

namespace aev::plugins {
class Registry;
}

namespace aev::moderation {

struct DetectorKind {
  plugins::ComponentInfo info;  // a core detector: plugin and configSchema empty
  bool builtIn = false;
  bool takesPattern = false;         // the rule's pattern (core detectors)
  std::vector<std::string> targets;  // the targets a rule of this detector may scan
};

// Core detectors first, in coreDetectors() order, then the plugins' in load order;
// registry may be null (no plugins).
std::vector<DetectorKind> detectorKinds(const plugins::Registry* registry);

}  // namespace aev::moderation
