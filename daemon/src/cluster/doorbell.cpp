#include "cluster/doorbell.h"

#include <libpq-fe.h>
#include <pthread.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <sstream>

#include "common/metrics.h"

namespace aev::cluster {

std::string encodeDoorbell(const std::string& node, const std::map<std::int64_t, std::int64_t>& channels) {
  std::string out = node;
  for (const auto& [channel, seq] : channels) {
    out += ' ';
    out += std::to_string(channel);
    out += ':';
    out += std::to_string(seq);
    if (out.size() > kMaxDoorbellPayload) return node + " *";
  }
  return out;
}

std::optional<Doorbell> decodeDoorbell(const std::string& payload) {
  std::istringstream in(payload);
  Doorbell d;
  if (!(in >> d.node)) return std::nullopt;
  std::string item;
  while (in >> item) {
    if (item == "*") {
      d.everything = true;
      continue;
    }
    const auto colon = item.find(':');
    if (colon == std::string::npos) return std::nullopt;
    try {
      std::size_t used = 0;
      const auto channel = std::stoll(item.substr(0, colon), &used);
      if (used != colon) return std::nullopt;
      const auto seqText = item.substr(colon + 1);
      const auto seq = std::stoll(seqText, &used);
      if (used != seqText.size() || channel <= 0 || seq < 0) return std::nullopt;
      auto& known = d.channels[channel];
      known = std::max(known, static_cast<std::int64_t>(seq));
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  return d;
}

void DoorbellSender::start() {
  if (thread_.joinable()) return;
  stopping_ = false;
  thread_ = std::thread([this] { run(); });
}

void DoorbellSender::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void DoorbellSender::ring(const std::map<std::int64_t, std::int64_t>& channels) {
  {
    std::lock_guard lock(mutex_);
    for (const auto& [channel, seq] : channels) {
      auto& known = pending_[channel];
      known = std::max(known, seq);
    }
  }
  wake_.notify_one();
}

void DoorbellSender::run() {
  pthread_setname_np(pthread_self(), "aev-doorbell");
  static auto& sent = Metrics::instance().counter("agent_events_cluster_doorbells_sent_total",
                                                  "Doorbells (pg_notify) this node sent to the others");
  static auto& failed = Metrics::instance().counter("agent_events_cluster_doorbell_failures_total",
                                                    "Doorbells that could not be sent (the others poll instead)");
  PGconn* conn = nullptr;
  auto backoff = std::chrono::milliseconds(100);
  // fmt::format, not "literal" + std::string: GCC 12's bug 105651 (-Warray-bounds at -O2).
  const std::string sql = fmt::format("SELECT pg_notify('{}', $1)", kDoorbellChannel);
  for (;;) {
    std::map<std::int64_t, std::int64_t> batch;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
      if (stopping_) break;
      batch.swap(pending_);
    }
    if (!conn || PQstatus(conn) != CONNECTION_OK) {
      if (conn) PQfinish(conn);
      const auto conninfo = conninfo_ + " application_name=aev-doorbell-" + node_;
      conn = PQconnectdb(conninfo.c_str());
      if (PQstatus(conn) == CONNECTION_OK) {
        PQclear(PQexec(conn, "SET synchronous_commit = off"));
        backoff = std::chrono::milliseconds(100);
      }
    }
    bool ok = false;
    if (PQstatus(conn) == CONNECTION_OK) {
      const auto payload = encodeDoorbell(node_, batch);
      const char* values[1] = {payload.c_str()};
      PGresult* res = PQexecParams(conn, sql.c_str(), 1, nullptr, values, nullptr, nullptr, 0);
      ok = PQresultStatus(res) == PGRES_TUPLES_OK;
      if (!ok) spdlog::debug("cluster: doorbell not sent: {}", PQerrorMessage(conn));
      PQclear(res);
    }
    if (ok) {
      sent.fetch_add(1, std::memory_order_relaxed);
      continue;
    }
    failed.fetch_add(1, std::memory_order_relaxed);
    // The others' polls cover what this doorbell said; keep it for the next attempt
    // anyway, merged with what comes meanwhile, and retry after a pause.
    {
      std::unique_lock lock(mutex_);
      for (const auto& [channel, seq] : batch) {
        auto& known = pending_[channel];
        known = std::max(known, seq);
      }
      wake_.wait_for(lock, backoff, [&] { return stopping_; });
      if (stopping_) break;
    }
    backoff = std::min(backoff * 2, std::chrono::milliseconds(5000));
  }
  if (conn) PQfinish(conn);
}

}  // namespace aev::cluster
