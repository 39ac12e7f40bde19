// common/periodic_task.h: ticks at its interval, survives a throwing tick, stops at once.
#include "common/periodic_task.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>

namespace aev {
namespace {

using namespace std::chrono_literals;

TEST(PeriodicTask, TicksRepeatedlyEvenAfterATickThrows) {
  std::atomic<int> ticks{0};
  PeriodicTask task("test task", 5ms, [&] {
    if (++ticks == 1) throw std::runtime_error("first tick fails");
  });
  task.start();
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (ticks < 3 && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(1ms);
  task.stop();
  EXPECT_GE(ticks.load(), 3);
  EXPECT_TRUE(task.stopping());
}

TEST(PeriodicTask, StopDoesNotWaitForTheInterval) {
  std::atomic<int> ticks{0};
  PeriodicTask task("slow task", 1h, [&] { ++ticks; });
  task.start();
  const auto started = std::chrono::steady_clock::now();
  task.stop();
  EXPECT_LT(std::chrono::steady_clock::now() - started, 1s);
  EXPECT_EQ(ticks.load(), 0);
}

TEST(PeriodicTask, ZeroIntervalNeverStarts) {
  std::atomic<int> ticks{0};
  PeriodicTask task("off", 0ms, [&] { ++ticks; });
  task.start();
  std::this_thread::sleep_for(20ms);
  task.stop();
  EXPECT_EQ(ticks.load(), 0);
}

}  // namespace
}  // namespace aev
