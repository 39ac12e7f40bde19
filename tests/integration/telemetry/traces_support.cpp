#include "traces_support.h"

#include <Poco/URI.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <stdexcept>

#include "support/batch_results.h"

namespace aev::testing {

std::int64_t recentBase() {
  const auto now =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch());
  return (now.count() - 2 * 3600) * kSec;
}

std::string rfc3339(std::int64_t micros) {
  const std::time_t secs = static_cast<std::time_t>(micros / kSec);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%06lldZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<long long>(micros % kSec));
  return buf;
}

std::int64_t fromRfc3339(const std::string& text) {
  std::tm tm{};
  long long fraction = 0;
  int consumed = 0;
  if (text.size() != 27 ||
      std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d.%6lldZ%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
                  &tm.tm_min, &tm.tm_sec, &fraction, &consumed) != 7 ||
      consumed != 27)
    throw std::runtime_error("not the daemon's RFC 3339 form: " + text);
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<std::int64_t>(timegm(&tm)) * kSec + fraction;
}

Publisher TracesTest::newPublisher(const std::string& tag) {
  Publisher p;
  p.tenant = newTenant(tag);
  p.appId = createApp(p.tenant);
  p.channelId = createChannel(p.tenant, p.appId);
  p.key = createKey(p.tenant, {"publish", "read"});
  p.keyed = anon().withApiKey(p.key.key);
  return p;
}

Poco::JSON::Object::Ptr TracesTest::traceEvent(std::int64_t channelId, const std::string& traceId,
                                               const TraceEventSpec& spec) {
  auto extra = obj({{"traceId", traceId}});
  if (!spec.eventType.empty()) extra->set("eventType", spec.eventType);
  if (!spec.agent.empty()) extra->set("agentId", spec.agent);
  if (spec.at) extra->set("timestamp", rfc3339(*spec.at));
  if (spec.metadata) extra->set("metadata", spec.metadata);
  return eventBody(channelId, spec.identifier, obj({{"step", spec.identifier}}), extra);
}

Poco::JSON::Object::Ptr TracesTest::publishOne(const HttpClient& http, std::int64_t channelId,
                                               const std::string& traceId, const TraceEventSpec& spec) {
  auto r = http.post("/event", traceEvent(channelId, traceId, spec));
  if (r.status != 201) throw std::runtime_error("publish failed: " + r.describe());
  return r.object();
}

std::vector<Poco::JSON::Object::Ptr> TracesTest::publishBatch(const HttpClient& http, std::int64_t channelId,
                                                              const std::string& traceId,
                                                              const std::vector<TraceEventSpec>& specs) {
  Poco::JSON::Array::Ptr events = new Poco::JSON::Array;
  for (const auto& spec : specs) events->add(traceEvent(channelId, traceId, spec));
  auto r = http.post("/events/batch", obj({{"events", events}}));
  if (r.status != 200) throw std::runtime_error("batch failed: " + r.describe());
  std::vector<Poco::JSON::Object::Ptr> stored;
  for (const auto& result : objects(r.object()->getArray("results"))) {
    if (!isStoredEvent(result)) throw std::runtime_error("a batch event failed: " + r.describe());
    stored.push_back(result);
  }
  if (stored.size() != specs.size()) throw std::runtime_error("batch answered another count: " + r.describe());
  return stored;
}

std::vector<std::string> TracesTest::traceIdsOf(const HttpResult& list) {
  std::vector<std::string> ids;
  for (const auto& t : objects(list.object()->getArray("data"))) ids.push_back(strField(t, "traceId"));
  return ids;
}

std::vector<std::string> TracesTest::strings(const Poco::JSON::Array::Ptr& array) {
  std::vector<std::string> out;
  if (!array) return out;
  for (std::size_t i = 0; i < array->size(); ++i) out.push_back(array->getElement<std::string>(i));
  return out;
}

std::string TracesTest::tracePath(const std::string& traceId, const std::string& what) {
  std::string encoded;
  Poco::URI::encode(traceId, "/?#[]@!$&'()*+,;=:% ", encoded);
  return "/traces/" + encoded + "/" + what;
}

}  // namespace aev::testing
