#pragma once
// Spend policies as the enforcement reads them (docs/features.md#spend-policies): a stored policy with its
// window, limit in nano-dollars, parsed rungs and the slug of its environment scope.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "spend/window.h"
#include "store/event_records.h"
#include "store/spend_policy_repository.h"

namespace aev::spend {

enum class RungAction { Alert, Fallback, Block };
enum class BlockMode { Hard, Soft };

inline constexpr std::size_t kNameMax = 120;
inline constexpr std::size_t kMaxRungs = 10;
inline constexpr std::int64_t kMaxAtPercent = 1000;
inline constexpr double kMaxLimitUsd = 1e9;  // keeps nano-dollar sums far inside int64
inline constexpr std::int64_t kMaxCooldownMins = 525600;  // a year
inline constexpr std::size_t kMaxPoliciesPerOrg = 1000;

const std::vector<std::string>& rungActionNames();  // alert, block, fallback
const std::vector<std::string>& blockModeNames();   // hard, soft
std::optional<RungAction> rungActionOf(const std::string& name);
std::string nameOf(RungAction action);

struct Rung {
  std::int64_t atPercent = 0;
  RungAction action = RungAction::Alert;
  BlockMode blockMode = BlockMode::Hard;  // block only; a block rung without block_mode is hard
  std::optional<std::string> fallbackModel;
};

// How strongly a rung acts: hard block > soft block > fallback > alert.
int severity(const Rung& rung);

struct ActivePolicy {
  store::SpendPolicyRecord record;
  WindowType window = WindowType::Month;
  std::int64_t limitNanos = 0;
  std::vector<Rung> rungs;  // ascending at_percent
  // The slug of record.environmentId; nullopt when that environment no longer exists
  // (then the policy matches nothing).
  std::optional<std::string> environmentSlug;
};

// nullopt when a stored field holds no known name (the policy is then skipped).
std::optional<ActivePolicy> activePolicyOf(store::SpendPolicyRecord record, std::optional<std::string> environmentSlug);

// USD as nano-dollars, rounded to the nearest: integers add exactly in any order.
std::int64_t nanosOf(double usd);
double usdOf(std::int64_t nanos);
// spent / limit in percent.
double percentOf(std::int64_t spentNanos, std::int64_t limitNanos);
// True when spend has reached the rung (spent ≥ at_percent % of the limit), exactly.
bool reached(const Rung& rung, std::int64_t spentNanos, std::int64_t limitNanos);
// The most severe rung reached (ties: the higher at_percent), nullptr below every rung.
const Rung* rungInForce(const ActivePolicy& policy, std::int64_t spentNanos);

// What a policy's scope is compared with: an event's fields or a /check query.
struct Subject {
  std::optional<std::int64_t> apiKeyId, appId;
  std::optional<std::string> environment;  // the environment slug
  std::optional<std::string> userId, model, provider;
  std::vector<std::pair<std::string, std::string>> tags;
};

Subject subjectOf(const store::NewEvent& e);
// Every scope field the policy sets equals the subject's value.
bool matches(const ActivePolicy& policy, const Subject& subject);

}  // namespace aev::spend
