#pragma once
// Evaluates every enabled alert rule on a timer (docs/features.md#alerts): a rule fires once on
// ok → firing and notifies again on resolve. Each change of state is a row of the rule's
// history carrying the alert JSON for its destination (docs/plugins.md, "Alert JSON").
// Metric values are read outside any write transaction; the state changes are applied
// in one short transaction that re-reads each rule's state, so two nodes evaluating the
// same rules (PostgreSQL: only the holder of an advisory lock applies) never double-fire.
#include <cstdint>
#include <functional>

#include "alerts/alert_metrics.h"
#include "store/alert_repository.h"
#include "store/database.h"

namespace aev::alerts {

struct EvaluationResult {
  std::size_t evaluated = 0;
  std::size_t fired = 0;
  std::size_t resolved = 0;
};

class AlertEvaluator {
 public:
  // publicUrl: base URL for the alert's `url` field ("" leaves it out).
  AlertEvaluator(store::Database& db, std::string publicUrl) : db_(db), publicUrl_(std::move(publicUrl)) {}

  // One round as of `now` (µs; injected so tests need no waiting).
  EvaluationResult evaluate(std::int64_t now);
  // Called after a round that changed states (e.g. to wake a delivery worker).
  void onStateChanges(std::function<void()> listener) { changed_ = std::move(listener); }

 private:
  // Records a change of state and, when the rule has a destination, its notification.
  void notify(store::Connection& c, const store::AlertRuleRecord& rule, store::AlertEventRecord event);
  std::string alertJson(const store::AlertRuleRecord& rule, const std::string& state, std::optional<double> value,
                        std::int64_t firedAt, std::optional<std::int64_t> resolvedAt) const;

  store::Database& db_;
  std::string publicUrl_;
  AlertMetrics metrics_;
  store::AlertRepository rules_;
  std::function<void()> changed_;
};

}  // namespace aev::alerts
