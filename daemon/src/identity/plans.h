#pragma once
// Organization plans (docs/features.md#plans-and-quotas): free, team, enterprise, each with limits from
// configuration (plans.<name>.events_quota_monthly / retention_days / seat_limit).
#include <cstdint>
#include <map>
#include <string>

namespace aev::identity {

struct Plan {
  std::string name;
  std::int64_t eventsQuotaMonthly = 0;
  std::int64_t retentionDays = 0;
  std::int64_t seatLimit = 0;
};

class PlanCatalog {
 public:
  PlanCatalog(std::map<std::string, Plan> plans, std::string defaultPlan);
  const Plan& get(const std::string& name) const;  // unknown names fall back to the default
  const std::string& defaultPlan() const { return default_; }

 private:
  std::map<std::string, Plan> plans_;
  std::string default_;
};

}  // namespace aev::identity
