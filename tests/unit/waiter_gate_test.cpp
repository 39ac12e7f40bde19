// http/waiter_gate.h: at most maxWaiting threads pass enter() together; the others park
// until a thread that took an event says it will block, until the keeper finds nobody
// waiting and nothing taken for a tick, or until stop().
#include "http/waiter_gate.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

namespace aev::http {
namespace {

using namespace std::chrono_literals;

// Another thread calling enter(). Its destructor stops the gate first, so that a failed
// expectation cannot leave the test waiting for a thread parked for good.
class Contender {
 public:
  explicit Contender(WaiterGate& gate)
      : gate_(gate), result_(std::async(std::launch::async, [&gate] { return gate.enter(); })) {}
  ~Contender() { gate_.stop(); }
  bool admittedWithin(std::chrono::milliseconds timeout) {
    return result_.wait_for(timeout) == std::future_status::ready;
  }
  bool get() { return result_.get(); }

 private:
  WaiterGate& gate_;
  std::future<bool> result_;
};

TEST(WaiterGate, OnlyMaxWaitingThreadsPassTogether) {
  WaiterGate gate(2);
  ASSERT_TRUE(gate.enter());
  ASSERT_TRUE(gate.enter());
  Contender third(gate);
  EXPECT_FALSE(third.admittedWithin(50ms)) << "two already wait";
  gate.stop();
  ASSERT_TRUE(third.admittedWithin(2s));
  EXPECT_FALSE(third.get()) << "stopping: enter() answers false";
}

TEST(WaiterGate, TheKeeperLetsOneInWhenNobodyWaitsForATick) {
  WaiterGate gate(1);
  ASSERT_TRUE(gate.enter());
  Contender parked(gate);
  EXPECT_FALSE(parked.admittedWithin(50ms));
  gate.leave();  // took an event and stays busy without saying it blocks
  ASSERT_TRUE(parked.admittedWithin(2s)) << "a busy thread must not stall the others for long";
  EXPECT_TRUE(parked.get());
  gate.leave();
}

TEST(WaiterGate, TheKeeperAsleepAgainStillCatchesTheNextStall) {
  WaiterGate gate(1);
  ASSERT_TRUE(gate.enter());
  Contender first(gate);
  gate.leave();  // a stall: the keeper lets `first` in
  ASSERT_TRUE(first.admittedWithin(2s));
  ASSERT_TRUE(first.get());
  Contender second(gate);
  // `first` waits now, so the gate is fine and the keeper goes back to sleep (two ticks).
  EXPECT_FALSE(second.admittedWithin(50ms));
  gate.leave();  // `first` took an event and stalls too: the emptied gate wakes the keeper
  ASSERT_TRUE(second.admittedWithin(2s)) << "a sleeping keeper must still catch a stall";
  EXPECT_TRUE(second.get());
  gate.leave();
}

TEST(WaiterGate, ABlockingThreadsPlaceIsTakenWhileAnotherStillWaits) {
  WaiterGate gate(2);
  ASSERT_TRUE(gate.enter());
  ASSERT_TRUE(gate.enter());
  Contender parked(gate);
  EXPECT_FALSE(parked.admittedWithin(50ms)) << "two already wait";
  gate.leave();  // one took an event, one still waits in epoll_wait
  // With a thread still waiting the keeper lets nobody in: only the hint can.
  EXPECT_FALSE(parked.admittedWithin(50ms));
  gate.blocking();  // the place it left in epoll_wait goes to a parked thread
  ASSERT_TRUE(parked.admittedWithin(2s));
  EXPECT_TRUE(parked.get());
  gate.leave();
  gate.leave();
}

TEST(WaiterGate, CoresAvailableIsAtLeastOne) { EXPECT_GE(WaiterGate::coresAvailable(), 1); }

}  // namespace
}  // namespace aev::http
