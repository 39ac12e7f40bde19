#pragma once
// The payload of a spend notification: the Alert JSON of docs/plugins.md (what alert
// sinks deliver), with metric `cost_usd`, plus the spend fields (kind "spend_policy",
// policyId, atPercent, percent, action, windowType, windowStart, limitUsd).
#include <string>

#include "spend/policy.h"

namespace aev::spend {

std::string alertPayload(const ActivePolicy& policy, const Rung& rung, std::int64_t spentNanos, Micros windowStart,
                         Micros firedAt);

}  // namespace aev::spend
