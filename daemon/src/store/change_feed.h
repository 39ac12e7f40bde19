#pragma once
// Cross-node invalidation on PostgreSQL (docs/architecture.md#scaling-out): a change that
// other nodes cache (an API key revoked, an organization deleted, moderation rules
// or spend policies edited) sends a notice with pg_notify inside its own transaction, so it is delivered
// exactly when the change commits; every node LISTENs on one dedicated connection and
// hands each notice to the runtime. A node that loses that connection may have missed
// notices, so it is told (connected = false) and must stop trusting its caches until the
// connection is back (connected = true, after which everything is re-read). On SQLite
// there is one node per store and local invalidation is complete: nothing is sent.
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "store/database.h"

namespace aev::store {

struct ChangeNotice {
  std::string topic;  // apikey.revoked | organization.deleted | moderation.changed | spend.changed
  std::int64_t orgId = 0;
  std::int64_t id = 0;  // the key id for apikey.revoked, else 0
};

// Sends a notice in the caller's transaction (PostgreSQL); does nothing on SQLite.
void notifyChange(Connection& c, const ChangeNotice& notice);
// "apikey.revoked 7 12" and back (std::nullopt for anything else).
std::string encodeNotice(const ChangeNotice& notice);
std::optional<ChangeNotice> decodeNotice(const std::string& text);

class ChangeListener {
 public:
  using NoticeHandler = std::function<void(const ChangeNotice&)>;
  using ConnectionHandler = std::function<void(bool connected)>;

  // conninfo: libpq connection string of the store (Database::connectionString()).
  ChangeListener(std::string conninfo, NoticeHandler onNotice, ConnectionHandler onConnection)
      : conninfo_(std::move(conninfo)), onNotice_(std::move(onNotice)), onConnection_(std::move(onConnection)) {}
  ~ChangeListener() { stop(); }
  ChangeListener(const ChangeListener&) = delete;
  ChangeListener& operator=(const ChangeListener&) = delete;

  // Before start(): also LISTEN on `channel` on the same connection (one LISTEN
  // connection per node), handing each payload to `handler` (the cluster's doorbells).
  // onConnection(true) runs after every LISTEN has taken effect.
  using PayloadHandler = std::function<void(const std::string& payload)>;
  void alsoListen(std::string channel, PayloadHandler handler) {
    extra_.emplace_back(std::move(channel), std::move(handler));
  }
  // Before start(): the connection's application_name (pg_stat_activity).
  void setApplicationName(std::string name) { applicationName_ = std::move(name); }

  void start();
  void stop();
  bool connected() const { return connected_.load(); }

  static constexpr const char* kChannel = "aev_changes";

 private:
  void run();
  bool listenOnce();  // one connection's life; false when it could not connect
  bool dispatchExtra(const std::string& channel, const std::string& payload);
  std::string conninfo_;
  NoticeHandler onNotice_;
  ConnectionHandler onConnection_;
  std::vector<std::pair<std::string, PayloadHandler>> extra_;
  std::string applicationName_;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> connected_{false};
  std::thread thread_;
};

}  // namespace aev::store
