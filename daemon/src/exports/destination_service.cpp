#include "exports/destination_service.h"

#include <Poco/JSON/Array.h>

#include <agentevents/http_post.hpp>

#include <set>

#include "audit/audit_log.h"
#include "audit/changes.h"
#include "common/clock.h"
#include "events/event.h"
#include "exports/export_sender.h"
#include "plugins/instance_config.h"

namespace aev::exports {

namespace {

const std::string kExportTargetKind = "export";
const std::vector<std::string> kExportSignals = {"traces", "logs", "metrics"};
constexpr std::size_t kMaxHeaders = 32;
constexpr std::size_t kMaxConfigBytes = 16384;

std::size_t toJsonSize(const Poco::JSON::Object& o) { return plugins::toJson(o).size(); }

std::vector<std::string> distinct(const std::vector<std::string>& values) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const auto& v : values)
    if (seen.insert(v).second) out.push_back(v);
  return out;
}

}  // namespace

store::ExportDestinationRecord DestinationService::merged(store::ExportDestinationRecord d,
                                                          const DestinationInput& in) const {
  if (in.name) d.name = *in.name;
  if (in.kind) d.kind = *in.kind;
  if (in.endpointUrl) d.endpointUrl = *in.endpointUrl;
  if (in.envSlug) d.envSlug = *in.envSlug;
  if (in.signals) d.signals = distinct(*in.signals);
  if (in.eventTypeFilter) {
    d.eventTypeFilter = *in.eventTypeFilter;
    if (d.eventTypeFilter) d.eventTypeFilter = distinct(*d.eventTypeFilter);
    if (d.eventTypeFilter && d.eventTypeFilter->empty()) d.eventTypeFilter.reset();  // [] reads as every type
  }
  if (in.headers) d.headers = *in.headers;
  if (in.serviceName) d.serviceName = *in.serviceName;
  if (in.encoding) d.encoding = *in.encoding;
  if (in.active) d.active = *in.active;
  if (in.config) {
    auto component = pool_.component(d.kind);
    d.config = plugins::sealConfig(
        **in.config, component ? plugins::secretKeysOf(component->info().configSchema) : std::set<std::string>{},
        pool_.secrets());
  }
  return d;
}

std::vector<FieldError> DestinationService::check(std::int64_t orgId, const store::ExportDestinationRecord& d,
                                                  const DestinationInput& in) {
  std::vector<FieldError> out;
  if (in.name && (in.name->empty() || in.name->size() > 120))
    out.push_back({"body.name", "must be 1 to 120 characters", in.name->substr(0, 200)});
  const auto kindComponent = pool_.component(d.kind);
  const auto required =
      kindComponent ? plugins::requiredKeysOf(kindComponent->info().configSchema) : std::set<std::string>{};
  if (in.endpointUrl && in.endpointUrl->empty() && !required.count("endpointUrl")) {
    // The kind has no use for a URL: "" leaves it unset.
  } else if (in.endpointUrl) {
    if (in.endpointUrl->empty() || in.endpointUrl->size() > 2048)
      out.push_back({"body.endpointUrl", "must be 1 to 2048 characters", in.endpointUrl->substr(0, 200)});
    else if (auto refused = outbound_.refuseUrl(*in.endpointUrl); !refused.empty())
      out.push_back({"body.endpointUrl", refused, *in.endpointUrl});
  }
  if (in.envSlug && *in.envSlug != "*") {
    auto conn = db_.acquire();
    if (!destinations_.environmentExists(*conn, orgId, *in.envSlug))
      out.push_back({"body.envSlug", "is not the slug of an environment of the organization (or *)", *in.envSlug});
  }
  if (in.signals) {
    if (in.signals->empty()) out.push_back({"body.signals", "must name at least one of traces, logs, metrics", "[]"});
    auto component = pool_.component(d.kind);
    for (const auto& s : *in.signals) {
      if (std::find(kExportSignals.begin(), kExportSignals.end(), s) == kExportSignals.end())
        out.push_back({"body.signals", "must be traces, logs or metrics", s});
      else if (component && !component->supportsSignal(signalOf(s)))
        out.push_back({"body.signals", "the " + d.kind + " exporter does not ship " + s, s});
    }
  }
  if ((in.kind || in.signals) && !kindComponent) {
    std::string loaded;
    for (const auto& k : pool_.kinds()) loaded += (loaded.empty() ? "" : ", ") + k;
    out.push_back({"body.kind", "no loaded exporter plugin provides " + d.kind + " (loaded: " + loaded + ")",
                   d.kind.substr(0, 200)});
  }
  if (in.kind && kindComponent && required.count("endpointUrl") && d.endpointUrl.empty() && !in.endpointUrl)
    out.push_back({"body.endpointUrl", "is required by the " + d.kind + " exporter", ""});
  if (in.config) {
    for (const auto& key : reservedConfigKeys())
      if ((*in.config)->has(key))
        out.push_back({"body.config." + key, "is set from the destination itself, not from config", ""});
    if (toJsonSize(**in.config) > kMaxConfigBytes)
      out.push_back({"body.config", "must be at most " + std::to_string(kMaxConfigBytes) + " bytes of JSON", ""});
  }
  if (in.eventTypeFilter && *in.eventTypeFilter)
    for (const auto& t : **in.eventTypeFilter)
      if (!events::isEventType(t))
        out.push_back({"body.eventTypeFilter", "is not an event type (docs/api.md#events)", t});
  if (in.headers) {
    if (in.headers->size() > kMaxHeaders) out.push_back({"body.headers", "at most 32 headers", ""});
    for (const auto& [name, value] : *in.headers)
      if (auto problem = http::checkHeader(name, value); !problem.empty() || value.size() > 8192)
        out.push_back({"body.headers." + name, problem.empty() ? "value longer than 8192 bytes" : problem, ""});
  }
  if (in.serviceName && *in.serviceName && (*in.serviceName)->size() > 200)
    out.push_back({"body.serviceName", "must be at most 200 characters", (*in.serviceName)->substr(0, 200)});
  if (in.encoding && *in.encoding != "protobuf" && *in.encoding != "json")
    out.push_back({"body.encoding", "must be protobuf or json", *in.encoding});
  return out;
}

std::vector<FieldError> DestinationService::problems(std::int64_t orgId, std::optional<std::int64_t> id,
                                                     const DestinationInput& in) {
  store::ExportDestinationRecord base;
  base.kind = "otlp";
  base.encoding = "protobuf";
  if (id) {
    auto conn = db_.acquire();
    if (auto found = destinations_.find(*conn, orgId, *id)) base = *found;
  }
  const auto d = merged(base, in);
  auto out = check(orgId, d, in);
  const auto component = pool_.component(d.kind);
  const bool needsUrl = !component || plugins::requiredKeysOf(component->info().configSchema).count("endpointUrl");
  if (!id)
    for (const auto& [field, present] :
         std::vector<std::pair<std::string, bool>>{{"name", bool(in.name)},
                                                   {"endpointUrl", bool(in.endpointUrl) || !needsUrl},
                                                   {"envSlug", bool(in.envSlug)},
                                                   {"signals", bool(in.signals)}})
      if (!present &&
          std::none_of(out.begin(), out.end(), [&](const FieldError& e) { return e.location == "body." + field; }))
        out.push_back({"body." + field, "is required", ""});
  if (out.empty() && component &&
      (in.config || in.kind || in.endpointUrl || in.headers || in.serviceName || in.encoding || !id)) {
    // The exporter checks its own configuration: opening an instance is what delivery does,
    // so a refusal now is a 422 with the plugin's message rather than failed batches later.
    try {
      component->open(pool_.configJson(d));
    } catch (const plugins::PluginError& e) {
      out.push_back({"body.config", e.what(), ""});
    } catch (const std::exception& e) {
      out.push_back({"body.config", std::string("could not be opened: ") + e.what(), ""});
    }
  }
  return out;
}

namespace {

Poco::JSON::Array::Ptr listOf(const std::vector<std::string>& values) {
  Poco::JSON::Array::Ptr a = new Poco::JSON::Array;
  for (const auto& v : values) a->add(v);
  return a;
}

// What the audit log keeps of a destination: header names, never their values.
Poco::JSON::Object::Ptr destinationSnapshot(const store::ExportDestinationRecord& d) {
  std::vector<std::string> headerKeys;
  for (const auto& [name, _] : d.headers) headerKeys.push_back(name);
  return audit::metadata(
      {{"name", d.name},
       {"kind", d.kind},
       {"endpointUrl", d.endpointUrl},
       {"envSlug", d.envSlug},
       {"signals", listOf(d.signals)},
       {"eventTypeFilter", d.eventTypeFilter ? Poco::Dynamic::Var(listOf(*d.eventTypeFilter)) : Poco::Dynamic::Var()},
       {"headerKeys", listOf(headerKeys)},
       {"serviceName", d.serviceName ? Poco::Dynamic::Var(*d.serviceName) : Poco::Dynamic::Var()},
       {"encoding", d.encoding},
       {"config", plugins::publicConfig(d.config)},
       {"secretConfigKeys", listOf(plugins::sealedKeys(d.config))},
       {"active", d.active}});
}

}  // namespace

store::ExportDestinationRecord DestinationService::create(std::int64_t orgId, const DestinationInput& in,
                                                          const audit::Actor& actor) {
  if (auto found = problems(orgId, std::nullopt, in); !found.empty()) throw errors::validation(std::move(found));
  store::ExportDestinationRecord base;
  base.kind = "otlp";
  base.encoding = "protobuf";
  auto d = merged(base, in);
  d.orgId = orgId;
  d.createdAt = d.updatedAt = clock::nowMicros();
  d.id = db_.transaction([&](store::Connection& c) {
    const auto id = destinations_.insert(c, d);
    audit_.record(c, orgId, actor, audit::Change::of("export_destination", "create", id, destinationSnapshot(d)));
    return id;
  });
  outbox_.invalidate();
  return d;
}

std::vector<store::ExportDestinationRecord> DestinationService::list(std::int64_t orgId) {
  auto conn = db_.acquire();
  return destinations_.list(*conn, orgId);
}

store::ExportDestinationRecord DestinationService::get(std::int64_t orgId, std::int64_t id) {
  auto conn = db_.acquire();
  auto found = destinations_.find(*conn, orgId, id);
  if (!found) throw errors::notFound("Export destination");
  return *found;
}

store::ExportDestinationRecord DestinationService::update(std::int64_t orgId, std::int64_t id,
                                                          const DestinationInput& in, const audit::Actor& actor) {
  auto current = get(orgId, id);
  if (auto found = problems(orgId, id, in); !found.empty()) throw errors::validation(std::move(found));
  auto d = merged(current, in);
  d.updatedAt = std::max(clock::nowMicros(), current.updatedAt + 1);  // a changed record reopens its exporter
  db_.transaction([&](store::Connection& c) {
    destinations_.update(c, d);
    if (!d.active) messages_.dropTarget(c, orgId, kExportTargetKind, id, false);
    audit_.record(c, orgId, actor,
                  audit::Change::of("export_destination", "update", id,
                                    audit::changes(*destinationSnapshot(current), *destinationSnapshot(d))));
  });
  pool_.forget(id);
  outbox_.invalidate();
  return d;
}

void DestinationService::remove(std::int64_t orgId, std::int64_t id, const audit::Actor& actor) {
  bool removed = db_.transaction([&](store::Connection& c) {
    auto destination = destinations_.find(c, orgId, id);
    if (!destination || !destinations_.remove(c, orgId, id)) return false;
    messages_.dropTarget(c, orgId, kExportTargetKind, id, true);
    audit_.record(c, orgId, actor,
                  audit::Change::of("export_destination", "delete", id, destinationSnapshot(*destination)));
    return true;
  });
  if (!removed) throw errors::notFound("Export destination");
  pool_.forget(id);
  outbox_.invalidate();
}

std::vector<store::DeliveryAttemptRecord> DestinationService::deliveries(std::int64_t orgId, std::int64_t id,
                                                                         std::int64_t limit,
                                                                         const store::AttemptFilter& filter) {
  get(orgId, id);
  auto conn = db_.acquire();
  return messages_.attempts(*conn, orgId, kExportTargetKind, id, limit, filter);
}

store::ExportHealthRecord DestinationService::health(std::int64_t orgId, std::int64_t id) {
  auto conn = db_.acquire();
  return destinations_.health(*conn, orgId, id);
}

std::int64_t DestinationService::redeliver(std::int64_t orgId, std::int64_t id, std::optional<std::int64_t> deliveryId,
                                           std::int64_t from, std::int64_t to, const audit::Actor& actor) {
  auto d = get(orgId, id);
  if (!d.active)
    throw errors::conflict("The export destination is inactive; activate it (PATCH active: true) to redeliver.");
  const auto queued = db_.transaction([&](store::Connection& c) {
    auto batches = destinations_.givenUp(c, orgId, id, deliveryId, from, to, 1000);
    if (deliveryId && batches.empty()) throw errors::notFound("Given-up batch");
    const auto now = clock::nowMicros();
    // The same message id, so the attempts of a redelivery read as the same batch.
    for (const auto& b : batches)
      messages_.enqueue(c, orgId, kExportTargetKind, id, b.eventId, b.messageId, std::nullopt, now);
    Poco::JSON::Array::Ptr messageIds = new Poco::JSON::Array;
    for (const auto& b : batches) messageIds->add(b.messageId);
    audit_.record(c, orgId, actor,
                  audit::Change::of("export_destination", "redeliver", id,
                                    audit::metadata({{"batches", static_cast<std::int64_t>(batches.size())},
                                                     {"messageIds", messageIds}})));
    return static_cast<std::int64_t>(batches.size());
  });
  if (queued > 0) outbox_.wake();
  return queued;
}

std::vector<plugins::ComponentInfo> DestinationService::kinds() const {
  std::vector<plugins::ComponentInfo> out;
  for (const auto& name : pool_.kinds()) out.push_back(pool_.component(name)->info());
  return out;
}

TestResult DestinationService::test(std::int64_t orgId, std::int64_t id) {
  auto d = get(orgId, id);
  // One synthetic event, marked as a test, through the same exporter and settings.
  store::StoredEvent e;
  e.id = 0;
  e.orgId = orgId;
  e.identifier = "agent-events.export-test";
  e.payloadJson = R"({"test":true})";
  e.eventType = "custom";
  e.metadataJson = R"({"agent_events.test":true})";
  e.receivedAt = clock::nowMicros();
  e.source = "api";
  auto outcome = ExportSender::exportTo(pool_, d, "[" + events::toPluginJson(e) + "]", 1);
  TestResult r;
  r.ok = outcome.verdict == delivery::Verdict::Delivered;
  r.statusCode = outcome.statusCode;
  r.responseBody = outcome.responseBody.substr(0, 4096);
  r.durationMs = outcome.elapsed.count();
  return r;
}

std::map<std::int64_t, store::DeliveryHealth24h> DestinationService::health24h(std::int64_t orgId,
                                                                               std::optional<std::int64_t> id) {
  auto conn = db_.acquire();
  return store::DeliveryHealthRepository().since(*conn, orgId, kExportTargetKind, clock::nowMicros() - clock::kDay, id);
}

}  // namespace aev::exports
