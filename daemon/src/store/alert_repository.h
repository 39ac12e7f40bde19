#pragma once
// Alert rules and their state history (docs/features.md#alerts). Every call is scoped by
// organization id.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/database.h"

namespace aev::store {

struct AlertRuleRecord {
  std::int64_t id = 0;
  std::int64_t orgId = 0;
  std::string name;
  std::string metric;
  std::string op;  // gt | gte | lt | lte | eq
  double threshold = 0;
  std::int64_t windowMins = 5;
  std::optional<std::int64_t> appId;
  std::optional<std::int64_t> environmentId;
  std::optional<std::string> model;
  std::optional<std::string> service;
  std::optional<std::string> release;
  std::optional<std::string> destination;
  std::optional<std::string> destinationType;
  // The alert sink's own settings for this rule: a JSON object, secret keys sealed.
  std::optional<std::string> destinationConfig;
  bool enabled = true;
  std::string state = "ok";  // ok | firing
  std::optional<double> lastValue;
  std::optional<std::int64_t> lastEvaluatedAt;
  std::optional<std::int64_t> firedAt;
  std::int64_t createdAt = 0;
  std::int64_t updatedAt = 0;
};

struct AlertEventRecord {
  std::int64_t id = 0;
  std::int64_t orgId = 0;
  std::int64_t ruleId = 0;
  std::string state;  // firing | resolved
  std::optional<double> value;
  double threshold = 0;
  std::int64_t firedAt = 0;
  std::optional<std::int64_t> resolvedAt;
  std::string notification;  // alert JSON
  std::optional<std::int64_t> deliveredAt;
  std::int64_t createdAt = 0;
};

class AlertRepository {
 public:
  std::int64_t insert(Connection& c, const AlertRuleRecord& r);
  void update(Connection& c, const AlertRuleRecord& r);  // definition fields and updated_at
  void remove(Connection& c, std::int64_t orgId, std::int64_t id);
  std::optional<AlertRuleRecord> byId(Connection& c, std::int64_t orgId, std::int64_t id);
  std::vector<AlertRuleRecord> list(Connection& c, std::int64_t orgId);  // oldest first
  std::int64_t count(Connection& c, std::int64_t orgId);
  // Every enabled rule of every organization (the evaluator's round).
  std::vector<AlertRuleRecord> enabled(Connection& c);
  // The evaluation's outcome: state, value, time (and fired_at when it fires).
  void setState(Connection& c, const AlertRuleRecord& r);

  std::int64_t insertEvent(Connection& c, const AlertEventRecord& e);
  void markDelivered(Connection& c, std::int64_t orgId, std::int64_t eventId, std::int64_t at);
  std::vector<AlertEventRecord> events(Connection& c, std::int64_t orgId, std::int64_t ruleId, std::int64_t limit);
};

}  // namespace aev::store
