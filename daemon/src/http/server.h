#pragma once
// The HTTP/1.1 front end: one epoll set holds the listening socket and every request
// connection, each registered EPOLLONESHOT, and maxThreads threads wait on it. A ready
// connection belongs to the one thread that took its event: that thread reads, parses
// (http/request_parser), runs the route (http/dispatcher), writes the answer and re-arms
// the connection, or carries on with the next pipelined request. A deferred answer (a
// publish waiting for its group commit) is written by the completion instead, and the
// thread moves on; an answer the socket cannot take at once waits for EPOLLOUT. So a request costs no
// hand-off between threads, an idle or slowly-sending connection holds no thread, and a
// handler may block (on the store, on a group commit) without stalling other connections.
// Only as many threads as the process has cores wait in epoll_wait at once; the others
// are parked until one blocks (http/waiter_gate.h), so a saturated core does not make
// every thread runnable.
// A reaper thread closes connections idle past the keep-alive timeout and requests not
// received whole within the request timeout. SSE responses hand their socket to the
// stream hub (Response::takeover) and leave this server.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "http/dispatcher.h"
#include "http/router.h"
#include "http/server_options.h"
#include "http/waiter_gate.h"

namespace aev::http {

class Server {
 public:
  Server(ServerOptions options, std::shared_ptr<Router> router);
  ~Server();
  void start();
  // Stops accepting, lets in-flight requests finish, closes idle connections.
  void stop();
  int port() const { return boundPort_; }

 private:
  struct Connection;
  struct Owed;

  void run();
  void acceptReady();
  void serve(Connection* c);
  bool answer(Connection* c, WireRequest&& wire);
  bool defer(Connection* c, Exchange&& x);
  void settle(const std::shared_ptr<Owed>& owed, Response::Outcome outcome);
  void expireOwed(std::int64_t nowNs);
  void queueAnswer(Connection* c, const Exchange& x);
  bool deliver(Connection* c);
  bool answerRejected(Connection* c);
  bool handOver(Connection* c, Exchange& x);
  void arm(Connection* c, std::uint32_t events);
  void destroy(Connection* c, bool linger);
  void unregister(Connection* c);
  void reap();

  ServerOptions options_;
  std::shared_ptr<Router> router_;
  Dispatcher dispatcher_;
  int epoll_ = -1;
  int listen_ = -1;
  int wake_ = -1;  // eventfd: readable (level-triggered, never read) once stopping
  int boundPort_ = 0;
  std::atomic<bool> stopping_{false};
  std::unique_ptr<WaiterGate> gate_;  // how many threads wait in epoll_wait at once
  std::vector<std::thread> threads_;
  std::thread reaper_;
  std::mutex reaperMutex_;
  std::condition_variable reaperWake_;
  std::mutex deferredMutex_;
  std::condition_variable deferredDone_;
  std::unordered_set<std::shared_ptr<Owed>> owed_;  // deferred answers not given yet (their connections
                                                    // are neither the threads' nor the reaper's)
  std::mutex connectionsMutex_;
  std::unordered_set<Connection*> connections_;
};

}  // namespace aev::http
