#pragma once
// Export destinations (docs/features.md#export-destinations): CRUD, the attempt log, and
// a test call that sends one synthetic event through the destination's exporter now.
// Header values are write-only: stored for the exporter, listed as headerKeys. No HTTP
// types.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "audit/actor.h"
#include "common/errors.h"
#include "delivery/outbound_http.h"
#include "delivery/sender.h"
#include "exports/export_outbox.h"
#include "exports/exporter_pool.h"
#include "store/database.h"
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
