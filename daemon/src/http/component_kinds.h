#pragma once
// GET /export-destinations/kinds, GET /v2/alerts/destination-kinds and
// GET /moderation/detector-kinds: the plugin components a destination (or a rule) may
// name, each with its configuration schema (what a console form renders), the keys that
// schema requires and the keys it marks secret (write-only).
#include <Poco/JSON/Array.h>

#include <vector>

#include "moderation/detector_kinds.h"
#include "plugins/components.h"

namespace aev::http {

Poco::JSON::Array::Ptr componentKindsJson(const std::vector<plugins::ComponentInfo>& components);
// The same fields for each detector (plugin null for the core ones), plus builtIn,
// takesPattern and targets.
Poco::JSON::Array::Ptr detectorKindsJson(const std::vector<moderation::DetectorKind>& kinds);

}  // namespace aev::http
