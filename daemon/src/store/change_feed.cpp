#include "store/change_feed.h"

#include <libpq-fe.h>
#include <poll.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <sstream>

#include "common/metrics.h"

namespace aev::store {

void notifyChange(Connection& c, const ChangeNotice& notice) {
  if (c.dialect() != Dialect::PostgreSQL) return;
  c.query(std::string("SELECT pg_notify('") + ChangeListener::kChannel + "', ?) AS sent", {encodeNotice(notice)});
}

std::string encodeNotice(const ChangeNotice& n) {
  return n.topic + " " + std::to_string(n.orgId) + " " + std::to_string(n.id);
}

std::optional<ChangeNotice> decodeNotice(const std::string& text) {
  std::istringstream in(text);
  ChangeNotice n;
  if (!(in >> n.topic >> n.orgId >> n.id)) return std::nullopt;
  std::string rest;
  if (in >> rest) return std::nullopt;
  return n;
}

void ChangeListener::start() {
  if (thread_.joinable()) return;
  stopping_ = false;
  thread_ = std::thread([this] { run(); });
}

void ChangeListener::stop() {
  stopping_ = true;
  if (thread_.joinable()) thread_.join();
}

void ChangeListener::run() {
  auto backoff = std::chrono::milliseconds(100);
  while (!stopping_) {
    if (listenOnce()) backoff = std::chrono::milliseconds(100);
    // Reconnect with a growing pause (capped), checking for stop meanwhile.
    for (auto waited = std::chrono::milliseconds(0); waited < backoff && !stopping_;
         waited += std::chrono::milliseconds(50))
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    backoff = std::min(backoff * 2, std::chrono::milliseconds(5000));
  }
}

namespace {
std::atomic<std::int64_t>& connectedGauge() {
  static auto& gauge = Metrics::instance().counter("agent_events_change_feed_connected",
                                                   "1 while this node LISTENs for other nodes' changes");
  return gauge;
}
}  // namespace

bool ChangeListener::dispatchExtra(const std::string& channel, const std::string& payload) {
  for (const auto& [name, handler] : extra_) {
    if (name != channel) continue;
    handler(payload);
    return true;
  }
  return false;
}

bool ChangeListener::listenOnce() {
  // TCP keep-alives: a silently dead connection must be noticed, or this node would
  // keep trusting caches no notice can reach any more.
  auto conninfo = conninfo_ + " keepalives=1 keepalives_idle=10 keepalives_interval=5 keepalives_count=3";
  if (!applicationName_.empty()) conninfo += " application_name=" + applicationName_;
  PGconn* conn = PQconnectdb(conninfo.c_str());
  auto finish = [&] {
    if (connected_.exchange(false)) {
      connectedGauge() = 0;
      spdlog::warn("change feed: lost the LISTEN connection; caches fed by it are off until it is back");
      onConnection_(false);
    }
    PQfinish(conn);
  };
  if (PQstatus(conn) != CONNECTION_OK) {
    spdlog::warn("change feed: cannot connect: {}", PQerrorMessage(conn));
    finish();
    return false;
  }
  std::string listen = std::string("LISTEN ") + kChannel;
  for (const auto& [channel, handler] : extra_) listen += "; LISTEN " + channel;
  PGresult* res = PQexec(conn, listen.c_str());
  const bool listening = PQresultStatus(res) == PGRES_COMMAND_OK;
  PQclear(res);
  if (!listening) {
    spdlog::warn("change feed: LISTEN failed: {}", PQerrorMessage(conn));
    finish();
    return false;
  }
  // Notices sent before LISTEN took effect are not delivered: the handler re-reads.
  connected_ = true;
  connectedGauge() = 1;
  onConnection_(true);
  while (!stopping_) {
    pollfd pfd{PQsocket(conn), POLLIN, 0};
    const int ready = ::poll(&pfd, 1, 250);  // wakes to notice stop()
    if (ready < 0 && errno != EINTR) break;
    if (ready > 0 && !PQconsumeInput(conn)) break;
    while (PGnotify* n = PQnotifies(conn)) {
      if (dispatchExtra(n->relname ? n->relname : "", n->extra ? n->extra : "")) {
        PQfreemem(n);
        continue;
      }
      if (auto notice = decodeNotice(n->extra ? n->extra : ""))
        onNotice_(*notice);
      else
        spdlog::warn("change feed: ignored a malformed notice: {}", n->extra ? n->extra : "");
      PQfreemem(n);
    }
    if (PQstatus(conn) != CONNECTION_OK) break;
  }
  finish();
  return true;
}

}  // namespace aev::store
