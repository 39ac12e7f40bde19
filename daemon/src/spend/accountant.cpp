#include "spend/accountant.h"

#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <Poco/JSON/Stringifier.h>
#include <spdlog/spdlog.h>

#include <cmath>
#include <limits>
#include <sstream>

#include "common/exceptions.h"
#include "notifications/sink_message.h"
#include "spend/notification.h"
#include "store/spend_policy_repository.h"
#include "store/spend_refusal_repository.h"

namespace aev::spend {

namespace {

constexpr Micros kMinMicros = std::numeric_limits<Micros>::min();
constexpr Micros kMaxMicros = std::numeric_limits<Micros>::max();

double rounded(double percent) { return std::round(percent * 10000.0) / 10000.0; }

// Hard block first, then soft block, fallback, alert, no rung; ties: the higher percent.
bool moreSevere(const Standing& a, const Standing& b) {
  auto rank = [](const Standing& s) {
    if (!s.action) return 0;
    if (*s.action == RungAction::Block) return *s.blockMode == BlockMode::Hard ? 4 : 3;
    return *s.action == RungAction::Fallback ? 2 : 1;
  };
  if (rank(a) != rank(b)) return rank(a) > rank(b);
  return a.percent > b.percent;
}

ApiError spendBlocked(const Standing& s) {
  ApiError e(429, "spend-blocked", "Blocked by Spend Policy",
             fmt::format("Spend policy {} has reached a hard block rung ({:.2f}% of its limit); matching events are "
                         "refused until its window resets.",
                         s.policyId, s.percent));
  e.withHeader("Retry-After", std::to_string(std::max(1, s.retryAfterSeconds)));
  return e;
}

store::SpendRefusalRecord refusalOf(const store::NewEvent& e, const Standing& s, Micros now) {
  store::SpendRefusalRecord r;
  r.orgId = e.orgId;
  r.policyId = s.policyId;
  r.occurredAt = now;
  r.apiKeyId = e.apiKeyId;
  r.channelId = e.channelId;
  r.agentId = e.agentId;
  r.reason = fmt::format("hard block: {:.2f}% of the limit spent", s.percent);
  r.amountUsd = e.telemetry.costUsd;
  return r;
}

// metadata.spend on a soft-blocked event (it replaces any metadata.spend the publisher sent).
void flagSoftBlock(store::NewEvent& e, const Standing& s) {
  Poco::JSON::Object::Ptr metadata;
  if (e.metadataJson) metadata = Poco::JSON::Parser().parse(*e.metadataJson).extract<Poco::JSON::Object::Ptr>();
  if (!metadata) metadata = new Poco::JSON::Object;
  Poco::JSON::Object::Ptr flag = new Poco::JSON::Object;
  flag->set("policyId", std::to_string(s.policyId));
  flag->set("action", "block");
  flag->set("blockMode", "soft");
  flag->set("percent", rounded(s.percent));
  metadata->set("spend", flag);
  std::ostringstream out;
  Poco::JSON::Stringifier::condense(metadata, out);
  e.metadataJson = out.str();
}

std::string spendJson(const Standing& s) {
  Poco::JSON::Object o;
  o.set("policyId", std::to_string(s.policyId));
  o.set("percent", rounded(s.percent));
  o.set("action", s.action ? Poco::Dynamic::Var(nameOf(*s.action)) : Poco::Dynamic::Var());
  o.set("blockMode", s.blockMode ? Poco::Dynamic::Var(std::string(*s.blockMode == BlockMode::Hard ? "hard" : "soft"))
                                 : Poco::Dynamic::Var());
  o.set("fallbackModel", s.fallbackModel ? Poco::Dynamic::Var(*s.fallbackModel) : Poco::Dynamic::Var());
  std::ostringstream out;
  Poco::JSON::Stringifier::condense(o, out);
  return out.str();
}

}  // namespace

std::map<std::int64_t, std::int64_t> Accountant::totalsOf(store::Connection& c, std::int64_t orgId,
                                                         const std::vector<const ActivePolicy*>& policies, Micros now) {
  std::map<std::int64_t, std::int64_t> since;
  for (const auto* p : policies) since[p->record.id] = windowAt(p->window, now).start;
  return ledger_.totals(c, orgId, since);
}

int Accountant::retryAfter(store::Connection& c, const ActivePolicy& policy, const Rung& rung,
                           std::int64_t spentNanos, Micros now) {
  const auto window = windowAt(policy.window, now);
  Micros until = now + clock::kMinute;
  if (window.end) {
    until = *window.end;
  } else {
    // Rolling: the moment enough of the oldest spend has left the last 24 hours.
    auto remaining = spentNanos;
    for (const auto& [start, nanos] : ledger_.buckets(c, policy.record.orgId, policy.record.id, window.start)) {
      remaining -= nanos;
      if (!reached(rung, remaining, policy.limitNanos)) {
        until = bucketExpiry(policy.window, start);
        break;
      }
    }
  }
  return static_cast<int>(std::max<Micros>(1, (until - now + clock::kSecond - 1) / clock::kSecond));
}

Standing Accountant::standingOf(store::Connection& c, const std::vector<PolicyState>& states, Micros now) {
  Standing best;
  for (const auto& state : states) {
    Standing s;
    s.matched = true;
    s.policyId = state.policy->record.id;
    s.percent = percentOf(state.spentNanos, state.policy->limitNanos);
    if (const auto* rung = rungInForce(*state.policy, state.spentNanos)) {
      s.action = rung->action;
      if (rung->action == RungAction::Block) {
        s.blockMode = rung->blockMode;
        if (rung->blockMode == BlockMode::Hard) {
          s.allowed = false;
          s.retryAfterSeconds = retryAfter(c, *state.policy, *rung, state.spentNanos, now);
        }
      }
      if (rung->action == RungAction::Fallback) s.fallbackModel = rung->fallbackModel;
    }
    if (!best.matched || moreSevere(s, best)) best = s;
  }
  return best;
}

std::vector<std::optional<ApiError>> Accountant::admit(const std::vector<store::NewEvent*>& events) {
  std::vector<std::optional<ApiError>> out(events.size());
  if (events.empty()) return out;
  const auto now = clock_();
  std::map<std::int64_t, std::vector<std::size_t>> byOrg;
  for (std::size_t i = 0; i < events.size(); ++i) byOrg[events[i]->orgId].push_back(i);
  std::vector<store::SpendRefusalRecord> refusals;
  for (const auto& [orgId, positions] : byOrg) {
    auto policies = cache_.policies(orgId);
    if (policies->empty()) continue;  // the common case: no query at all
    std::vector<std::vector<const ActivePolicy*>> matched(positions.size());
    std::vector<const ActivePolicy*> any;
    std::set<std::int64_t> seen;
    for (std::size_t k = 0; k < positions.size(); ++k) {
      const auto subject = subjectOf(*events[positions[k]]);
      for (const auto& p : *policies)
        if (matches(p, subject)) {
          matched[k].push_back(&p);
          if (seen.insert(p.record.id).second) any.push_back(&p);
        }
    }
    if (any.empty()) continue;
    auto c = db_.acquire();
    // Running totals: an earlier event of the same request counts for the later ones.
    auto running = totalsOf(*c, orgId, any, now);
    for (std::size_t k = 0; k < positions.size(); ++k) {
      if (matched[k].empty()) continue;
      auto& e = *events[positions[k]];
      std::vector<PolicyState> states;
      for (const auto* p : matched[k]) states.push_back({p, running[p->record.id]});
      const auto standing = standingOf(*c, states, now);
      if (!standing.allowed) {
        out[positions[k]] = spendBlocked(standing);
        refusals.push_back(refusalOf(e, standing, now));
        continue;
      }
      if (standing.action == RungAction::Block) flagSoftBlock(e, standing);
      const auto nanos = nanosOf(e.telemetry.costUsd.value_or(0));
      const auto at = e.receivedAt ? e.receivedAt : now;
      for (const auto* p : matched[k]) {
        e.spendCharges.push_back({p->record.id, bucketOf(p->window, at), nanos});
        running[p->record.id] += nanos;
      }
    }
  }
  if (!refusals.empty()) recordRefusals(refusals);
  return out;
}

void Accountant::recordRefusals(const std::vector<store::SpendRefusalRecord>& refusals) {
  try {
    db_.transaction([&](store::Connection& c) {
      store::SpendRefusalRepository repository;
      for (const auto& r : refusals) repository.record(c, r);
    });
  } catch (const std::exception& ex) {
    // The 429s stand whatever happens to their record.
    spdlog::error("recording {} refused publish(es) failed: {}", refusals.size(), describeException(ex));
  }
}

void Accountant::recordCrossings(const ActivePolicy& policy, std::int64_t spentNanos, Micros now) {
  const auto windowKey = crossingWindowOf(policy.window, now);
  std::vector<const Rung*> fresh;
  {
    std::lock_guard lock(knownMutex_);
    for (const auto& rung : policy.rungs) {
      if (!reached(rung, spentNanos, policy.limitNanos)) break;
      if (!knownCrossings_.count({policy.record.id, windowKey, rung.atPercent})) fresh.push_back(&rung);
    }
  }
  if (fresh.empty()) return;
  const auto& r = policy.record;
  db_.transaction([&](store::Connection& c) {
    store::SpendPolicyRepository policies;
    // Highest first: when one event crosses several rungs, the notification the cooldown
    // allows names the highest.
    for (auto it = fresh.rbegin(); it != fresh.rend(); ++it) {
      const auto& rung = **it;
      store::SpendCrossingRecord crossing;
      crossing.policyId = r.id;
      crossing.windowStart = windowKey;
      crossing.atPercent = rung.atPercent;
      crossing.action = nameOf(rung.action);
      crossing.spentNanos = spentNanos;
      crossing.crossedAt = now;
      auto crossingId = ledger_.recordCrossing(c, r.orgId, crossing);
      if (!crossingId || !r.destination || !r.destinationType) continue;
      if (!policies.claimNotification(c, r.orgId, r.id, now, r.cooldownMins * clock::kMinute)) continue;
      store::SpendNotificationRecord n;
      n.orgId = r.orgId;
      n.policyId = r.id;
      n.crossingId = *crossingId;
      n.atPercent = rung.atPercent;
      n.percent = rounded(percentOf(spentNanos, policy.limitNanos));
      n.windowStart = windowKey;
      n.destination = *r.destination;
      n.destinationType = *r.destinationType;
      n.payloadJson = alertPayload(policy, rung, spentNanos, windowAt(policy.window, now).start, now);
      n.createdAt = now;
      n.id = ledger_.insertNotification(c, n);
      notifications::enqueue(c, r.orgId, notifications::kSpendTarget, r.id,
                             {n.destinationType, n.destination, n.payloadJson, n.id}, now);
    }
  });
  std::lock_guard lock(knownMutex_);
  if (knownCrossings_.size() > 100000) knownCrossings_.clear();  // a bound, not a correctness matter
  for (const auto* rung : fresh) knownCrossings_.insert({r.id, windowKey, rung->atPercent});
}

void Accountant::pruneRolling(const ActivePolicy& policy, Micros now) {
  if (policy.window != WindowType::Rolling24h) return;
  {
    std::lock_guard lock(knownMutex_);
    auto& last = lastPruned_[policy.record.id];
    if (now - last < 10 * clock::kMinute) return;
    last = now;
  }
  auto c = db_.acquire();
  ledger_.removeBuckets(*c, policy.record.id, kMinMicros, windowAt(policy.window, now).start);
}

void Accountant::settle(std::vector<store::StoredEvent>& events) {
  try {
    const auto now = clock_();
    std::map<std::int64_t, std::set<std::int64_t>> chargedByOrg;
    for (const auto& e : events)
      for (const auto& charge : e.spendCharges) chargedByOrg[e.orgId].insert(charge.policyId);
    for (const auto& [orgId, ids] : chargedByOrg) {
      auto policies = cache_.policies(orgId);
      std::map<std::int64_t, const ActivePolicy*> byId;
      std::vector<const ActivePolicy*> charged;
      for (const auto& p : *policies)
        if (ids.count(p.record.id)) {
          byId[p.record.id] = &p;
          charged.push_back(&p);
        }
      if (charged.empty()) continue;  // changed meanwhile
      std::map<std::int64_t, std::int64_t> totals;
      {
        auto c = db_.acquire();
        totals = totalsOf(*c, orgId, charged, now);
      }
      for (const auto* p : charged) {
        try {
          recordCrossings(*p, totals[p->record.id], now);
          pruneRolling(*p, now);
        } catch (const std::exception& ex) {
          spdlog::error("spend policy {}: recording a crossing failed: {}", p->record.id, describeException(ex));
        }
      }
      auto c = db_.acquire();
      for (auto& e : events) {
        if (e.orgId != orgId || e.spendCharges.empty()) continue;
        std::vector<PolicyState> states;
        for (const auto& charge : e.spendCharges)
          if (auto it = byId.find(charge.policyId); it != byId.end()) states.push_back({it->second, totals[charge.policyId]});
        if (!states.empty()) e.spendJson = spendJson(standingOf(*c, states, now));
      }
    }
  } catch (const std::exception& ex) {
    spdlog::error("settling spend after a commit failed: {}", describeException(ex));
  }
}

Standing Accountant::check(std::int64_t orgId, const Subject& subject) {
  const auto now = clock_();
  auto policies = cache_.policies(orgId);
  std::vector<const ActivePolicy*> matched;
  for (const auto& p : *policies)
    if (matches(p, subject)) matched.push_back(&p);
  if (matched.empty()) return {};
  auto c = db_.acquire();
  auto totals = totalsOf(*c, orgId, matched, now);
  std::vector<PolicyState> states;
  for (const auto* p : matched) states.push_back({p, totals[p->record.id]});
  return standingOf(*c, states, now);
}

std::map<std::int64_t, std::int64_t> Accountant::currentSpend(std::int64_t orgId,
                                                              const std::vector<store::SpendPolicyRecord>& policies) {
  const auto now = clock_();
  std::map<std::int64_t, std::int64_t> since;
  for (const auto& p : policies)
    if (auto type = windowTypeOf(p.windowType)) since[p.id] = windowAt(*type, now).start;
  auto c = db_.acquire();
  return ledger_.totals(*c, orgId, since);
}

void Accountant::rebuild(const store::SpendPolicyRecord& policy) {
  auto type = windowTypeOf(policy.windowType);
  if (!type) return;
  const auto now = clock_();
  const auto window = windowAt(*type, now);
  const auto current = bucketOf(*type, now);
  db_.transaction([&](store::Connection& c) {
    // Lock first, then sum: a publish committing meanwhile adds to the row after this
    // transaction has set it (see SpendLedgerRepository::touch).
    ledger_.touch(c, policy.id, current);
    ledger_.removeBuckets(c, policy.id, kMinMicros, current);
    ledger_.removeBuckets(c, policy.id, current + 1, kMaxMicros);
    std::optional<std::string> slug;
    if (auto active = PolicyCache::resolve(c, policy)) slug = active->environmentSlug;
    std::map<Micros, std::int64_t> sums{{current, 0}};
    for (const auto& [receivedAt, cost] : ledger_.matchingCosts(c, policy, slug, window.start))
      sums[bucketOf(*type, receivedAt)] += nanosOf(cost);
    for (const auto& [bucket, nanos] : sums) ledger_.set(c, policy.id, bucket, nanos);
  });
}

std::size_t Accountant::rebuildAll() {
  std::vector<store::SpendPolicyRecord> all;
  {
    auto c = db_.acquire();
    all = store::SpendPolicyRepository().allEnabled(*c);
  }
  for (const auto& p : all) rebuild(p);
  return all.size();
}

}  // namespace aev::spend
