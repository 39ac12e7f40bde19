#pragma once
// Compiled rules per organization (docs/features.md#moderation "compile once per change, not per
// event"). An organization's rules are loaded and compiled on its first publish and
// again only after invalidate() (called by RuleService on every change this node makes).
//
// Several nodes on one PostgreSQL: another node's change cannot call invalidate() here,
// so with `recheck` > 0 an entry older than that is checked against the store's cheap
// fingerprint of the organization's rules (count, newest update, highest id) and only
// recompiled when it differs. SQLite has one node per store: recheck 0, never asked.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "moderation/evaluator.h"
#include "store/database.h"
#include "store/moderation_rule_repository.h"

namespace aev::plugins {
class Registry;
}
namespace aev::webhooks {
class SecretBox;
}

namespace aev::moderation {

// A stored rule as the engine reads it; false when a field holds no known name. `secrets`
// opens the sealed keys of its detectorConfig (null: taken as stored). Throws when a
// sealed value does not open (the sealing key changed).
bool ruleFromRecord(const store::ModerationRuleRecord& record, Rule& out, const webhooks::SecretBox* secrets = nullptr);

class RuleCache {
 public:
  RuleCache(store::Database& db, const plugins::Registry* registry, std::chrono::milliseconds recheck,
            const webhooks::SecretBox* secrets = nullptr)
      : db_(db), registry_(registry), recheck_(recheck), secrets_(secrets) {}

  // Never null; empty when the organization has no enabled rule.
  std::shared_ptr<const RuleSet> rules(std::int64_t orgId);
  void invalidate(std::int64_t orgId);
  // Rule sets built since start (tests check that publishing does not rebuild them).
  std::uint64_t builds() const { return builds_.load(); }

 private:
  struct Entry {
    std::shared_ptr<const RuleSet> rules;
    std::string fingerprint;
    std::chrono::steady_clock::time_point checkedAt;
  };
  Entry load(std::int64_t orgId);

  store::Database& db_;
  const plugins::Registry* registry_;
  std::chrono::milliseconds recheck_;
  const webhooks::SecretBox* secrets_;
  store::ModerationRuleRepository repo_;
  std::mutex mutex_;
  std::unordered_map<std::int64_t, Entry> entries_;
  std::unordered_map<std::int64_t, std::uint64_t> generations_;  // bumped by invalidate()
  std::atomic<std::uint64_t> builds_{0};
};

}  // namespace aev::moderation
