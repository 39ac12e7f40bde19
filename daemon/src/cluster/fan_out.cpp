#include "cluster/fan_out.h"

#include <pthread.h>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "common/exceptions.h"
#include "common/metrics.h"

namespace aev::cluster {

namespace {
// Rows per catch-up read; a longer backlog takes several rounds back to back.
constexpr std::int64_t kReadPage = 1000;

std::map<std::int64_t, std::int64_t> lastSeqPerChannel(const events::CommittedEvents& commit) {
  std::map<std::int64_t, std::int64_t> out;
  for (const auto& head : commit.channels()) out[head.channelId] = head.lastSeq;
  return out;
}
}  // namespace

CrossNodeFanOut::CrossNodeFanOut(store::Database& db, stream::Hub& hub, FanOutOptions options)
    : db_(db),
      options_(std::move(options)),
      gate_([&hub](const std::vector<store::StoredEvent>& events) { hub.publish(events); },
            [this](std::int64_t channelId) {
              auto c = db_.acquire();
              const auto seqs = positions_.lastSeqs(*c, {channelId});
              return seqs.empty() ? std::int64_t{0} : seqs.front().second;
            }) {
  if (options_.wakeup == Wakeup::Notify && !options_.notifyInTransaction)
    sender_ = std::make_unique<DoorbellSender>(db_.connectionString(), options_.node);
}

CrossNodeFanOut::~CrossNodeFanOut() { stop(); }

void CrossNodeFanOut::start() {
  if (thread_.joinable()) return;
  stopping_ = false;
  if (sender_) sender_->start();
  thread_ = std::thread([this] { run(); });
}

void CrossNodeFanOut::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
  if (sender_) sender_->stop();
}

void CrossNodeFanOut::committed(const events::CommittedEvents& commit) {
  if (gate_.offer(commit.events())) {
    {
      std::lock_guard lock(mutex_);
      gap_ = true;
    }
    wake_.notify_one();
  }
  if (sender_) sender_->ring(lastSeqPerChannel(commit));
}

void CrossNodeFanOut::inTransaction(store::Connection& c, const events::CommittedEvents& commit) {
  if (!options_.notifyInTransaction || options_.wakeup != Wakeup::Notify) return;
  // fmt::format, not "literal" + std::string: GCC 12 at -O2 reports its bug 105651
  // (-Warray-bounds) on the latter here once the function is inlined further.
  c.query(fmt::format("SELECT pg_notify('{}', ?) AS sent", kDoorbellChannel),
          {encodeDoorbell(options_.node, lastSeqPerChannel(commit))});
}

void CrossNodeFanOut::doorbell(const std::string& payload) {
  static auto& received = Metrics::instance().counter("agent_events_cluster_doorbells_received_total",
                                                      "Doorbells from other nodes this node received");
  auto bell = decodeDoorbell(payload);
  if (bell && bell->node == options_.node) return;  // our own
  received.fetch_add(1, std::memory_order_relaxed);
  {
    std::lock_guard lock(mutex_);
    if (!bell || bell->everything) {
      readAll_ = true;  // a malformed one is read as "check everything": it costs one poll
    } else {
      for (const auto& [channel, seq] : bell->channels) {
        auto& known = announced_[channel];
        known = std::max(known, seq);
      }
    }
  }
  wake_.notify_one();
}

void CrossNodeFanOut::listening(bool up) {
  {
    std::lock_guard lock(mutex_);
    listening_ = up;
    // Up: LISTEN is in effect; what was committed before it may have rung no bell here,
    // so reconcile with the store now (the documented order: LISTEN, then read the state).
    // Down: doorbells may be missed from now on; poll now and then at the faster rate.
    readAll_ = true;
  }
  wake_.notify_one();
}

std::chrono::milliseconds CrossNodeFanOut::interval() const {
  const auto base = options_.pollInterval;
  const bool degraded = failing_ || (options_.wakeup == Wakeup::Notify && !listening_);
  if (!degraded) return base;
  return std::clamp(base / 4, std::chrono::milliseconds(20), std::chrono::milliseconds(250));
}

void CrossNodeFanOut::run() {
  pthread_setname_np(pthread_self(), "aev-cluster");
  auto lastPoll = std::chrono::steady_clock::now();
  for (;;) {
    bool poll = false;
    {
      std::unique_lock lock(mutex_);
      // interval() is read again each time: shorter while LISTEN is down or the store fails.
      const auto due = lastPoll + interval();
      wake_.wait_until(lock, due, [&] { return stopping_ || readAll_ || gap_ || !announced_.empty(); });
      if (stopping_) return;
      const auto now = std::chrono::steady_clock::now();
      poll = readAll_ || now >= due;
      // A timed poll keeps a fixed rate (due, not now, unless it is more than an interval
      // late), so the poll-only delay stays within one interval.
      if (poll) lastPoll = (now >= due && now - due < interval()) ? due : now;
      readAll_ = false;
      gap_ = false;
      for (const auto& [channel, seq] : announced_) gate_.announce(channel, seq);
      announced_.clear();
    }
    round(poll);
  }
}

void CrossNodeFanOut::round(bool poll) {
  static auto& rounds = Metrics::instance().counter("agent_events_cluster_catchup_reads_total",
                                                    "Store reads of other nodes' events (doorbell, poll or gap)");
  try {
    std::unique_ptr<store::Connection> c;
    if (poll && !gate_.heldChannels().empty()) {
      c = db_.acquire();
      pollHeld(*c);
    }
    if (!gate_.behind().empty()) {
      if (!c) c = db_.acquire();
      rounds.fetch_add(1, std::memory_order_relaxed);
      readBehind(*c);
    }
    if (failing_) spdlog::info("cluster: the store answers again; live fan-out from other nodes resumes");
    std::lock_guard lock(mutex_);
    failing_ = false;
  } catch (const std::exception& e) {
    bool first = false;
    {
      std::lock_guard lock(mutex_);
      first = !failing_;
      failing_ = true;
    }
    if (first) spdlog::warn("cluster: cannot read other nodes' events ({}); retrying", describeException(e));
  }
}

void CrossNodeFanOut::pollHeld(store::Connection& c) {
  for (const auto& [channel, seq] : positions_.lastSeqs(c, gate_.heldChannels())) gate_.announce(channel, seq);
}

void CrossNodeFanOut::readBehind(store::Connection& c) {
  for (;;) {
    const auto ranges = gate_.behind();
    if (ranges.empty()) return;
    const auto rows = positions_.inRanges(c, ranges, kReadPage);
    gate_.offer(rows);
    const bool complete = static_cast<std::int64_t>(rows.size()) < kReadPage;
    bool progress = !rows.empty();
    // A range with nothing at delivered + 1 although the store announced more: those
    // events are gone (retention, or the channel was deleted). Move past them; a read
    // cut by the page limit says nothing about the channels after its last row.
    for (const auto& r : ranges) {
      if (!complete && r.channelId >= rows.back().channelId) continue;
      if (gate_.delivered(r.channelId) != r.afterSeq) continue;  // it moved
      auto first = std::find_if(rows.begin(), rows.end(),
                                [&](const store::StoredEvent& e) { return e.channelId == r.channelId; });
      gate_.skipTo(r.channelId, first == rows.end() ? r.uptoSeq : first->seq - 1);
      progress = true;
    }
    if (!progress) return;
  }
}

}  // namespace aev::cluster
