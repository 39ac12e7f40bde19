#pragma once
// Trace rollups (docs/features.md#traces): maintained incrementally by the event writer.
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "store/database.h"
#include "store/event_records.h"
#include "store/trace_facets.h"

namespace aev::store {

struct TraceRecord {
  std::string traceId;
  std::int64_t appId = 0;
  std::int64_t channelId = 0;
  std::int64_t startTime = 0;
  std::int64_t endTime = 0;
  std::int64_t eventCount = 0;
  std::int64_t errorCount = 0;
  std::int64_t toolCallCount = 0;
  std::int64_t handoffCount = 0;
  std::vector<std::string> agents;      // sorted, unique
  std::vector<std::string> eventTypes;  // sorted, unique
  // Sums of the events' telemetry (docs/features.md#telemetry-fields).
  std::int64_t inputTokens = 0;
  std::int64_t outputTokens = 0;
  std::int64_t cachedInputTokens = 0;  // subsets of the two above
  std::int64_t reasoningTokens = 0;
  double costUsd = 0;
  // The trace's session (conversation), end user and name: the first its events named
  // (docs/features.md#traces); a name some event states outright (langfuse.trace.name,
  // metadata.trace_name, ...) replaces the root span's name.
  std::optional<std::string> sessionId, userId, name;
  // Its metadata.tags (first value per key, at most kTraceTagLimit keys), and the input
  // text of its earliest LLM call and the output text of its latest (store/trace_texts.h),
  // with the times of the events they came from.
  std::map<std::string, std::string> tags;
  std::optional<std::string> inputText, outputText;
  std::optional<std::int64_t> inputAt, outputAt;
};

struct TraceQuery {
  std::optional<std::int64_t> appId;
  std::optional<std::int64_t> channelId;
  std::optional<std::string> agent;
  std::optional<std::int64_t> since;  // start_time >= since
  std::optional<std::int64_t> until;  // start_time < until
  std::optional<bool> withErrors;     // true: error_count > 0; false: no error
  // Traces with at least one event of this model / provider / tool (telemetry columns).
  std::optional<std::string> model;
  std::optional<std::string> provider;
  std::optional<std::string> tool;
  // Traces with at least one event in this environment: the values its events may carry
  // (an environment's slug, name and id; EnvironmentService::eventValues).
  std::optional<std::vector<std::string>> environmentValues;
  // Traces with at least one event whose metadata.tags[first] is second.
  std::optional<std::pair<std::string, std::string>> tag;
  // Traces of this end user / session (exact match on the rollup's columns).
  std::optional<std::string> userId;
  std::optional<std::string> sessionId;
  enum class Order { Start, Duration, Events, Errors, Tokens, Cost };
  Order orderBy = Order::Start;  // ties: newest first
  bool ascending = false;
};

// The rollup columns a TraceRecord is read from, and the reading.
extern const char* const kTraceColumns;
TraceRecord traceFromRow(const Row& r);
// The conditions of `q` to append after "WHERE org_id = ?" (orgId) on the traces table
// (each starts with " AND"), their values appended to params. Fixed SQL, values bound.
// The environment, model, provider, tool and tag filters read the trace facets when
// `facets` (TraceFacetRepository::complete), else they probe each trace's events.
std::string traceConditions(Dialect dialect, std::int64_t orgId, const TraceQuery& q, Params& params, bool facets);

class TraceRepository {
 public:
  // Folds events that carry a traceId into their rollups (inside the writer's
  // transaction). A rollup this instance wrote before is updated with one statement
  // (counters added, times widened) guarded by the agents and event types it wrote:
  // when another writer changed them meanwhile, nothing is updated and the rollup is
  // read (row locked) and written in full, as for an unknown trace.
  // Its facets (store/trace_facets.h) are written too, those this instance knows it wrote
  // for the same rollup row (its id: a rebuild makes a new row) in committed transactions
  // skipped.
  void apply(Connection& c, const std::vector<StoredEvent>& events);
  // The transaction apply() wrote in did not commit: what it remembered is forgotten (the
  // facets it skips must be ones that are stored).
  void forgetUncommitted();
  // The traces that have events in these channels (read before the channels go).
  std::vector<std::string> idsInChannels(Connection& c, std::int64_t orgId,
                                         const std::vector<std::int64_t>& channelIds);
  // Recomputes these rollups and their facets from the events that remain after some
  // were deleted (a channel or app with its events, retention); a trace with no events
  // left loses its row and its facets.
  void rebuild(Connection& c, std::int64_t orgId, const std::vector<std::string>& traceIds);
  std::optional<TraceRecord> byId(Connection& c, std::int64_t orgId, const std::string& traceId);
  // Newest first.
  std::vector<TraceRecord> list(Connection& c, std::int64_t orgId, const TraceQuery& q, std::int64_t offset,
                                std::int64_t limit);
  std::int64_t count(Connection& c, std::int64_t orgId, const TraceQuery& q);
  // Ordered by effective time, then id.
  std::vector<StoredEvent> events(Connection& c, std::int64_t orgId, const std::string& traceId);
  // The same, with every telemetry column and custom attribute the event row holds
  // (store/trace_event_telemetry.cpp): what GET /traces/{id}/events shows and a rebuild folds.
  std::vector<StoredEvent> eventsWithTelemetry(Connection& c, std::int64_t orgId, const std::string& traceId);

 private:
  // apply(), and rebuild() without the facets (it rebuilds them from the event rows).
  void applyRollups(Connection& c, const std::vector<StoredEvent>& events, bool withFacets);
  // The rollup, read with its row locked until the transaction ends (PostgreSQL).
  std::optional<TraceRecord> lockedById(Connection& c, std::int64_t orgId, const std::string& traceId);
  std::optional<TraceRecord> byId(Connection& c, std::int64_t orgId, const std::string& traceId,
                                  const char* lockClause);
  // What this instance last wrote into a rollup's agents and event_types (the JSON
  // texts and the sorted lists): only ever a guess, checked by the guarded UPDATE.
  struct KnownLists {
    std::vector<std::string> agents, eventTypes;
    std::map<std::string, std::string> tags;
    std::string agentsJson, eventTypesJson, tagsJson = "{}";
    std::int64_t rowId = 0;  // the rollup row they describe; the guarded UPDATE checks it
    FacetSet facets;         // the facets written for that row
  };
  std::mutex knownMutex_;
  std::map<std::pair<std::int64_t, std::string>, KnownLists> known_;
  TraceFacetRepository facets_;
};

}  // namespace aev::store
