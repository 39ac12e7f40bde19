#pragma once
// What a trace's events carry that the trace lists filter on (migration v23): each distinct
// environment, model, provider, tool and custom attribute (metadata.tags key and value) of
// a trace's events, one row of trace_facets per (trace, dimension, value). The traces,
// sessions and end-users lists filter through them (one index range per filter value)
// instead of probing each candidate trace's events, and a filter means what the probe
// meant: "the trace has at least one event with this value".
//
// Kept in the event writer's transaction with the trace rollup (TraceRepository::apply):
// one insert per distinct facet per trace per commit, ON CONFLICT DO NOTHING, so a commit
// costs what its distinct facets cost, and a facet written twice (a retried commit, the
// backfill meeting the writer) is still one row. A facet set is only ever added to; a
// deletion (retention, a deleted channel or app) rebuilds its traces' facets from the
// events that remain, as it rebuilds their rollups.
//
// Why a side table and not columns of traces: a trace has any number of values per
// dimension (every tag key), and both stores index (org_id, dimension, value, trace_id)
// directly, so a filter reads only its matching traces; JSON columns on the rollup would
// be scanned and parsed for every trace of the organization.
//
// Stores upgraded with events in them get their facets from a background backfill in
// chunks (traces/trace_facet_backfill.h); until it is done, the lists probe events as
// before (complete()).
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "store/database.h"
#include "store/event_records.h"

namespace aev::store {

// (dimension, value) pairs: "environment", "model", "provider", "tool", or "tag:<key>".
using FacetSet = std::set<std::pair<std::string, std::string>>;
// Per (organization, trace).
using TraceFacetMap = std::map<std::pair<std::int64_t, std::string>, FacetSet>;

inline constexpr const char* kFacetEnvironment = "environment";
inline constexpr const char* kFacetModel = "model";
inline constexpr const char* kFacetProvider = "provider";
inline constexpr const char* kFacetTool = "tool";
inline constexpr const char* kFacetTagPrefix = "tag:";

// A dimension or value as stored: itself up to kFacetTextLimit bytes, else "\x01" and its
// SHA-256 (hex), so an index row stays within PostgreSQL's B-tree row limit (a tag key is
// up to 128 characters, a value 512, a model unbounded). Filters store their values the
// same way, so a long value still matches exactly itself.
inline constexpr std::size_t kFacetTextLimit = 200;
std::string facetText(const std::string& text);

// Adds the facets one event carries (its telemetry and custom attributes).
void addFacetsOf(const StoredEvent& e, FacetSet& out);

struct FacetBackfillStep {
  std::int64_t folded = 0, done = 0, until = 0;
  bool finished = false;
};

class TraceFacetRepository {
 public:
  // Writes the facets (inside the writer's transaction), in key order (the order rows are
  // locked in on PostgreSQL, the same for every writer and the backfill).
  void write(Connection& c, const TraceFacetMap& facets);
  // Replaces a trace's facets by those of the events it still has (after a deletion).
  void rebuild(Connection& c, std::int64_t orgId, const std::string& traceId);
  // True once the facets of events stored before v23 are backfilled.
  bool complete(Connection& c);
  // The next `chunk` events stored before v23 (ids up to the state's backfill_until),
  // their facets written and the state moved on, in the caller's transaction.
  FacetBackfillStep backfillStep(Connection& c, std::int64_t chunk);
};

// " AND trace_id IN (the traces with a facet of this dimension among these values)" for a
// WHERE over traces whose organization is bound first; the values appended to params.
std::string traceFacetCondition(std::int64_t orgId, const std::string& dimension,
                                const std::vector<std::string>& values, Params& params);

}  // namespace aev::store
