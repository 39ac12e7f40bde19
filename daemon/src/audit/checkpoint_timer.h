#pragma once
// Signs checkpoints of every organization's audit head every audit.checkpoint_interval
// seconds, so truncation or a rewrite is caught even if nobody called verify since the
// entries were written. Several nodes may run it: a second signature of the same seq is
// ignored.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace aev::audit {

class AuditLog;

class CheckpointTimer {
 public:
  CheckpointTimer(AuditLog& log, std::chrono::seconds interval) : log_(log), interval_(interval) {}
  ~CheckpointTimer() { stop(); }
  void start();
  void stop();

 private:
  void run();
  AuditLog& log_;
  std::chrono::seconds interval_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace aev::audit
