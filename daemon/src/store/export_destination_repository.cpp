#include "store/export_destination_repository.h"

#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>

#include <sstream>

namespace aev::store {

namespace {

const char* const kDestinationColumns =
    "id, org_id, name, kind, endpoint_url, env_slug, signals, event_type_filter, headers, service_name, encoding, "
    "active, config, created_at, updated_at";

std::string headersJson(const std::map<std::string, std::string>& headers) {
  Poco::JSON::Object obj;
  for (const auto& [k, v] : headers) obj.set(k, v);
  std::ostringstream out;
  obj.stringify(out);
  return out.str();
}

std::map<std::string, std::string> parseHeaders(const std::string& text) {
  std::map<std::string, std::string> out;
  if (text.empty()) return out;
  auto obj = Poco::JSON::Parser().parse(text).extract<Poco::JSON::Object::Ptr>();
  for (const auto& [k, v] : *obj) out[k] = v.convert<std::string>();
  return out;
}

ExportDestinationRecord destinationFromRow(const Row& r) {
  ExportDestinationRecord d;
  d.id = r.i64("id");
  d.orgId = r.i64("org_id");
  d.name = r.str("name");
  d.kind = r.str("kind");
  d.endpointUrl = r.str("endpoint_url");
  d.envSlug = r.str("env_slug");
  d.signals = splitDelimited(r.str("signals"));
  if (auto f = r.optStr("event_type_filter")) d.eventTypeFilter = splitDelimited(*f);
  d.headers = parseHeaders(r.str("headers"));
  d.serviceName = r.optStr("service_name");
  d.encoding = r.str("encoding");
  d.active = r.boolean("active");
  d.config = r.str("config");
  d.createdAt = r.i64("created_at");
  d.updatedAt = r.i64("updated_at");
  return d;
}

std::optional<std::string> filterText(const std::optional<std::vector<std::string>>& f) {
  if (!f || f->empty()) return std::nullopt;
  return joinDelimited(*f);
}

}  // namespace

std::string joinDelimited(const std::vector<std::string>& values) {
  std::string out = ",";
  for (const auto& v : values) out += v + ",";
  return out;
}

std::vector<std::string> splitDelimited(const std::string& text) {
  std::vector<std::string> out;
  std::string current;
  for (char ch : text) {
    if (ch == ',') {
      if (!current.empty()) out.push_back(current);
      current.clear();
    } else {
      current += ch;
    }
  }
  if (!current.empty()) out.push_back(current);
  return out;
}

std::int64_t ExportDestinationRepository::insert(Connection& c, const ExportDestinationRecord& d) {
  return c.insert(
      "INSERT INTO export_destinations (org_id, name, kind, endpoint_url, env_slug, signals, event_type_filter, "
      "headers, service_name, encoding, active, config, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
      "?, "
      "?, ?, ?) "
      "RETURNING id",
      {d.orgId, d.name, d.kind, d.endpointUrl, d.envSlug, joinDelimited(d.signals),
       optionalValue(filterText(d.eventTypeFilter)), headersJson(d.headers), optionalValue(d.serviceName), d.encoding,
       std::int64_t{d.active ? 1 : 0}, d.config, d.createdAt, d.updatedAt});
}

void ExportDestinationRepository::update(Connection& c, const ExportDestinationRecord& d) {
  c.exec(
      "UPDATE export_destinations SET name = ?, kind = ?, endpoint_url = ?, env_slug = ?, signals = ?, "
      "event_type_filter = ?, headers = ?, service_name = ?, encoding = ?, active = ?, config = ?, updated_at = ? "
      "WHERE org_id = ? AND id = ?",
      {d.name, d.kind, d.endpointUrl, d.envSlug, joinDelimited(d.signals), optionalValue(filterText(d.eventTypeFilter)),
       headersJson(d.headers), optionalValue(d.serviceName), d.encoding, std::int64_t{d.active ? 1 : 0}, d.config,
       d.updatedAt, d.orgId, d.id});
}

std::optional<ExportDestinationRecord> ExportDestinationRepository::find(Connection& c, std::int64_t orgId,
                                                                         std::int64_t id) {
  auto rows =
      c.query(std::string("SELECT ") + kDestinationColumns + " FROM export_destinations WHERE org_id = ? AND id = ?",
              {orgId, id});
  if (rows.empty()) return std::nullopt;
  return destinationFromRow(rows.front());
}

std::vector<ExportDestinationRecord> ExportDestinationRepository::list(Connection& c, std::int64_t orgId) {
  std::vector<ExportDestinationRecord> out;
  for (const auto& r :
       c.query(std::string("SELECT ") + kDestinationColumns + " FROM export_destinations WHERE org_id = ? ORDER BY id",
               {orgId}))
    out.push_back(destinationFromRow(r));
  return out;
}

bool ExportDestinationRepository::remove(Connection& c, std::int64_t orgId, std::int64_t id) {
  return c.exec("DELETE FROM export_destinations WHERE org_id = ? AND id = ?", {orgId, id}) > 0;
}

bool ExportDestinationRepository::environmentExists(Connection& c, std::int64_t orgId, const std::string& slug) {
  return !c.query("SELECT id FROM environments WHERE org_id = ? AND slug = ?", {orgId, slug}).empty();
}

namespace {

// A failed attempt whose message has had no later attempt and is not queued again.
constexpr const char* kGivenUp =
    "FROM delivery_attempts a WHERE a.org_id = ? AND a.target_kind = 'export' AND a.target_id = ? AND "
    "a.outcome = 'failed' AND a.event_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM delivery_attempts b WHERE "
    "b.target_kind = 'export' AND b.target_id = a.target_id AND b.message_id = a.message_id AND b.id > a.id) AND "
    "NOT EXISTS (SELECT 1 FROM delivery_outbox o WHERE o.org_id = a.org_id AND o.target_kind = 'export' AND "
    "o.target_id = a.target_id AND o.message_id = a.message_id)";

}  // namespace

ExportHealthRecord ExportDestinationRepository::health(Connection& c, std::int64_t orgId, std::int64_t destinationId) {
  ExportHealthRecord h;
  const Params ids = {orgId, destinationId};
  auto delivered = c.query(
      "SELECT MAX(id) AS id, MAX(created_at) AS at FROM delivery_attempts WHERE org_id = ? AND target_kind = 'export' "
      "AND target_id = ? AND outcome = 'delivered'",
      ids);
  const auto lastDeliveredId = delivered.front().optI64("id").value_or(0);
  h.lastSuccessAt = delivered.front().optI64("at");
  auto failure = c.query(
      "SELECT created_at, response_body FROM delivery_attempts WHERE org_id = ? AND target_kind = 'export' AND "
      "target_id = ? AND outcome <> 'delivered' ORDER BY id DESC LIMIT 1",
      ids);
  if (!failure.empty()) {
    h.lastFailureAt = failure.front().i64("created_at");
    h.lastFailureReason = failure.front().str("response_body");
  }
  h.consecutiveFailures =
      c.query(
           "SELECT COUNT(*) AS n FROM delivery_attempts WHERE org_id = ? AND target_kind = 'export' AND "
           "target_id = ? AND outcome <> 'delivered' AND id > ?",
           {orgId, destinationId, lastDeliveredId})
          .front()
          .i64("n");
  auto last = c.query(
      "SELECT outcome FROM delivery_attempts WHERE org_id = ? AND target_kind = 'export' AND target_id = ? "
      "ORDER BY id DESC LIMIT 1",
      ids);
  if (!last.empty()) h.lastOutcome = last.front().str("outcome");
  h.givenUpBatches = c.query(std::string("SELECT COUNT(*) AS n ") + kGivenUp, ids).front().i64("n");
  h.pending = c.query(
                   "SELECT COUNT(*) AS n FROM delivery_outbox WHERE org_id = ? AND target_kind = 'export' AND "
                   "target_id = ?",
                   ids)
                  .front()
                  .i64("n");
  return h;
}

std::vector<GivenUpBatch> ExportDestinationRepository::givenUp(Connection& c, std::int64_t orgId,
                                                               std::int64_t destinationId,
                                                               std::optional<std::int64_t> deliveryId,
                                                               std::int64_t from, std::int64_t to, std::int64_t limit) {
  const std::string select = std::string("SELECT a.id, a.event_id, a.message_id, a.created_at ") + kGivenUp;
  auto rows = deliveryId
                  ? c.query(select + " AND a.id = ? ORDER BY a.id LIMIT ?", {orgId, destinationId, *deliveryId, limit})
                  : c.query(select + " AND a.created_at >= ? AND a.created_at < ? ORDER BY a.id LIMIT ?",
                            {orgId, destinationId, from, to, limit});
  std::vector<GivenUpBatch> out;
  for (const auto& r : rows) out.push_back({r.i64("id"), r.i64("event_id"), r.str("message_id"), r.i64("created_at")});
  return out;
}

std::vector<std::int64_t> ExportDestinationRepository::orgsWithDestinations(Connection& c) {
  std::vector<std::int64_t> out;
  for (const auto& r : c.query("SELECT DISTINCT org_id FROM export_destinations WHERE active = 1"))
    out.push_back(r.i64("org_id"));
  return out;
}

std::size_t ExportDestinationRepository::enqueueEvents(Connection& c, std::int64_t channelId, std::int64_t fromSeq,
                                                       std::int64_t toSeq, std::int64_t now) {
  // seq, not id: the writer's transaction holds the channel row's lock (see
  // WebhookRepository::enqueueEvents). The environment is the event's telemetry
  // environment (docs/features.md#telemetry-fields), matched to the destination's envSlug.
  return c.exec(
      "INSERT INTO delivery_outbox (org_id, target_kind, target_id, event_id, state, attempts, next_attempt_at, "
      "created_at, updated_at) SELECT e.org_id, 'export', d.id, e.id, 'pending', 0, ?, ?, ? FROM events e JOIN "
      "export_destinations d ON d.org_id = e.org_id AND d.active = 1 WHERE e.channel_id = ? AND e.seq >= ? AND "
      "e.seq <= ? AND (d.env_slug = '*' OR d.env_slug = e.environment) AND (d.event_type_filter IS NULL OR "
      "d.event_type_filter LIKE '%,' || COALESCE(e.event_type, 'custom') || ',%') ORDER BY e.seq, d.id",
      {now, now, now, channelId, fromSeq, toSeq});
}

std::vector<std::pair<std::int64_t, std::int64_t>> ExportDestinationRepository::followers(
    Connection& c, std::int64_t orgId, std::int64_t destinationId, std::int64_t afterOutboxId, std::int64_t limit) {
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  for (const auto& r : c.query(
           "SELECT id, event_id FROM delivery_outbox WHERE org_id = ? AND target_kind = 'export' AND target_id = ? AND "
           "state = 'pending' AND id > ? AND event_id IS NOT NULL ORDER BY id LIMIT ?",
           {orgId, destinationId, afterOutboxId, limit}))
    out.emplace_back(r.i64("id"), r.i64("event_id"));
  return out;
}

void ExportDestinationRepository::deleteMessages(Connection& c, std::int64_t orgId,
                                                 const std::vector<std::int64_t>& outboxIds) {
  for (auto id : outboxIds)
    c.exec("DELETE FROM delivery_outbox WHERE org_id = ? AND id = ? AND target_kind = 'export'", {orgId, id});
}

}  // namespace aev::store
