#pragma once
// The value of a rule's metric over [now - windowMins, now) on the events that match its
// filters (app, environment, model, service, release). std::nullopt when the metric is
// undefined over the window (error_rate or a latency without events): never firing.
#include <cstdint>
#include <optional>

#include "store/alert_repository.h"
#include "store/analytics_repository.h"
#include "store/database.h"
#include "store/environment_repository.h"

namespace aev::alerts {

class AlertMetrics {
 public:
  std::optional<double> value(store::Connection& c, const store::AlertRuleRecord& rule, std::int64_t now);

 private:
  store::AnalyticsRepository analytics_;
  store::EnvironmentRepository environments_;
};

}  // namespace aev::alerts
