#include "ingest/problem_log.h"

#include <spdlog/spdlog.h>

#include "common/clock.h"
#include "common/exceptions.h"
#include "common/metrics.h"
#include "common/utf8.h"

namespace aev::ingest {

namespace {

constexpr std::size_t kMaxDetailBytes = 1000;  // a stored detail, cut on a character boundary
constexpr const char* kHelp = "Exports refused on the OTLP routes (whole, or spans of them), by reason";

}  // namespace

std::string refusalMetricName(Refusal reason) {
  return "agent_events_ingest_refusals_total{reason=\"" + std::string(codeOf(reason)) + "\"}";
}

void countRefusal(Refusal reason) {
  Metrics::instance().counter(refusalMetricName(reason), kHelp).fetch_add(1, std::memory_order_relaxed);
}

bool isExportPath(std::string_view path) { return path == "/v1/traces" || path == "/api/public/otel/v1/traces"; }

ProblemLog::ProblemLog(store::Database& db) : db_(db) {
  for (auto r : allRefusals()) Metrics::instance().counter(refusalMetricName(r), kHelp);
}

void ProblemLog::record(const RefusedExport& refused) {
  countRefusal(refused.reason);
  const auto now = clock::nowMicros();
  const std::string who =
      refused.apiKeyId ? "key " + std::to_string(*refused.apiKeyId) : "address " + refused.remoteAddress;
  if (logThrottle_.admit(who + "|" + std::string(codeOf(refused.reason)), now))
    spdlog::warn("OTLP export refused ({}, {}) from {}{}: {}", codeOf(refused.reason), refused.status, who,
                 refused.orgId ? " of organization " + std::to_string(*refused.orgId) : std::string(), refused.detail);
  if (!refused.orgId) return;
  try {
    store::IngestProblemRecord p;
    p.orgId = *refused.orgId;
    p.occurredAt = now;
    p.route = refused.route;
    p.status = refused.status;
    p.reason = std::string(codeOf(refused.reason));
    p.detail = validUtf8(refused.detail.substr(0, kMaxDetailBytes));  // a cut sequence is replaced, not kept
    p.apiKeyId = refused.apiKeyId;
    p.rejectedSpans = refused.rejectedSpans;
    db_.transaction([&](store::Connection& c) { repo_.add(c, p); });
  } catch (const std::exception& e) {
    spdlog::warn("could not keep a refused export of organization {}: {}", *refused.orgId, describeException(e));
  }
}

ProblemLog::Page ProblemLog::list(std::int64_t orgId, std::int64_t page, std::int64_t limit) {
  auto conn = db_.acquire();
  Page out;
  out.total = repo_.count(*conn, orgId);
  out.data = repo_.list(*conn, orgId, limit, (page - 1) * limit);
  return out;
}

}  // namespace aev::ingest
