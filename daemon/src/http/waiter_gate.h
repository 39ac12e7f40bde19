#pragma once
// How many of the front end's request threads wait in epoll_wait at once: as many as
// the cores the process may run on; the others stay parked on a condition variable.
//
// Why: epoll wakes one sleeping waiter for every event that arrives, even when a thread
// already running would take it a moment later. With every thread a waiter, a burst of
// events on a saturated core makes all of them runnable, and a thread that took a
// connection's event and was then preempted waits its turn behind all of them (the
// scheduler gives each a slice): with 96 threads on one core, GET /healthz at c=16 had a
// p50 of 0.11 ms but a p90 of 157 ms and a p99 of 277 ms. Behind the gate the threads that
// are busy come back for the next event themselves and the rest sleep.
//
// Handlers may block (a PostgreSQL query, a commit's fsync, a batch waiting for its group
// commit). A thread about to block says so (common/blocking_hint.h) and the gate lets a
// parked thread in at once; for blocking nobody announced, a keeper lets one in when no
// thread waited and no event was taken for a whole tick (1 ms), so nothing stalls for
// much longer than that. The keeper ticks only while the gate keeps emptying; otherwise
// it sleeps until the gate next empties with threads parked.
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

namespace aev::http {

class WaiterGate {
 public:
  // maxWaiting: threads allowed in epoll_wait together (at least 1).
  explicit WaiterGate(int maxWaiting);
  ~WaiterGate();
  WaiterGate(const WaiterGate&) = delete;
  WaiterGate& operator=(const WaiterGate&) = delete;

  // Before epoll_wait: parks while enough threads wait. False once stopping.
  bool enter();
  // After epoll_wait returned.
  void leave();
  // The calling thread (which took an event) is about to block: when fewer than
  // maxWaiting threads wait, a parked thread takes its place in epoll_wait.
  void blocking();
  // Wakes every parked thread (enter() then returns false) and stops the keeper.
  void stop();

  // The cores this process may run on (its CPU affinity), at least 1.
  static int coresAvailable();

 private:
  void keep();

  std::mutex mutex_;
  std::condition_variable parked_;
  std::condition_variable keeperWake_;
  const int maxWaiting_;
  int waiting_ = 0;
  int parkedCount_ = 0;
  std::uint64_t taken_ = 0;   // events taken (epoll_wait returns)
  bool keeperAsleep_ = true;  // until the gate empties with threads parked
  bool stopping_ = false;
  std::thread keeper_;
};

}  // namespace aev::http
