#include "store/webhook_repository.h"

namespace aev::store {

namespace {

const char* const kEndpointColumns =
    "id, org_id, channel_id, url, secret, event_types, description, active, failing_since, disabled_at, "
    "disabled_reason, created_at, updated_at";

// ",a,b," ↔ {a, b}: the delimiters on both ends let one LIKE '%,type,%' match a type.
std::optional<std::string> encodeTypes(const std::optional<std::vector<std::string>>& types) {
  if (!types) return std::nullopt;
  std::string out = ",";
  for (const auto& t : *types) out += t + ",";
  return out;
}

std::optional<std::vector<std::string>> decodeTypes(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  std::vector<std::string> out;
  std::string current;
  for (char ch : *text) {
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

WebhookEndpointRecord endpointFromRow(const Row& r) {
  WebhookEndpointRecord e;
  e.id = r.i64("id");
  e.orgId = r.i64("org_id");
  e.channelId = r.i64("channel_id");
  e.url = r.str("url");
  e.secret = r.str("secret");
  e.eventTypes = decodeTypes(r.optStr("event_types"));
  e.description = r.str("description");
  e.active = r.boolean("active");
  e.failingSince = r.optI64("failing_since");
  e.disabledAt = r.optI64("disabled_at");
  e.disabledReason = r.optStr("disabled_reason");
  e.createdAt = r.i64("created_at");
  e.updatedAt = r.i64("updated_at");
  return e;
}

}  // namespace

std::int64_t WebhookRepository::insert(Connection& c, const WebhookEndpointRecord& e) {
  return c.insert(
      "INSERT INTO webhook_endpoints (org_id, channel_id, url, secret, event_types, description, active, created_at, "
      "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
      {e.orgId, e.channelId, e.url, e.secret, optionalValue(encodeTypes(e.eventTypes)), e.description,
       std::int64_t{e.active ? 1 : 0}, e.createdAt, e.updatedAt});
}

void WebhookRepository::update(Connection& c, const WebhookEndpointRecord& e) {
  c.exec(
      "UPDATE webhook_endpoints SET url = ?, event_types = ?, description = ?, active = ?, failing_since = ?, "
      "disabled_at = ?, disabled_reason = ?, updated_at = ? WHERE org_id = ? AND id = ?",
      {e.url, optionalValue(encodeTypes(e.eventTypes)), e.description, std::int64_t{e.active ? 1 : 0},
       optionalValue(e.failingSince), optionalValue(e.disabledAt), optionalValue(e.disabledReason), e.updatedAt,
       e.orgId, e.id});
}

std::optional<WebhookEndpointRecord> WebhookRepository::find(Connection& c, std::int64_t orgId, std::int64_t id) {
  auto rows = c.query(std::string("SELECT ") + kEndpointColumns + " FROM webhook_endpoints WHERE org_id = ? AND id = ?",
                      {orgId, id});
  if (rows.empty()) return std::nullopt;
  return endpointFromRow(rows.front());
}

std::optional<WebhookEndpointRecord> WebhookRepository::findForIngest(Connection& c, std::int64_t id) {
  auto rows = c.query(std::string("SELECT ") + kEndpointColumns + " FROM webhook_endpoints WHERE id = ?", {id});
  if (rows.empty()) return std::nullopt;
  return endpointFromRow(rows.front());
}

std::vector<WebhookEndpointRecord> WebhookRepository::listForChannel(Connection& c, std::int64_t orgId,
                                                                     std::int64_t channelId) {
  std::vector<WebhookEndpointRecord> out;
  for (const auto& r : c.query(std::string("SELECT ") + kEndpointColumns +
                                   " FROM webhook_endpoints WHERE org_id = ? AND channel_id = ? ORDER BY id",
                               {orgId, channelId}))
    out.push_back(endpointFromRow(r));
  return out;
}

EndpointPage WebhookRepository::list(Connection& c, const EndpointFilter& f, std::int64_t offset, std::int64_t limit) {
  Params params{f.orgId};
  std::string where = " WHERE org_id = ?";
  if (f.channelId) {
    where += " AND channel_id = ?";
    params.emplace_back(*f.channelId);
  }
  if (f.appId) {
    where += " AND channel_id IN (SELECT id FROM channels WHERE org_id = ? AND app_id = ?)";
    params.emplace_back(f.orgId);
    params.emplace_back(*f.appId);
  }
  if (f.active) {
    where += " AND active = ?";
    params.emplace_back(std::int64_t{*f.active ? 1 : 0});
  }
  params.emplace_back(limit);
  params.emplace_back(offset);
  // The page is LEFT JOINed to a single row so that the total still comes back when the
  // page is past the end (one row, its endpoint columns NULL).
  EndpointPage out;
  for (const auto& r :
       c.query(std::string("WITH matching AS (SELECT ") + kEndpointColumns + " FROM webhook_endpoints" + where +
                   "), page AS (SELECT * FROM matching ORDER BY id LIMIT ? OFFSET ?) "
                   "SELECT (SELECT COUNT(*) FROM matching) AS total, page.* "
                   "FROM (SELECT 1 AS one) head LEFT JOIN page ON 1 = 1 ORDER BY page.id",
               params)) {
    out.total = r.i64("total");
    if (r.optI64("id")) out.data.push_back(endpointFromRow(r));
  }
  return out;
}

bool WebhookRepository::remove(Connection& c, std::int64_t orgId, std::int64_t id) {
  return c.exec("DELETE FROM webhook_endpoints WHERE org_id = ? AND id = ?", {orgId, id}) > 0;
}

bool WebhookRepository::channelInOrg(Connection& c, std::int64_t orgId, std::int64_t channelId) {
  return !c.query("SELECT id FROM channels WHERE org_id = ? AND id = ?", {orgId, channelId}).empty();
}

std::int64_t WebhookRepository::markFailing(Connection& c, std::int64_t orgId, std::int64_t id, std::int64_t now) {
  auto rows = c.query(
      "UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, ?) WHERE org_id = ? AND id = ? "
      "RETURNING failing_since",
      {now, orgId, id});
  return rows.empty() ? now : rows.front().i64("failing_since");
}

void WebhookRepository::clearFailing(Connection& c, std::int64_t orgId, std::int64_t id) {
  c.exec("UPDATE webhook_endpoints SET failing_since = NULL WHERE org_id = ? AND id = ? AND failing_since IS NOT NULL",
         {orgId, id});
}

void WebhookRepository::disable(Connection& c, std::int64_t orgId, std::int64_t id, std::int64_t now,
                                const std::string& reason) {
  c.exec(
      "UPDATE webhook_endpoints SET active = 0, disabled_at = ?, disabled_reason = ?, updated_at = ? "
      "WHERE org_id = ? AND id = ? AND active = 1",
      {now, reason, now, orgId, id});
}

std::vector<std::int64_t> WebhookRepository::channelsWithEndpoints(Connection& c) {
  std::vector<std::int64_t> out;
  for (const auto& r : c.query("SELECT DISTINCT channel_id FROM webhook_endpoints WHERE active = 1"))
    out.push_back(r.i64("channel_id"));
  return out;
}

std::size_t WebhookRepository::enqueueEvents(Connection& c, std::int64_t channelId, std::int64_t fromSeq,
                                             std::int64_t toSeq, std::int64_t now) {
  // seq, not id: this transaction holds the channel row's lock, so [fromSeq, toSeq] is
  // exactly this batch's events of the channel, whatever ids other writers hold.
  return c.exec(
      "INSERT INTO delivery_outbox (org_id, target_kind, target_id, event_id, state, attempts, next_attempt_at, "
      "created_at, updated_at) SELECT e.org_id, 'webhook', w.id, e.id, 'pending', 0, ?, ?, ? FROM events e JOIN "
      "webhook_endpoints w ON w.channel_id = e.channel_id AND w.active = 1 WHERE e.channel_id = ? AND e.seq >= ? AND "
      "e.seq <= ? AND (w.event_types IS NULL OR w.event_types LIKE '%,' || COALESCE(e.event_type, 'custom') || ',%') "
      "ORDER BY e.seq, w.id",
      {now, now, now, channelId, fromSeq, toSeq});
}

std::size_t WebhookRepository::hurryPending(Connection& c, std::int64_t orgId, std::int64_t id, std::int64_t now) {
  return c.exec(
      "UPDATE delivery_outbox SET next_attempt_at = ? WHERE org_id = ? AND target_kind = 'webhook' AND target_id = ? "
      "AND state = 'pending' AND next_attempt_at > ?",
      {now, orgId, id, now});
}

}  // namespace aev::store
