#include "http/waiter_gate.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <chrono>

namespace aev::http {
namespace {

constexpr auto kTick = std::chrono::milliseconds(1);
// Ticks in a row at which a thread waited (or none was parked) before the keeper sleeps
// until the gate next empties. A tick is a wake-up: ticking on through a trickle of
// requests cost more CPU than the requests (1,000 wake-ups a second at 30 publishes a
// second); asleep, the keeper costs one wake-up when the gate empties and two ticks.
constexpr int kFineTicksBeforeSleep = 2;

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
  // microseconds, so no parked thread is woken here; the keeper checks a tick later.
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
  int fineTicks = 0;
  std::uint64_t takenBefore = taken_;
  while (!stopping_) {
    if (keeperAsleep_) {
      keeperWake_.wait(lock, [&] { return stopping_ || !keeperAsleep_; });
      fineTicks = 0;
      takenBefore = taken_;
      continue;
    }
    keeperWake_.wait_for(lock, kTick, [&] { return stopping_; });
    if (stopping_) break;
    if (waiting_ == 0 && parkedCount_ > 0) {
      // Nobody waiting, and no event taken for a whole tick: the threads that took events
      // are blocked or busy for long; one more may wait in epoll_wait. (Nobody waiting for
      // a moment, with events still being taken, is a busy thread on its way back: letting
      // another in then would only preempt it while it holds a connection.)
      if (taken_ == takenBefore) parked_.notify_one();
      fineTicks = 0;
    } else if (++fineTicks >= kFineTicksBeforeSleep) {
      keeperAsleep_ = true;  // leave() wakes it when the gate empties
    }
    takenBefore = taken_;
  }
}

}  // namespace aev::http
