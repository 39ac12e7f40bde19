#include "delivery/delivery_engine.h"

#include <spdlog/spdlog.h>

#include "common/clock.h"
#include "common/exceptions.h"
#include "common/metrics.h"

namespace aev::delivery {

namespace {

std::int64_t micros(std::chrono::milliseconds ms) { return static_cast<std::int64_t>(ms.count()) * 1000; }

}  // namespace

Engine::Engine(store::Database& db, EngineOptions options) : db_(db), options_(std::move(options)) {}

Engine::~Engine() { stop(); }

void Engine::addSender(const std::string& targetKind, Sender* sender) { senders_[targetKind] = sender; }

void Engine::start() {
  stopping_ = false;
  for (int i = 0; i < std::max(1, options_.workers); ++i) workers_.emplace_back([this] { run(); });
  spdlog::info("delivery engine: {} workers, {} retries", workers_.size(), options_.schedule.steps().size());
}

void Engine::stop() {
  stopping_ = true;
  wakeUp_.notify_all();
  for (auto& t : workers_)
    if (t.joinable()) t.join();
  workers_.clear();
}

void Engine::wake() {
  {
    std::lock_guard lock(mutex_);
    ++wakes_;
  }
  wakeUp_.notify_all();
}

void Engine::pruneIfDue() {
  const auto now = std::chrono::steady_clock::now();
  {
    std::lock_guard lock(mutex_);
    if (now < nextPrune_) return;
    nextPrune_ = now + std::chrono::hours(1);
  }
  try {
    const auto before = clock::nowMicros() - static_cast<std::int64_t>(options_.attemptRetention.count()) * clock::kHour;
    auto conn = db_.acquire();
    if (auto n = outbox_.pruneAttempts(*conn, before); n > 0) spdlog::info("delivery: forgot {} old attempts", n);
  } catch (const std::exception& e) {
    spdlog::warn("delivery: pruning the attempt log failed: {}", describeException(e));
  }
}

void Engine::run() {
  while (!stopping_) {
    pruneIfDue();
    std::uint64_t seen;
    {
      std::lock_guard lock(mutex_);
      seen = wakes_;
    }
    bool worked = false;
    try {
      worked = workOnce();
    } catch (const std::exception& e) {
      // The store may be briefly unavailable (PostgreSQL restart): keep polling.
      spdlog::warn("delivery worker: {}", describeException(e));
    }
    if (worked) continue;
    std::unique_lock lock(mutex_);
    wakeUp_.wait_for(lock, options_.pollInterval, [&] { return stopping_ || wakes_ != seen; });
  }
}

bool Engine::workOnce() {
  const auto now = clock::nowMicros();
  {
    // A read first: an idle engine must not take SQLite's write lock every poll.
    auto conn = db_.acquire();
    if (!outbox_.anyDue(*conn, now)) return false;
  }
  auto claimed = db_.transaction([&](store::Connection& c) { return outbox_.claim(c, now, now + micros(options_.lease), 1); });
  if (claimed.empty()) return false;
  for (const auto& m : claimed) {
    if (stopping_) break;  // its lease runs out and another worker (or the next start) takes it
    process(m);
  }
  return true;
}

void Engine::process(const store::OutboxMessage& m) {
  Outcome outcome;
  auto sender = senders_.find(m.targetKind);
  if (sender == senders_.end()) {
    outcome.verdict = Verdict::Permanent;
    outcome.responseBody = "no sender for target kind " + m.targetKind;
  } else {
    try {
      outcome = sender->second->send(m);
    } catch (const std::exception& e) {
      outcome = Outcome{};
      outcome.verdict = Verdict::Retry;
      outcome.responseBody = describeException(e);
    }
  }

  const auto now = clock::nowMicros();
  bool exhausted = false;
  std::optional<std::int64_t> next;
  if (outcome.verdict == Verdict::Retry) {
    if (auto delay = options_.schedule.delayAfter(m.attempt, outcome.retryAfter)) next = now + micros(*delay);
    else exhausted = true;
  }
  store::DeliveryAttemptRecord a;
  a.orgId = m.orgId;
  a.outboxId = m.id;
  a.targetKind = m.targetKind;
  a.targetId = m.targetId;
  a.eventId = m.eventId;
  a.messageId = m.messageId;
  a.attempt = m.attempt;
  a.statusCode = outcome.statusCode;
  a.responseBody = outcome.responseBody.substr(0, options_.maxStoredBody);
  a.outcome = outcome.verdict == Verdict::Delivered ? "delivered" : next ? "retrying" : "failed";
  a.durationMs = outcome.elapsed.count();
  a.nextAttemptAt = next;
  a.createdAt = now;

  bool kept = db_.transaction([&](store::Connection& c) {
    // Only the holder of the lease writes: a message dropped meanwhile (its endpoint was
    // deleted) or taken over after an expired lease records nothing here.
    bool held = next ? outbox_.reschedule(c, m, *next, a.responseBody) : outbox_.finish(c, m);
    if (held && outcome.verdict != Verdict::Cancelled) outbox_.recordAttempt(c, a);
    return held;
  });
  auto& metrics = Metrics::instance();
  if (!kept) {
    metrics.add("agent_events_delivery_lost_leases_total");
    return;
  }
  if (outcome.verdict == Verdict::Cancelled) return;
  metrics.add(std::string("agent_events_delivery_attempts_total"));
  if (outcome.verdict == Verdict::Delivered) metrics.add("agent_events_delivery_delivered_total");
  else if (!next) metrics.add("agent_events_delivery_failed_total");
  if (sender != senders_.end()) {
    try {
      sender->second->recorded(m, outcome, exhausted);
    } catch (const std::exception& e) {
      spdlog::warn("delivery {} {}: after-attempt hook: {}", m.targetKind, m.targetId, describeException(e));
    }
  }
}

}  // namespace aev::delivery
