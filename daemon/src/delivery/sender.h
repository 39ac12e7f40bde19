#pragma once
// What the delivery engine asks of each kind of target (webhooks, export destinations,
// later alert sinks): try one message once and say how it went. The engine owns the
// queue, the ordering, the retries, the leases and the attempt log.
#include <chrono>
#include <optional>
#include <string>

#include "store/outbox_repository.h"

namespace aev::delivery {

enum class Verdict {
  Delivered,  // done
  Retry,      // try again on the schedule (honouring retryAfter)
  Permanent,  // failed for good: no more attempts
  Cancelled,  // the target is gone or disabled: drop the message, record nothing
};

struct Outcome {
  Verdict verdict = Verdict::Retry;
  int statusCode = 0;        // HTTP status; 0 when there was no HTTP answer
  std::string responseBody;  // the receiver's answer, or the error when there was none
  std::optional<std::chrono::milliseconds> retryAfter;
  std::chrono::milliseconds elapsed{0};
};

class Sender {
 public:
  virtual ~Sender() = default;
  // Called on an engine worker thread; may block up to the outbound timeout. Exceptions
  // count as a retryable failure.
  virtual Outcome send(const store::OutboxMessage& message) = 0;
  // After the engine stored the outcome of an attempt that was not Cancelled (exhausted:
  // a Retry that had no attempts left and became final). Default: nothing.
  virtual void recorded(const store::OutboxMessage&, const Outcome&, bool /*exhausted*/) {}
};

}  // namespace aev::delivery
