#include "events/event_writer.h"

#include <pthread.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <iterator>
#include <map>

#include "common/exceptions.h"
#include "common/metrics.h"

namespace aev::events {

EventWriter::EventWriter(store::Database& db, const AfterCommit* afterCommit, std::size_t maxBatch, bool rollupWrites)
    : db_(db), maxBatch_(maxBatch), rollupWrites_(rollupWrites), afterCommit_(afterCommit) {
  thread_ = std::thread([this] { run(); });
}

EventWriter::~EventWriter() { stop(); }

std::string EventWriter::periodOf(std::int64_t micros) {
  std::time_t secs = static_cast<std::time_t>(micros / 1000000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02d", (tm.tm_year + 1900) % 10000, (tm.tm_mon + 1) % 100);
  return buf;
}

std::future<std::vector<StoredEvent>> EventWriter::submit(std::vector<NewEvent> events) {
  auto pending = std::make_unique<Pending>();
  auto future = pending->promise.get_future();
  enqueue(std::move(pending), std::move(events));
  return future;
}

void EventWriter::submit(std::vector<NewEvent> events, Done done) {
  auto pending = std::make_unique<Pending>();
  pending->done = std::move(done);
  enqueue(std::move(pending), std::move(events));
}

void EventWriter::enqueue(std::unique_ptr<Pending> pending, std::vector<NewEvent> events) {
  pending->events.reserve(events.size());
  for (auto& e : events) static_cast<NewEvent&>(pending->events.emplace_back()) = std::move(e);
  {
    std::lock_guard lock(mutex_);
    if (stopping_) throw std::runtime_error("the event writer is stopping");
    queue_.push_back(std::move(pending));
  }
  wake_.notify_one();
}

void EventWriter::Pending::succeed(std::vector<StoredEvent> stored) {
  if (!done) return promise.set_value(std::move(stored));
  complete(&stored, nullptr);
}

void EventWriter::Pending::fail(std::exception_ptr failure) {
  if (!done) return promise.set_exception(failure);
  complete(nullptr, failure);
}

void EventWriter::Pending::complete(std::vector<StoredEvent>* stored, std::exception_ptr failure) {
  try {
    done(stored, failure);
  } catch (const std::exception& e) {
    spdlog::error("a commit's completion failed: {}", describeException(e));
  }
}

void EventWriter::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && !thread_.joinable()) return;
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void EventWriter::run() {
  pthread_setname_np(pthread_self(), "aev-writer");  // for top, perf and bench/
  for (;;) {
    std::vector<std::unique_ptr<Pending>> batch;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping and drained
      // Let request threads that are ready to run (say, the ones the last commit just
      // completed) enqueue before the batch is cut: bigger groups share one commit. With
      // nothing else runnable this returns at once, so a lone publisher waits no longer.
      lock.unlock();
      std::this_thread::yield();
      lock.lock();
      std::size_t n = 0;
      // A request's events are never split; the first request is always taken.
      while (!queue_.empty() && (batch.empty() || n + queue_.front()->events.size() <= maxBatch_)) {
        n += queue_.front()->events.size();
        batch.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
    }
    commit(batch);
  }
}

void EventWriter::commit(std::vector<std::unique_ptr<Pending>>& batch) {
  std::size_t total = 0;
  for (const auto& p : batch) total += p->events.size();
  std::vector<StoredEvent> all;
  all.reserve(total);
  for (auto& p : batch)
    for (auto& e : p->events) all.push_back(std::move(e));
  // Gives each request its events back, for a retry in a smaller transaction.
  auto giveBack = [&] {
    std::size_t offset = 0;
    for (auto& p : batch)
      for (auto& ev : p->events) ev = std::move(all[offset++]);
  };
  const auto started = std::chrono::steady_clock::now();
  try {
    db_.transaction([&](store::Connection& c) {
      repo_.insertBatch(c, all);
      traces_.apply(c, all);
      if (rollupWrites_) rollups_.add(c, all);
      std::map<std::pair<std::int64_t, std::string>, std::int64_t> usage;
      std::int64_t lastSecond = -1;  // the events of a commit share a few receive seconds
      std::string period;
      for (const auto& e : all) {
        if (e.receivedAt / 1000000 != lastSecond) {
          lastSecond = e.receivedAt / 1000000;
          period = periodOf(e.receivedAt);
        }
        ++usage[{e.orgId, period}];
      }
      for (const auto& [key, n] : usage) repo_.addUsage(c, key.first, key.second, n);
      // Spend policies' counters, summed per bucket first (one statement per bucket).
      std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> spend;
      for (const auto& e : all)
        for (const auto& charge : e.spendCharges) spend[{charge.policyId, charge.bucketStart}] += charge.nanos;
      for (const auto& [key, nanos] : spend) spendLedger_.add(c, key.first, key.second, nanos);
      if (afterCommit_) afterCommit_->inTransaction(c, all);
    });
  } catch (const store::ChannelsGone& gone) {
    traces_.forgetUncommitted();
    // Refuse the requests with an event in a deleted channel; the others commit together.
    giveBack();
    const auto& ids = gone.channelIds();
    std::vector<std::unique_ptr<Pending>> rest;
    for (auto& p : batch) {
      const bool touches = std::any_of(p->events.begin(), p->events.end(), [&](const StoredEvent& e) {
        return std::find(ids.begin(), ids.end(), e.channelId) != ids.end();
      });
      if (touches) {
        std::vector<NewEvent> events;
        events.reserve(p->events.size());
        for (auto& e : p->events) events.push_back(std::move(static_cast<NewEvent&>(e)));
        p->fail(std::make_exception_ptr(ChannelsDeleted(gone, std::move(events))));
      } else {
        rest.push_back(std::move(p));
      }
    }
    if (!rest.empty()) commit(rest);
    return;
  } catch (const std::exception& e) {
    traces_.forgetUncommitted();
    if (batch.size() > 1) {
      // One request's failure must not fail the others that shared its transaction:
      // commit each request on its own.
      giveBack();
      for (auto& p : batch) {
        std::vector<std::unique_ptr<Pending>> one;
        one.push_back(std::move(p));
        commit(one);
      }
      return;
    }
    spdlog::error("event commit of {} events failed: {}", all.size(), describeException(e));
    Metrics::instance().add("agent_events_commit_failures_total");
    batch.front()->fail(std::current_exception());
    return;
  }
  static auto& commits = Metrics::instance().counter("agent_events_commits_total");
  static auto& stored = Metrics::instance().counter("agent_events_events_stored_total");
  // Wall time of the transaction, its fsync included: with events_stored and commits,
  // what one durable commit costs and how many events share it (a publisher with one
  // request in flight cannot go faster than one commit per answer).
  // Counted in microseconds, shown in seconds (common/metric_catalog.cpp).
  static auto& committing = Metrics::instance().counter("agent_events_commit_seconds_total");
  commits.fetch_add(1, std::memory_order_relaxed);
  stored.fetch_add(static_cast<std::int64_t>(all.size()), std::memory_order_relaxed);
  committing.fetch_add(
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started).count(),
      std::memory_order_relaxed);
  // The after-commit consumers first: they copy what they keep, so each request can then
  // take its own events without a copy.
  if (afterCommit_) afterCommit_->committed(all);
  std::size_t offset = 0;
  for (auto& p : batch) {
    const std::size_t n = p->events.size();
    std::vector<StoredEvent> mine(std::make_move_iterator(all.begin() + static_cast<long>(offset)),
                                  std::make_move_iterator(all.begin() + static_cast<long>(offset + n)));
    offset += n;
    p->succeed(std::move(mine));
  }
}

}  // namespace aev::events
