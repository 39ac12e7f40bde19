#include "store/trace_facets.h"

#include <algorithm>
#include <tuple>

#include "common/crypto.h"

namespace aev::store {

std::string facetText(const std::string& text) {
  if (text.size() <= kFacetTextLimit) return text;
  return "\x01" + crypto::sha256Hex(text);
}

void addFacetsOf(const StoredEvent& e, FacetSet& out) {
  const auto& t = e.telemetry;
  const std::pair<const char*, const std::optional<std::string>*> columns[] = {{kFacetEnvironment, &t.environment},
                                                                               {kFacetModel, &t.model},
                                                                               {kFacetProvider, &t.provider},
                                                                               {kFacetTool, &t.tool}};
  for (const auto& [dimension, value] : columns)
    if (*value) out.emplace(dimension, facetText(**value));
  for (const auto& [key, value] : t.attributes) out.emplace(facetText(kFacetTagPrefix + key), facetText(value));
}

namespace {

// A PostgreSQL array literal element (text).
void appendFacetArrayText(std::string& out, const std::string& s) {
  out += '"';
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  out += '"';
}

// The state row, locked against a concurrent backfill step (PostgreSQL): a rebuild after
// a deletion runs either before a step (which then no longer sees the deleted events) or
// after it (and then replaces what the step wrote).
std::pair<std::int64_t, std::int64_t> facetBackfillState(Connection& c, bool forUpdate) {
  std::string sql = "SELECT backfill_until, backfilled_to FROM trace_facet_state WHERE id = 1";
  if (c.dialect() == Dialect::PostgreSQL) sql += forUpdate ? " FOR UPDATE" : " FOR SHARE";
  auto rows = c.query(sql);
  if (rows.empty()) return {0, 0};
  return {rows.front().i64("backfill_until"), rows.front().i64("backfilled_to")};
}

// The facets an events row holds in its telemetry columns (environment, model, provider, tool).
void addFacetsOfRow(const Row& r, FacetSet& out) {
  StoredEvent e;
  e.telemetry.environment = r.optStr("environment");
  e.telemetry.model = r.optStr("model");
  e.telemetry.provider = r.optStr("provider");
  e.telemetry.tool = r.optStr("tool");
  addFacetsOf(e, out);
}

}  // namespace

void TraceFacetRepository::write(Connection& c, const TraceFacetMap& facets) {
  if (facets.empty()) return;
  // Sorted as the primary key is (organization, dimension, value, trace): every writer
  // takes the rows' locks in one order.
  using FacetRow = std::tuple<std::int64_t, const std::string*, const std::string*, const std::string*>;
  std::vector<FacetRow> rows;
  for (const auto& [trace, set] : facets)
    for (const auto& [dimension, value] : set) rows.emplace_back(trace.first, &dimension, &value, &trace.second);
  std::sort(rows.begin(), rows.end(), [](const FacetRow& a, const FacetRow& b) {
    if (std::get<0>(a) != std::get<0>(b)) return std::get<0>(a) < std::get<0>(b);
    if (*std::get<1>(a) != *std::get<1>(b)) return *std::get<1>(a) < *std::get<1>(b);
    if (*std::get<2>(a) != *std::get<2>(b)) return *std::get<2>(a) < *std::get<2>(b);
    return *std::get<3>(a) < *std::get<3>(b);
  });
  if (rows.empty()) return;
  if (c.dialect() == Dialect::SQLite) {
    // One writer at a time: a prepared single-row statement per facet costs less than
    // building a statement text per batch shape.
    static const std::string sql =
        "INSERT INTO trace_facets (org_id, dimension, value, trace_id) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING";
    for (const auto& [org, dimension, value, trace] : rows) c.exec(sql, {org, *dimension, *value, *trace});
    return;
  }
  // PostgreSQL: one statement (one round trip) for the whole commit, rows in key order.
  std::string orgs = "{", dimensions = "{", values = "{", traces = "{";
  bool first = true;
  for (const auto& [org, dimension, value, trace] : rows) {
    if (!first) orgs += ',', dimensions += ',', values += ',', traces += ',';
    first = false;
    orgs += std::to_string(org);
    appendFacetArrayText(dimensions, *dimension);
    appendFacetArrayText(values, *value);
    appendFacetArrayText(traces, *trace);
  }
  orgs += '}', dimensions += '}', values += '}', traces += '}';
  c.exec(
      "INSERT INTO trace_facets (org_id, dimension, value, trace_id) SELECT o, d, v, t FROM unnest(?::bigint[], "
      "?::text[], ?::text[], ?::text[]) WITH ORDINALITY AS f(o, d, v, t, ord) ORDER BY ord ON CONFLICT DO NOTHING",
      {orgs, dimensions, values, traces});
}

void TraceFacetRepository::rebuild(Connection& c, std::int64_t orgId, const std::string& traceId) {
  facetBackfillState(c, false);
  c.exec("DELETE FROM trace_facets WHERE org_id = ? AND trace_id = ?", {orgId, traceId});
  TraceFacetMap facets;
  auto rows = c.query("SELECT environment, model, provider, tool FROM events WHERE org_id = ? AND trace_id = ?",
                      {orgId, traceId});
  if (rows.empty()) return;  // no events left
  auto& set = facets[{orgId, traceId}];
  for (const auto& r : rows) addFacetsOfRow(r, set);
  for (const auto& r : c.query("SELECT a.key, a.value FROM event_attributes a JOIN events e ON e.id = a.event_id "
                               "WHERE e.org_id = ? AND e.trace_id = ? AND a.org_id = ?",
                               {orgId, traceId, orgId}))
    set.emplace(facetText(kFacetTagPrefix + r.str("key")), facetText(r.str("value")));
  write(c, facets);
}

bool TraceFacetRepository::complete(Connection& c) {
  auto rows = c.query("SELECT backfill_until, backfilled_to FROM trace_facet_state WHERE id = 1");
  return rows.empty() || rows.front().i64("backfilled_to") >= rows.front().i64("backfill_until");
}

FacetBackfillStep TraceFacetRepository::backfillStep(Connection& c, std::int64_t chunk) {
  FacetBackfillStep out;
  std::tie(out.until, out.done) = facetBackfillState(c, true);
  if (out.done >= out.until) {
    out.finished = true;
    return out;
  }
  TraceFacetMap facets;
  // The chunk: the next `chunk` events with a trace (ids in (done, until]).
  std::map<std::int64_t, std::pair<std::int64_t, std::string>> traceOf;
  Params p{out.done, out.until, chunk};
  std::int64_t last = 0, read = 0;
  for (const auto& r :
       c.query("SELECT e.id, e.org_id, e.trace_id, e.environment, e.model, e.provider, e.tool FROM events e WHERE "
               "e.trace_id IS NOT NULL AND e.id > ? AND e.id <= ? ORDER BY e.id LIMIT ?",
               std::move(p))) {
    const std::pair<std::int64_t, std::string> trace{r.i64("org_id"), r.str("trace_id")};
    addFacetsOfRow(r, facets[trace]);
    last = r.i64("id");
    traceOf.emplace(last, trace);
    ++read;
  }
  const bool more = read >= chunk;
  const auto through = more ? last : out.until;
  if (read > 0)
    for (const auto& r :
         c.query("SELECT a.event_id, a.key, a.value FROM event_attributes a WHERE a.event_id > ? AND a.event_id <= ?",
                 {out.done, through}))
      if (auto it = traceOf.find(r.i64("event_id")); it != traceOf.end())
        facets[it->second].emplace(facetText(kFacetTagPrefix + r.str("key")), facetText(r.str("value")));
  write(c, facets);
  out.folded = read;
  out.done = through;
  c.exec("UPDATE trace_facet_state SET backfilled_to = ? WHERE id = 1", {out.done});
  out.finished = out.done >= out.until;
  return out;
}

std::string traceFacetCondition(std::int64_t orgId, const std::string& dimension,
                                const std::vector<std::string>& values, Params& params) {
  std::string sql = " AND trace_id IN (SELECT f.trace_id FROM trace_facets f WHERE f.org_id = ? AND f.dimension = ?";
  params.emplace_back(orgId);
  params.emplace_back(facetText(dimension));
  if (values.size() == 1) {
    sql += " AND f.value = ?)";
  } else {
    sql += " AND f.value IN (?";
    for (std::size_t i = 1; i < values.size(); ++i) sql += ", ?";
    sql += "))";
  }
  for (const auto& v : values) params.emplace_back(facetText(v));
  return sql;
}

}  // namespace aev::store
