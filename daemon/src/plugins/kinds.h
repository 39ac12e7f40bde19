#pragma once
// The four component kinds a plugin can provide, and how they are named in logs,
// metrics labels and GET /admin/plugins.
#include <string_view>

namespace aev::plugins {

enum class Kind { Detector, Exporter, AlertSink, Dimension };

constexpr std::string_view kindName(Kind kind) {
  switch (kind) {
    case Kind::Detector: return "detector";
    case Kind::Exporter: return "exporter";
    case Kind::AlertSink: return "alert_sink";
    case Kind::Dimension: return "dimension";
  }
  return "unknown";
}

}  // namespace aev::plugins
