#pragma once
// Export destinations (docs/features.md#export-destinations): CRUD, the attempt log, and
// a test call that sends one synthetic event through the destination's exporter now.
// A destination's kind is any loaded exporter component; its own fields are required only
// where that exporter's configuration schema says so (endpointUrl for otlp and http), and
// its `config` object is checked by the exporter itself (opening an instance) on create
// and update. Header values and secret config keys are write-only: stored (secrets
// sealed) for the exporter, listed as headerKeys / secretConfigKeys. No HTTP types.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <Poco/JSON/Object.h>

#include "audit/actor.h"
#include "common/errors.h"
#include "delivery/outbound_http.h"
#include "delivery/sender.h"
#include "exports/export_outbox.h"
#include "exports/exporter_pool.h"
#include "store/database.h"
#include "store/delivery_health_repository.h"
#include "store/export_destination_repository.h"
#include "store/outbox_repository.h"

namespace aev::audit {
class AuditLog;
}

namespace aev::exports {

// A create or PATCH body, type-checked; absent fields keep their value on PATCH.
struct DestinationInput {
  std::optional<std::string> name;
  std::optional<std::string> kind;
  std::optional<std::string> endpointUrl;
  std::optional<std::string> envSlug;
  std::optional<std::vector<std::string>> signals;
  std::optional<std::optional<std::vector<std::string>>> eventTypeFilter;  // null: every type
  std::optional<std::map<std::string, std::string>> headers;               // replaces all headers
  std::optional<std::optional<std::string>> serviceName;
  std::optional<std::string> encoding;
  std::optional<bool> active;
  std::optional<Poco::JSON::Object::Ptr> config;  // replaces the whole object (secret keys included)
};

struct TestResult {
  bool ok = false;
  int statusCode = 0;
  std::string responseBody;
  std::int64_t durationMs = 0;
};

class DestinationService {
 public:
  DestinationService(store::Database& db, audit::AuditLog& audit, const delivery::OutboundHttp& outbound,
                     ExporterPool& pool, ExportOutbox& outbox)
      : db_(db), audit_(audit), outbound_(outbound), pool_(pool), outbox_(outbox) {}

  // The value problems of a create (id absent) or update of `input`, saving nothing.
  std::vector<FieldError> problems(std::int64_t orgId, std::optional<std::int64_t> id, const DestinationInput& input);
  store::ExportDestinationRecord create(std::int64_t orgId, const DestinationInput& input, const audit::Actor& actor);
  std::vector<store::ExportDestinationRecord> list(std::int64_t orgId);
  store::ExportDestinationRecord get(std::int64_t orgId, std::int64_t id);
  store::ExportDestinationRecord update(std::int64_t orgId, std::int64_t id, const DestinationInput& input,
                                        const audit::Actor& actor);
  void remove(std::int64_t orgId, std::int64_t id, const audit::Actor& actor);
  std::vector<store::DeliveryAttemptRecord> deliveries(std::int64_t orgId, std::int64_t id, std::int64_t limit,
                                                       const store::AttemptFilter& filter = {});
  TestResult test(std::int64_t orgId, std::int64_t id);
  store::ExportHealthRecord health(std::int64_t orgId, std::int64_t id);
  // health24h of the organization's destinations (only `id` when given): one grouped read for a
  // whole list; a destination without an attempt in the last 24 h is absent.
  std::map<std::int64_t, store::DeliveryHealth24h> health24h(std::int64_t orgId,
                                                             std::optional<std::int64_t> id = std::nullopt);
  // Queues the given-up batches of a destination again: the one of `deliveryId`, or those
  // given up in [from, to) (at most 1000). Returns how many; 0 is not an error. 404 for
  // a deliveryId that is not a given-up batch of this destination; 409 when inactive.
  std::int64_t redeliver(std::int64_t orgId, std::int64_t id, std::optional<std::int64_t> deliveryId, std::int64_t from,
                         std::int64_t to, const audit::Actor& actor);
  // The kinds a destination may have: every loaded exporter component.
  std::vector<plugins::ComponentInfo> kinds() const;

 private:
  // Field problems of a complete record (after defaults or the PATCH are applied).
  std::vector<FieldError> check(std::int64_t orgId, const store::ExportDestinationRecord& d,
                                const DestinationInput& input);
  store::ExportDestinationRecord merged(store::ExportDestinationRecord d, const DestinationInput& input) const;

  store::Database& db_;
  audit::AuditLog& audit_;
  const delivery::OutboundHttp& outbound_;
  ExporterPool& pool_;
  ExportOutbox& outbox_;
  store::ExportDestinationRepository destinations_;
  store::OutboxRepository messages_;
};

}  // namespace aev::exports
