#include "events/quota_guard.h"

#include <ctime>

#include "common/clock.h"
#include "common/errors.h"
#include "events/event_writer.h"
#include "store/event_repository.h"
#include "store/organization_repository.h"

namespace aev::events {

namespace {
constexpr auto kCacheTtl = std::chrono::seconds(5);

int secondsToNextMonth(std::int64_t nowMicros) {
  std::time_t secs = static_cast<std::time_t>(nowMicros / clock::kSecond);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  tm.tm_mday = 1;
  tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
  tm.tm_mon += 1;
  const std::time_t next = timegm(&tm);
  return static_cast<int>(next - secs);
}
}  // namespace

QuotaGuard::Entry& QuotaGuard::entryLocked(std::int64_t orgId, const std::string& period) {
  auto& e = cache_[orgId];
  const auto now = std::chrono::steady_clock::now();
  if (e.period != period || now - e.loadedAt > kCacheTtl) {
    auto c = db_.acquire();
    store::OrganizationRepository orgs;
    auto org = orgs.byId(*c, orgId);
    e.quota = plans_.get(org ? org->plan : plans_.defaultPlan()).eventsQuotaMonthly;
    e.used = store::EventRepository().usage(*c, orgId, period);
    e.period = period;
    e.loadedAt = now;
  }
  return e;
}

void QuotaGuard::check(std::int64_t orgId, std::int64_t count) {
  const auto now = clock::nowMicros();
  std::lock_guard lock(mutex_);
  auto& e = entryLocked(orgId, EventWriter::periodOf(now));
  if (e.used + count > e.quota)
    throw errors::tooManyRequests("The organization's monthly event quota (" + std::to_string(e.quota) +
                                      ") is used up.",
                                  secondsToNextMonth(now));
}

void QuotaGuard::recordCommitted(std::int64_t orgId, std::int64_t count) {
  std::lock_guard lock(mutex_);
  auto it = cache_.find(orgId);
  if (it != cache_.end()) it->second.used += count;
}

}  // namespace aev::events
