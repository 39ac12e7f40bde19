#include "exports/destination_service.h"

#include <Poco/JSON/Array.h>

#include <agentevents/http_post.hpp>

#include <set>

#include "audit/audit_log.h"
#include "audit/changes.h"
#include "common/clock.h"
#include "events/event.h"
#include "exports/export_sender.h"

namespace aev::exports {

namespace {

const std::string kKind = "export";
const std::vector<std::string> kSignals = {"traces", "logs", "metrics"};
constexpr std::size_t kMaxHeaders = 32;

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
  return d;
}

std::vector<FieldError> DestinationService::check(std::int64_t orgId, const store::ExportDestinationRecord& d,
                                                  const DestinationInput& in) {
  std::vector<FieldError> out;
  if (in.name && (in.name->empty() || in.name->size() > 120))
    out.push_back({"body.name", "must be 1 to 120 characters", in.name->substr(0, 200)});
  if (in.kind && *in.kind != "otlp" && *in.kind != "http")
    out.push_back({"body.kind", "must be otlp or http", *in.kind});
  if (in.endpointUrl) {
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
      if (std::find(kSignals.begin(), kSignals.end(), s) == kSignals.end())
        out.push_back({"body.signals", "must be traces, logs or metrics", s});
      else if (component && !component->supportsSignal(signalOf(s)))
        out.push_back({"body.signals", "the " + d.kind + " exporter does not ship " + s, s});
    }
  }
  if ((in.kind || in.signals) && !pool_.component(d.kind))
    out.push_back({"body.kind", "no loaded exporter plugin provides " + d.kind, d.kind});
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
  auto out = check(orgId, merged(base, in), in);
  if (!id)
    for (const auto& [field, present] : std::vector<std::pair<std::string, bool>>{
             {"name", bool(in.name)}, {"endpointUrl", bool(in.endpointUrl)}, {"envSlug", bool(in.envSlug)},
             {"signals", bool(in.signals)}})
      if (!present) out.push_back({"body." + field, "is required", ""});
  return out;
}

namespace {

Poco::JSON::Array::Ptr listOf(const std::vector<std::string>& values) {
  Poco::JSON::Array::Ptr a = new Poco::JSON::Array;
  for (const auto& v : values) a->add(v);
  return a;
}

// What the audit log keeps of a destination: header names, never their values.
Poco::JSON::Object::Ptr snapshot(const store::ExportDestinationRecord& d) {
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
    audit_.record(c, orgId, actor, audit::Change::of("export_destination", "create", id, snapshot(d)));
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
    if (!d.active) messages_.dropTarget(c, orgId, kKind, id, false);
    audit_.record(c, orgId, actor,
                  audit::Change::of("export_destination", "update", id,
                                    audit::changes(*snapshot(current), *snapshot(d))));
  });
  pool_.forget(id);
  outbox_.invalidate();
  return d;
}

void DestinationService::remove(std::int64_t orgId, std::int64_t id, const audit::Actor& actor) {
  bool removed = db_.transaction([&](store::Connection& c) {
    auto destination = destinations_.find(c, orgId, id);
    if (!destination || !destinations_.remove(c, orgId, id)) return false;
    messages_.dropTarget(c, orgId, kKind, id, true);
    audit_.record(c, orgId, actor, audit::Change::of("export_destination", "delete", id, snapshot(*destination)));
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
  return messages_.attempts(*conn, orgId, kKind, id, limit, filter);
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

}  // namespace aev::exports
