#pragma once
// GET /export-destinations/kinds and GET /v2/alerts/destination-kinds: the plugin
// components a destination may name, each with its configuration schema (what a console
// form renders), the keys that schema requires and the keys it marks secret (write-only).
#include <Poco/JSON/Array.h>

#include <vector>

#include "plugins/components.h"

namespace aev::http {

Poco::JSON::Array::Ptr componentKindsJson(const std::vector<plugins::ComponentInfo>& components);

}  // namespace aev::http
