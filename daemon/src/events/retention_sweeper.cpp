#include "events/retention_sweeper.h"

#include <spdlog/spdlog.h>

#include <optional>
#include <stdexcept>

#include "common/clock.h"

namespace aev::events {

RetentionSweeper::RetentionSweeper(store::Database& db, const identity::PlanCatalog& plans, std::int64_t batchSize)
    : db_(db), plans_(plans), batchSize_(batchSize) {
  if (batchSize_ < 1) throw std::invalid_argument("retention.batch_size must be at least 1");
}

std::size_t RetentionSweeper::sweep(std::int64_t now, const std::function<bool()>& keepGoing) {
  std::vector<store::OrganizationPlan> orgs;
  {
    auto c = db_.acquire();
    orgs = repo_.organizations(*c);
  }
  std::size_t total = 0;
  for (const auto& org : orgs) {
    const auto days = plans_.get(org.plan).retentionDays;
    if (days <= 0) continue;
    const auto cutoff = now - days * clock::kDay;
    std::size_t deleted = 0;
    while (keepGoing()) {
      const auto batch = db_.transaction([&](store::Connection& c) -> std::optional<std::size_t> {
        if (!repo_.claimSweep(c)) return std::nullopt;
        auto d = repo_.deleteBefore(c, org.orgId, cutoff, batchSize_);
        traces_.rebuild(c, org.orgId, d.traceIds);
        return d.events;
      });
      if (!batch) {
        spdlog::debug("retention: another node is sweeping");
        return total + deleted;
      }
      deleted += *batch;
      if (*batch < static_cast<std::size_t>(batchSize_)) break;
    }
    if (deleted)
      spdlog::info("retention: deleted {} events of organization {} received before {} ({} days, plan {})", deleted,
                   org.orgId, clock::toRfc3339(cutoff), days, org.plan);
    total += deleted;
  }
  return total;
}

}  // namespace aev::events
