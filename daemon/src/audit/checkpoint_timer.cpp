#include "audit/checkpoint_timer.h"

#include <spdlog/spdlog.h>

#include "audit/audit_log.h"

namespace aev::audit {

void CheckpointTimer::start() {
  if (interval_.count() <= 0 || thread_.joinable()) return;
  stopping_ = false;
  thread_ = std::thread([this] { run(); });
}

void CheckpointTimer::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void CheckpointTimer::run() {
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, interval_, [this] { return stopping_; })) {
    lock.unlock();
    try {
      if (auto n = log_.checkpointAll()) spdlog::info("audit: signed {} checkpoint(s)", n);
    } catch (const std::exception& e) {
      spdlog::warn("audit checkpoint failed: {}", e.what());  // the next tick tries again
    }
    lock.lock();
  }
}

}  // namespace aev::audit
