#pragma once
// Runs a function every `interval` on its own thread until stopped (audit checkpoints,
// the retention sweep). stop() wakes the wait at once and joins; an exception from the
// function is logged and the next tick runs as usual. An interval of 0 never starts.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace aev {

class PeriodicTask {
 public:
  PeriodicTask(std::string name, std::chrono::milliseconds interval, std::function<void()> tick)
      : name_(std::move(name)), interval_(interval), tick_(std::move(tick)) {}
  ~PeriodicTask() { stop(); }
  PeriodicTask(const PeriodicTask&) = delete;
  PeriodicTask& operator=(const PeriodicTask&) = delete;

  void start();
  void stop();
  // Whether stop() was called: a long tick checks it between steps.
  bool stopping() const;

 private:
  void run();
  std::string name_;
  std::chrono::milliseconds interval_;
  std::function<void()> tick_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace aev
