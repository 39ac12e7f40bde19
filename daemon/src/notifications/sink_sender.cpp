#include "notifications/sink_sender.h"

#include <spdlog/spdlog.h>

#include "plugins/instance_config.h"

namespace aev::notifications {

std::shared_ptr<plugins::AlertSinkInstance> SinkSender::instanceFor(const SinkMessage& m) {
  const auto opened = secrets_ ? plugins::toJson(*plugins::openConfig(m.config, *secrets_)) : m.config;
  const auto config = sinkConfig(m.destination, allowPrivate_, opened);
  const auto key = m.sink + "\n" + config;
  std::lock_guard lock(mutex_);
  if (auto it = open_.find(key); it != open_.end()) return it->second;
  auto component = registry_ ? registry_->alertSink(m.sink) : nullptr;
  if (!component) throw plugins::PluginError(AEV_ERR_NOT_FOUND, "no loaded alert sink is named " + m.sink);
  if (open_.size() >= 1000) open_.clear();  // a bound: destinations change rarely
  auto instance = component->open(config);
  open_[key] = instance;
  return instance;
}

delivery::Outcome SinkSender::send(const store::OutboxMessage& message) {
  delivery::Outcome out;
  auto m = decode(message.payload.value_or(""));
  if (!m) {
    out.verdict = delivery::Verdict::Permanent;
    out.responseBody = "the notification in the outbox is not readable";
    return out;
  }
  std::shared_ptr<plugins::AlertSinkInstance> instance;
  try {
    instance = instanceFor(*m);
  } catch (const std::exception& e) {  // refused, or a sealed key that does not open
    out.verdict = delivery::Verdict::Permanent;
    out.responseBody = std::string("alert sink ") + m->sink + ": " + e.what();
    return out;
  }
  const auto result = instance->deliver(m->alertJson, timeout_);
  out.statusCode = result.responseStatus;
  out.responseBody = result.responseBody.empty() ? result.error : result.responseBody;
  out.retryAfter = result.retryAfter;
  out.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(result.elapsed);
  out.verdict = result.ok()          ? delivery::Verdict::Delivered
                : result.retryable() ? delivery::Verdict::Retry
                                     : delivery::Verdict::Permanent;
  return out;
}

void SinkSender::recorded(const store::OutboxMessage& message, const delivery::Outcome& outcome, bool) {
  if (outcome.verdict != delivery::Verdict::Delivered || !onDelivered_) return;
  if (auto m = decode(message.payload.value_or(""))) {
    try {
      onDelivered_(message, *m);
    } catch (const std::exception& e) {
      spdlog::warn("notification {} delivered but not marked: {}", message.messageId, e.what());
    }
  }
}

}  // namespace aev::notifications
