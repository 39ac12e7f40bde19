#pragma once
// The doorbell: after a group commit this node tells the others, with one pg_notify on
// its own connection, which channels moved and up to which seq. It carries no event and
// nothing rests on it (a lost doorbell only waits for the next poll); the events are read
// from the store.
//
// Why outside the data transaction: NOTIFY takes a cluster-wide lock at commit, held
// across the commit's WAL flush, so every notifying commit of every node would commit one
// at a time; and a full notification queue would make the publishes themselves fail.
// While one NOTIFY is in flight the next commits' channels are merged (highest seq per
// channel), so a burst costs a few doorbells, not one per commit. The doorbell's own
// transaction commits with synchronous_commit off: the lock is not held across a flush,
// and what it points to is already durable.
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace aev::cluster {

constexpr const char* kDoorbellChannel = "aev_events";
// NOTIFY payloads must be shorter than 8000 bytes (default build); above this a doorbell
// says "read every channel you hold" instead of listing them.
constexpr std::size_t kMaxDoorbellPayload = 7900;

struct Doorbell {
  std::string node;                               // the sender, so it can skip its own
  bool everything = false;                        // "<node> *": check every held channel
  std::map<std::int64_t, std::int64_t> channels;  // channel -> highest committed seq
};

// "<node> <channel>:<seq> ..." or "<node> *" when the list would not fit.
std::string encodeDoorbell(const std::string& node, const std::map<std::int64_t, std::int64_t>& channels);
// std::nullopt for a payload that is not a doorbell.
std::optional<Doorbell> decodeDoorbell(const std::string& payload);

// The sender: ring() only merges and wakes its thread.
class DoorbellSender {
 public:
  // conninfo: libpq connection string; node: this node's id.
  DoorbellSender(std::string conninfo, std::string node) : conninfo_(std::move(conninfo)), node_(std::move(node)) {}
  ~DoorbellSender() { stop(); }
  DoorbellSender(const DoorbellSender&) = delete;
  DoorbellSender& operator=(const DoorbellSender&) = delete;

  void start();
  void stop();
  void ring(const std::map<std::int64_t, std::int64_t>& channels);

 private:
  void run();
  std::string conninfo_;
  std::string node_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::map<std::int64_t, std::int64_t> pending_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace aev::cluster
