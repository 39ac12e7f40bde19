#include "moderation/rule_cache.h"

#include <spdlog/spdlog.h>

#include "plugins/instance_config.h"

namespace aev::moderation {

bool ruleFromRecord(const store::ModerationRuleRecord& record, Rule& out, const webhooks::SecretBox* secrets) {
  auto action = actionOf(record.action);
  auto target = targetOf(record.target);
  if (!action || !target) return false;
  out.id = record.id;
  out.orgId = record.orgId;
  out.name = record.name;
  out.action = *action;
  out.detector = record.detector;
  out.pattern = record.pattern;
  out.target = *target;
  const auto config = record.detectorConfig.value_or("{}");
  out.detectorConfig = secrets ? plugins::toJson(*plugins::openConfig(config, *secrets)) : config;
  out.minScore = record.minScore;
  out.enabled = record.enabled;
  out.createdAt = record.createdAt;
  out.updatedAt = record.updatedAt;
  return true;
}

RuleCache::Entry RuleCache::load(std::int64_t orgId) {
  Entry entry;
  std::vector<store::ModerationRuleRecord> records;
  {
    auto c = db_.acquire();
    entry.fingerprint = repo_.fingerprint(*c, orgId);
    records = repo_.list(*c, orgId);
  }
  auto set = std::make_shared<RuleSet>();
  for (const auto& record : records) {
    Rule rule;
    try {
      if (!record.enabled || !ruleFromRecord(record, rule, secrets_)) continue;
    } catch (const std::exception& e) {
      spdlog::warn("moderation rule {} of organization {} cannot run and is skipped: {}", record.id, orgId, e.what());
      continue;
    }
    auto compiled = CompiledRule::compile(rule, registry_);
    if (auto* ok = std::get_if<std::shared_ptr<const CompiledRule>>(&compiled)) {
      set->byTarget[static_cast<std::size_t>(rule.target)].push_back(*ok);
    } else {
      // Valid when saved, so its plugin detector is gone (not loaded at this start).
      spdlog::warn("moderation rule {} of organization {} cannot run and is skipped: {}", rule.id, orgId,
                   std::get<std::vector<FieldError>>(compiled).front().message);
    }
  }
  set->prepare();
  entry.rules = std::move(set);
  entry.checkedAt = std::chrono::steady_clock::now();
  ++builds_;
  return entry;
}

std::shared_ptr<const RuleSet> RuleCache::rules(std::int64_t orgId) {
  std::uint64_t generation = 0;
  std::string knownFingerprint;
  {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(orgId);
    if (it != entries_.end()) {
      const auto now = std::chrono::steady_clock::now();
      if (recheck_.count() == 0 || now - it->second.checkedAt < recheck_) return it->second.rules;
      knownFingerprint = it->second.fingerprint;
    }
    generation = generations_[orgId];
  }
  // Outside the lock: loading and compiling must not hold up other organizations.
  if (!knownFingerprint.empty()) {
    std::string current;
    {
      auto c = db_.acquire();
      current = repo_.fingerprint(*c, orgId);
    }
    std::lock_guard lock(mutex_);
    auto it = entries_.find(orgId);
    if (current == knownFingerprint && it != entries_.end() && generations_[orgId] == generation) {
      it->second.checkedAt = std::chrono::steady_clock::now();
      return it->second.rules;
    }
  }
  auto entry = load(orgId);
  auto rules = entry.rules;
  std::lock_guard lock(mutex_);
  // A change made while this load ran has invalidated it: serve it to this one caller
  // (it began before the change) but do not cache it.
  if (generations_[orgId] == generation) entries_[orgId] = std::move(entry);
  return rules;
}

void RuleCache::invalidate(std::int64_t orgId) {
  std::lock_guard lock(mutex_);
  entries_.erase(orgId);
  ++generations_[orgId];
}

}  // namespace aev::moderation
