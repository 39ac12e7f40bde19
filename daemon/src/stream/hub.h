#pragma once
// The SSE hub (docs/architecture.md#the-stream-hub): owns every subscriber socket on one epoll
// thread, so 10,000 idle streams cost file descriptors and a few hundred bytes each,
// not HTTP worker threads. A committed event is framed once per channel and the same
// bytes are queued (shared) to every matching subscriber; each subscriber's queue is
// written with one sendmsg. A subscriber whose backlog passes the cap is closed and
// resumes with Last-Event-ID, so a slow reader never slows the others or the writer.
//
// One fan-out round walks the subscribers marked dirty, in the order they were marked, with
// one send each; events committed while a round runs are picked up between sends (every
// few subscribers), so the subscribers the round has not reached yet get them in the same
// send and only those it has passed wait for the next round. A long round yields the
// core now and then, so the publish path sharing it can commit the next event meanwhile.
//
// Joining a stream is two steps so replay and live meet without gap or duplicate:
// reserve() starts buffering live frames for the subscription; the caller then writes
// the replay from the store; activate() hands over the socket and drops buffered frames
// the replay already covered (by per-channel sequence).
#include <Poco/Net/StreamSocket.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "common/revocation.h"
#include "events/after_commit.h"
#include "store/event_records.h"
#include "store/event_repository.h"

namespace aev::stream {

// Told when a subscription starts holding a channel on this node and when it lets go
// (cluster/contiguity_gate.h keeps a delivery cursor per held channel). holding() runs
// before the subscription is registered, outside the hub's lock, and may read the store
// or throw (then no subscription is made); released() runs under the hub's lock once per
// subscription that held, and must be quick.
class ChannelWatcher {
 public:
  virtual ~ChannelWatcher() = default;
  virtual void holding(std::int64_t channelId) = 0;
  virtual void released(std::int64_t channelId) = 0;
};

struct HubOptions {
  std::size_t maxBacklogBytes = 256 * 1024;
  int socketSendBuffer = 128 * 1024;
  std::chrono::seconds keepAlive{15};
  std::size_t maxSubscribers = 20000;
  // Streams one organization may hold, so that one tenant cannot take the whole hub.
  std::size_t maxSubscribersPerOrg = 10000;
};

// An after-commit consumer (events/after_commit.h): every commit's events reach the live
// streams of their channels.
class Hub : public events::CommitConsumer {
 public:
  using SubscriptionId = std::uint64_t;

  explicit Hub(HubOptions options = {});
  ~Hub();
  Hub(const Hub&) = delete;
  Hub& operator=(const Hub&) = delete;

  // Set before start(), or not at all.
  void setChannelWatcher(ChannelWatcher* watcher) { watcher_ = watcher; }

  void start();
  void stop();

  // Whose credentials opened a stream, so revoking them ends it (a revoked key, a
  // removed member, a disabled user, a deleted organization).
  struct Owner {
    std::int64_t orgId = 0;
    std::int64_t userId = 0;    // 0 unless a user session
    std::int64_t apiKeyId = 0;  // 0 unless an API key
  };

  // Throws ApiError 503 when the hub is full, 429 when the organization holds
  // maxSubscribersPerOrg streams. The subscribe route asks before its 200 head, so the
  // client gets the problem; reserve() checks again (two requests may race for the last
  // slot: the loser's stream then closes right after its head).
  void checkRoom(std::int64_t orgId) const;
  // Throws as checkRoom does.
  SubscriptionId reserve(std::int64_t channelId, store::EventFilter filter, Owner owner);
  // replayedSeq: the highest sequence the caller has already written (or chose to skip).
  void activate(SubscriptionId id, Poco::Net::StreamSocket socket, std::int64_t replayedSeq);
  void cancel(SubscriptionId id);

  // Called after commit, in commit order. Only queues: the fan-out runs on the hub
  // thread, so the writer never waits for subscribers.
  void publish(const std::vector<store::StoredEvent>& events);
  void committed(const events::CommittedEvents& commit) override { publish(commit.events()); }
  // Ends every stream of these channels (they were deleted).
  void closeChannels(const std::vector<std::int64_t>& channelIds);
  // Ends every stream whose owner matches all the fields set in scope.
  void closeOwnedBy(const Revocation& scope);

  std::size_t subscriberCount() const;

  // "id: <id>\ndata: <json>\n\n"
  static std::string frameOf(const store::StoredEvent& e);

 private:
  struct Frame {
    std::int64_t seq;  // 0 for keep-alives
    std::shared_ptr<const std::string> bytes;
  };
  struct Subscriber {
    SubscriptionId id = 0;
    std::int64_t channelId = 0;
    std::size_t channelSlot = 0;  // index in byChannel_[channelId]
    store::EventFilter filter;
    Owner owner;
    Poco::Net::StreamSocket socket;
    int fd = -1;
    bool active = false;
    bool doomed = false;  // backlog overflow or peer gone: close on the hub thread
    bool wantWrite = false;
    bool inDirty = false;
    std::deque<Frame> queue;
    std::size_t queuedBytes = 0;
    std::size_t headOffset = 0;  // bytes of queue.front() already sent
    std::int64_t lastSeq = 0;
    std::chrono::steady_clock::time_point lastWrite;
  };

  void checkRoomLocked(std::int64_t orgId) const;
  void run();
  // Moves what the writer committed since the last call into the subscribers' queues.
  void takeInboxLocked();
  void fanOutLocked(const std::vector<store::StoredEvent>& events);
  void flushDirtyLocked();
  void wake();
  void enqueueLocked(Subscriber& s, Frame frame);
  void flushLocked(Subscriber& s, std::chrono::steady_clock::time_point now);
  void closeLocked(SubscriptionId id);
  void updateInterestLocked(Subscriber& s);
  void keepAlivesLocked();
  void markDirtyLocked(Subscriber& s);
  void doomLocked(Subscriber& s);

  HubOptions options_;
  ChannelWatcher* watcher_ = nullptr;
  int epollFd_ = -1;
  int wakeFd_ = -1;
  std::atomic<bool> running_{false};
  std::thread thread_;
  mutable std::mutex mutex_;
  SubscriptionId nextId_ = 1;
  std::unordered_map<SubscriptionId, std::unique_ptr<Subscriber>> subscribers_;
  std::unordered_map<std::int64_t, std::size_t> streamsPerOrg_;  // open or starting, by organization
  std::unordered_map<std::int64_t, std::vector<Subscriber*>> byChannel_;
  std::unordered_map<int, Subscriber*> byFd_;
  // Subscribers with queued frames, in the order they were marked; closeLocked() clears
  // a closed one's entry (nullptr) so a round never touches a freed subscriber.
  std::vector<Subscriber*> dirty_;
  std::vector<SubscriptionId> doomed_;
  std::mutex inboxMutex_;
  // The channels with at least one reserved or active subscriber (byChannel_'s keys),
  // under inboxMutex_ so publish() can skip, without taking mutex_, the events nobody
  // waits for: most commits, and none of them needs copying. A subscriber reserves before
  // its replay reads the store, so an event published before the reservation is in the
  // replay, and one published after it finds the channel here.
  std::unordered_set<std::int64_t> listenedChannels_;
  std::vector<store::StoredEvent> inbox_;
  std::vector<store::StoredEvent> committed_;  // the hub thread's swap partner of inbox_
  // Set by publish() when it fills an empty inbox; the hub clears it before taking the
  // inbox. Lets a round notice new events between sends without a system call, and lets
  // publish() skip the eventfd write while the hub has not yet taken the previous ones.
  std::atomic<bool> inboxPending_{false};
};

}  // namespace aev::stream
