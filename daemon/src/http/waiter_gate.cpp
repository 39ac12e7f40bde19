#include "http/waiter_gate.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <chrono>

namespace aev::http {
namespace {

constexpr auto kTick = std::chrono::milliseconds(1);
// Ticks without a moment at which no thread waited before the keeper sleeps (until the
// next such moment): it costs nothing while the server is not busy.
constexpr int kQuietTicksBeforeSleep = 100;

}  // namespace

WaiterGate::WaiterGate(int maxWaiting) : maxWaiting_(std::max(1, maxWaiting)) {
  keeper_ = std::thread([this] { keep(); });
}

WaiterGate::~WaiterGate() { stop(); }

int WaiterGate::coresAvailable() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return std::max(1, CPU_COUNT(&set));
}

bool WaiterGate::enter() {
  std::unique_lock lock(mutex_);
  while (!stopping_ && waiting_ >= maxWaiting_) {
    ++parkedCount_;
    parked_.wait(lock);
    --parkedCount_;
  }
  if (stopping_) return false;
  ++waiting_;
  return true;
}

void WaiterGate::leave() {
  std::lock_guard lock(mutex_);
  ++taken_;
  if (--waiting_ > 0) return;
  // Nobody is in epoll_wait now. The thread that just left will usually be back within
  // microseconds, so nobody is woken here; the keeper checks a tick later.
  ++timesEmptied_;
  if (keeperAsleep_ && parkedCount_ > 0) {
    keeperAsleep_ = false;
    keeperWake_.notify_one();
  }
}

void WaiterGate::blocking() {
  std::lock_guard lock(mutex_);
  if (waiting_ < maxWaiting_ && parkedCount_ > 0) parked_.notify_one();
}

void WaiterGate::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  parked_.notify_all();
  keeperWake_.notify_all();
  if (keeper_.joinable()) keeper_.join();
}

void WaiterGate::keep() {
  pthread_setname_np(pthread_self(), "aev-http-keeper");
  std::unique_lock lock(mutex_);
  int quietTicks = 0;
  std::uint64_t seen = timesEmptied_;
  std::uint64_t takenBefore = taken_;
  while (!stopping_) {
    if (keeperAsleep_) {
      keeperWake_.wait(lock, [&] { return stopping_ || !keeperAsleep_; });
      quietTicks = 0;
      seen = timesEmptied_;
      takenBefore = taken_;
      continue;
    }
    keeperWake_.wait_for(lock, kTick, [&] { return stopping_; });
    if (stopping_) break;
    // Nobody waiting, and no event taken for a whole tick: the threads that took events
    // are blocked or busy for long; one more may wait in epoll_wait. (Nobody waiting for
    // a moment, with events still being taken, is a busy thread on its way back: letting
    // another in then would only preempt it while it holds a connection.)
    if (waiting_ == 0 && parkedCount_ > 0 && taken_ == takenBefore) parked_.notify_one();
    takenBefore = taken_;
    if (timesEmptied_ != seen) {
      seen = timesEmptied_;
      quietTicks = 0;
    } else if (++quietTicks >= kQuietTicksBeforeSleep) {
      keeperAsleep_ = true;
    }
  }
}

}  // namespace aev::http
