#include "moderation/violation_service.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Stringifier.h>

#include <sstream>

#include "common/clock.h"
#include "common/errors.h"

namespace aev::moderation {

namespace {

std::string fieldsJson(const std::vector<std::string>& fields) {
  Poco::JSON::Array array;
  for (const auto& f : fields) array.add(f);
  std::ostringstream out;
  Poco::JSON::Stringifier::condense(array, out);
  return out.str();
}

std::pair<std::int64_t, std::int64_t> violationWindowOf(std::optional<std::int64_t> since,
                                                        std::optional<std::int64_t> until) {
  const auto end = until.value_or(clock::nowMicros());
  const auto start = since.value_or(end - ViolationService::kDefaultWindowMicros);
  if (start >= end) throw errors::invalidField("query.since", "must be before until");
  return {start, end};
}

}  // namespace

void ViolationService::record(const std::vector<const Screening*>& screenings) {
  std::vector<store::ViolationRecord> rows;
  const auto now = clock::nowMicros();
  for (const auto* s : screenings) {
    for (const auto& m : s->verdict.matches) {
      store::ViolationRecord v;
      v.orgId = s->orgId;
      v.ruleId = m.ruleId;
      v.ruleName = m.ruleName;
      v.detector = m.detector;
      v.action = nameOf(m.action);
      v.target = nameOf(m.target);
      v.eventId = s->eventId;
      v.channelId = s->channelId;
      if (!s->eventType.empty()) v.eventType = s->eventType;
      v.source = s->source;
      v.matchCount = static_cast<std::int64_t>(m.matchCount);
      v.fieldsJson = fieldsJson(m.fields);
      std::ostringstream matches;
      matchDetailsJson(m.details)->stringify(matches);
      v.matchesJson = matches.str();
      v.latencyMs = m.latencyMs;
      v.createdAt = now;
      rows.push_back(std::move(v));
    }
  }
  if (rows.empty()) return;
  db_.transaction([&](store::Connection& c) {
    for (const auto& v : rows) repo_.insert(c, v);
  });
}

ViolationPage ViolationService::list(store::ViolationFilter filter, std::optional<std::int64_t> since,
                                     std::optional<std::int64_t> until, std::int64_t page, std::int64_t limit) {
  std::tie(filter.since, filter.until) = violationWindowOf(since, until);
  auto c = db_.acquire();
  ViolationPage out;
  out.total = repo_.count(*c, filter);
  out.data = repo_.page(*c, filter, (page - 1) * limit, limit);
  return out;
}

ViolationService::Efficacy ViolationService::efficacy(std::int64_t orgId, std::optional<std::int64_t> since,
                                                      std::optional<std::int64_t> until) {
  Efficacy out;
  std::tie(out.since, out.until) = violationWindowOf(since, until);
  auto c = db_.acquire();
  out.rows = repo_.efficacy(*c, orgId, out.since, out.until);
  out.rules = repo_.perRule(*c, orgId, out.since, out.until);
  return out;
}

}  // namespace aev::moderation
