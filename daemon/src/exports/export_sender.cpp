#include "exports/export_sender.h"

#include <spdlog/spdlog.h>

#include "common/metrics.h"
#include "events/event.h"

namespace aev::exports {

aev_signal signalOf(const std::string& name) {
  if (name == "traces") return AEV_SIGNAL_TRACES;
  if (name == "logs") return AEV_SIGNAL_LOGS;
  if (name == "metrics") return AEV_SIGNAL_METRICS;
  return static_cast<aev_signal>(0);
}

delivery::Outcome ExportSender::exportTo(ExporterPool& pool, const store::ExportDestinationRecord& d,
                                         const std::string& eventsJson, std::uint64_t count) {
  delivery::Outcome out;
  std::shared_ptr<plugins::ExporterInstance> instance;
  try {
    instance = pool.instanceFor(d);
  } catch (const plugins::PluginError& e) {
    out.verdict = delivery::Verdict::Permanent;
    out.responseBody = std::string("exporter refused the destination's configuration: ") + e.what();
    return out;
  }
  out.verdict = delivery::Verdict::Delivered;
  for (const auto& name : d.signals) {
    auto result = instance->exportBatch(signalOf(name), eventsJson, count, pool.timeout());
    out.elapsed += std::chrono::duration_cast<std::chrono::milliseconds>(result.elapsed);
    out.statusCode = result.responseStatus;
    out.responseBody = result.responseBody.empty() ? result.error : result.responseBody;
    if (result.ok()) continue;
    out.verdict = result.retryable() ? delivery::Verdict::Retry : delivery::Verdict::Permanent;
    out.retryAfter = result.retryAfter;
    if (out.responseBody.empty()) out.responseBody = std::string(plugins::statusName(result.status));
    out.responseBody = name + ": " + out.responseBody;
    return out;
  }
  return out;
}

void ExportSender::recorded(const store::OutboxMessage& m, const delivery::Outcome& outcome, bool exhausted) {
  if (outcome.verdict != delivery::Verdict::Permanent && !exhausted) return;
  Metrics::instance()
      .counter("agent_events_export_batches_given_up_total",
               "Export batches given up after their last retry (or failed for good); redeliver with POST "
               "/export-destinations/{id}/redeliver")
      .fetch_add(1, std::memory_order_relaxed);
  spdlog::error("export destination {} of organization {}: batch {} (head event {}) given up after {} attempt(s){}: {}",
                m.targetId, m.orgId, m.messageId, m.eventId ? std::to_string(*m.eventId) : "-", m.attempt,
                exhausted ? ", retries exhausted" : "", outcome.responseBody.substr(0, 500));
}

delivery::Outcome ExportSender::send(const store::OutboxMessage& m) {
  delivery::Outcome out;
  std::optional<store::ExportDestinationRecord> d;
  std::vector<std::int64_t> batchMessages;
  std::string json = "[";
  std::uint64_t count = 0;
  {
    auto conn = db_.acquire();
    d = destinations_.find(*conn, m.orgId, m.targetId);
    if (!d || !d->active) {
      out.verdict = delivery::Verdict::Cancelled;
      return out;
    }
    auto add = [&](std::int64_t eventId) {
      // An event gone meanwhile (retention) is skipped, not retried forever.
      if (auto e = events_.find(*conn, m.orgId, eventId)) {
        json += (count == 0 ? "" : ",") + events::toPluginJson(*e);
        ++count;
      }
    };
    if (m.eventId) add(*m.eventId);
    for (const auto& [outboxId, eventId] : destinations_.followers(*conn, m.orgId, m.targetId, m.id, maxBatch_ - 1)) {
      batchMessages.push_back(outboxId);
      add(eventId);
    }
  }
  json += "]";
  if (count == 0) {
    out.verdict = delivery::Verdict::Permanent;
    out.responseBody = "the batch's events are no longer stored (retention or deletion)";
  } else {
    out = exportTo(pool_, *d, json, count);
  }
  if (out.verdict == delivery::Verdict::Delivered || (count == 0 && !batchMessages.empty()))
    db_.transaction([&](store::Connection& c) { destinations_.deleteMessages(c, m.orgId, batchMessages); });
  if (out.verdict == delivery::Verdict::Delivered)
    out.responseBody = std::to_string(count) + " events: " + out.responseBody;
  return out;
}

}  // namespace aev::exports
