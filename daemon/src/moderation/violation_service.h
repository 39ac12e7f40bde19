#pragma once
// Violations (every rule match, with its rule, detector, action, target, the event id
// when the event was stored, and the rule's latency on that event), listed newest first,
// and the efficacy report (docs/features.md#moderation). No HTTP types.
//
// They are written right after the event's commit, not inside it: the event's id only
// exists once the group commit (events::EventWriter) has run, and keeping moderation out
// of that shared transaction keeps one organization's violations from slowing every
// other publisher's commit. A crash between the two loses the violation rows of events
// already stored (never an event); a blocked event's violations are written before the
// 422 is answered.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "moderation/evaluator.h"
#include "store/database.h"
#include "store/moderation_violation_repository.h"

namespace aev::moderation {

// What was decided about one event on its way in, and where it ended up.
struct Screening {
  Verdict verdict;
  std::int64_t orgId = 0;
  std::optional<std::int64_t> channelId;
  std::string eventType;
  std::string source;
  std::optional<std::int64_t> eventId;  // set by the caller once the event is stored
};

struct ViolationPage {
  std::vector<store::ViolationRecord> data;
  std::int64_t total = 0;
};

class ViolationService {
 public:
  static constexpr std::int64_t kDefaultWindowMicros = 24LL * 3600 * 1000000;  // 24 hours

  explicit ViolationService(store::Database& db) : db_(db) {}

  // One row per match of each screening, all in one transaction.
  void record(const std::vector<const Screening*>& screenings);

  // Windows: until defaults to now, since to 24 hours before until; since < until.
  ViolationPage list(store::ViolationFilter filter, std::optional<std::int64_t> since,
                     std::optional<std::int64_t> until, std::int64_t page, std::int64_t limit);
  struct Efficacy {
    std::int64_t since = 0, until = 0;
    std::vector<store::EfficacyRow> rows;          // per detector, action and target
    std::vector<store::RuleViolationCount> rules;  // per rule
  };
  Efficacy efficacy(std::int64_t orgId, std::optional<std::int64_t> since, std::optional<std::int64_t> until);

 private:
  store::Database& db_;
  store::ModerationViolationRepository repo_;
};

}  // namespace aev::moderation
