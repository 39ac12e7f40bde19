#pragma once
// Traces (docs/features.md#traces): lists and summaries come from the rollup rows the
// writer maintains; a trace's events are read in effective-time order.
#include <optional>
#include <string>
#include <vector>

#include "store/database.h"
#include "store/session_repository.h"
#include "store/trace_repository.h"

namespace aev::traces {

struct TracePage {
  std::vector<store::TraceRecord> data;
  std::int64_t total = 0;
};

struct SessionPage {
  std::vector<store::SessionRecord> data;
  std::int64_t total = 0;
};

struct EndUserPage {
  std::vector<store::EndUserRecord> data;
  std::int64_t total = 0;
};

// A session and its traces, oldest first (at most kSessionTraceLimit).
struct SessionDetail {
  store::SessionRecord session;
  std::vector<store::TraceRecord> traces;
};

inline constexpr std::int64_t kSessionTraceLimit = 500;

class TraceService {
 public:
  explicit TraceService(store::Database& db) : db_(db) {}
  TracePage list(std::int64_t orgId, const store::TraceQuery& q, std::int64_t page, std::int64_t limit);
  store::TraceRecord summary(std::int64_t orgId, const std::string& traceId);
  // With the telemetry each event was extracted and priced with at ingest.
  std::vector<store::StoredEvent> events(std::int64_t orgId, const std::string& traceId);

  // Sessions and end users (traces/sessions.cpp; docs/features.md#sessions-and-end-users).
  SessionPage sessions(std::int64_t orgId, const store::GroupQuery& q, std::int64_t page, std::int64_t limit);
  SessionDetail session(std::int64_t orgId, const std::string& sessionId);  // 404 when unknown
  EndUserPage endUsers(std::int64_t orgId, const store::GroupQuery& q, std::int64_t page, std::int64_t limit);

 private:
  store::Database& db_;
  store::TraceRepository repo_;
  store::SessionRepository sessions_;
};

}  // namespace aev::traces
