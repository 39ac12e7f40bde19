#pragma once
// Delivers an export destination's queued events in batches: the head message the
// engine claimed plus up to maxBatch − 1 pending messages behind it (nobody else can
// claim those while the head is pending), as one JSON array of stored events handed to
// the destination's exporter plugin once per signal. The plugin encodes and POSTs; its
// OK / RETRY / PERMANENT decides the outcome. On success the batch's other messages
// are removed with it; on failure they stay queued behind the head.
#include <cstdint>

#include "delivery/sender.h"
#include "exports/exporter_pool.h"
#include "store/database.h"
#include "store/event_repository.h"
#include "store/export_destination_repository.h"

namespace aev::exports {

// "traces" → AEV_SIGNAL_TRACES, ...; 0 when unknown.
aev_signal signalOf(const std::string& name);

class ExportSender : public delivery::Sender {
 public:
  ExportSender(store::Database& db, ExporterPool& pool, std::int64_t maxBatch)
      : db_(db), pool_(pool), maxBatch_(maxBatch) {}

  delivery::Outcome send(const store::OutboxMessage& message) override;
  // A batch failed for good (permanent, or out of retries): an error line naming the
  // destination, the batch and the reason, and agent_events_export_batches_given_up_total.
  void recorded(const store::OutboxMessage& message, const delivery::Outcome& outcome, bool exhausted) override;

  // One batch to a destination, every signal; used by send and by the test call.
  static delivery::Outcome exportTo(ExporterPool& pool, const store::ExportDestinationRecord& d,
                                    const std::string& eventsJson, std::uint64_t count);

 private:
  store::Database& db_;
  ExporterPool& pool_;
  std::int64_t maxBatch_;
  store::ExportDestinationRepository destinations_;
  store::EventRepository events_;
};

}  // namespace aev::exports
