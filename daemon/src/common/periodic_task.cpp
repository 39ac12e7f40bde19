#include "common/periodic_task.h"

#include <spdlog/spdlog.h>

namespace aev {

void PeriodicTask::start() {
  if (interval_.count() <= 0 || thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stopping_ = false;
  }
  thread_ = std::thread([this] { run(); });
}

void PeriodicTask::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool PeriodicTask::stopping() const {
  std::lock_guard lock(mutex_);
  return stopping_;
}

void PeriodicTask::run() {
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, interval_, [this] { return stopping_; })) {
    lock.unlock();
    try {
      tick_();
    } catch (const std::exception& e) {
      spdlog::warn("{} failed: {} (retried at the next tick)", name_, e.what());
    }
    lock.lock();
  }
}

}  // namespace aev
