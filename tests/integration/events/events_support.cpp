#include "events_support.h"

#include <stdexcept>

namespace aev::testing {

Tenant EventsTest::newTenant(const std::string& tag) {
  Tenant t{registerUser(tag), 0, {}};
  t.orgId = t.user.personalOrgId;
  if (t.orgId <= 0)
    throw std::runtime_error("registration did not name a personal organization: " + toJson(t.user.registration));
  t.http = t.user.http.withHeader("x-tenant-id", std::to_string(t.orgId));
  return t;
}

std::int64_t EventsTest::createApp(const Tenant& t, const std::string& name) {
  auto r = t.http.post("/apps", obj({{"name", name.empty() ? "app-" + unique() : name}}));
  if (r.status != 201) throw std::runtime_error("create app failed: " + r.describe());
  return intField(r.object(), "id");
}

std::int64_t EventsTest::createChannel(const Tenant& t, std::int64_t appId, const std::string& name) {
  auto r = t.http.post("/apps/" + std::to_string(appId) + "/channels",
                       obj({{"name", name.empty() ? "channel-" + unique() : name}}));
  if (r.status != 201) throw std::runtime_error("create channel failed: " + r.describe());
  return intField(r.object(), "id");
}

std::int64_t EventsTest::newChannel(const Tenant& t) { return createChannel(t, createApp(t)); }

Poco::JSON::Object::Ptr EventsTest::eventBody(std::int64_t channelId, const std::string& identifier,
                                              Poco::JSON::Object::Ptr payload, Poco::JSON::Object::Ptr extra) {
  auto body =
      obj({{"identifier", identifier}, {"payload", payload ? payload : obj({{"n", 1}})}, {"channel_id", channelId}});
  if (extra)
    for (const auto& [k, v] : *extra) body->set(k, v);
  return body;
}

Poco::JSON::Object::Ptr EventsTest::publish(const HttpClient& http, std::int64_t channelId,
                                            const std::string& identifier, Poco::JSON::Object::Ptr payload,
                                            Poco::JSON::Object::Ptr extra) {
  auto r = http.post("/event", eventBody(channelId, identifier, std::move(payload), std::move(extra)));
  if (r.status != 201) throw std::runtime_error("publish failed: " + r.describe());
  return r.object();
}

std::vector<std::int64_t> EventsTest::publishMany(const HttpClient& http, std::int64_t channelId, int n,
                                                  const std::string& prefix) {
  std::vector<std::int64_t> ids;
  for (int i = 0; i < n; ++i)
    ids.push_back(intField(publish(http, channelId, prefix + "-" + std::to_string(i), obj({{"i", i}})), "id"));
  return ids;
}

ApiKey EventsTest::createKey(const Tenant& t, std::vector<std::string> scopes) {
  Poco::JSON::Array::Ptr list = new Poco::JSON::Array;
  for (const auto& s : scopes) list->add(s);
  auto r = t.user.http.post("/api-keys", obj({{"name", "key-" + unique()}, {"scopes", list}}));
  if (r.status != 201) throw std::runtime_error("create API key failed: " + r.describe());
  return {intField(r.object(), "id"), strField(r.object(), "key")};
}

std::unique_ptr<SseStream> EventsTest::subscribe(const std::string& path, const Headers& headers, int receiveBuffer) {
  auto s = std::make_unique<SseStream>("127.0.0.1", daemon().port());
  s->start(path, headers, receiveBuffer);
  if (s->waitHead(kWait) && s->status() == 200 && s->isEventStream())
    s->waitUntil([&] { return !s->parser().retries.empty(); }, kWait);
  else if (s->headReceived())
    s->readResponse(kWait);  // the problem body
  return s;
}

std::string EventsTest::subscribePath(std::int64_t channelId, const std::string& query) {
  return "/channel/" + std::to_string(channelId) + "/subscribe" + (query.empty() ? "" : "?" + query);
}

std::vector<std::pair<std::int64_t, std::string>> EventsTest::listEvents(const HttpClient& http,
                                                                         std::int64_t channelId) {
  std::vector<std::pair<std::int64_t, std::string>> events;
  for (int page = 1;; ++page) {
    auto r = http.get("/event/" + std::to_string(channelId) + "/list?limit=100&page=" + std::to_string(page));
    if (r.status != 200) throw std::runtime_error("list failed: " + r.describe());
    auto data = objects(r.object()->getArray("data"));
    for (const auto& e : data) events.emplace_back(intField(e, "id"), strField(e, "identifier"));
    if (data.size() < 100) break;
  }
  return events;
}

std::vector<std::int64_t> EventsTest::listIds(const HttpClient& http, std::int64_t channelId) {
  std::vector<std::int64_t> ids;
  for (const auto& [id, identifier] : listEvents(http, channelId)) ids.push_back(id);
  return ids;
}

std::int64_t EventsTest::listTotal(const HttpClient& http, std::int64_t channelId) {
  auto r = http.get("/event/" + std::to_string(channelId) + "/list?limit=1");
  if (r.status != 200) throw std::runtime_error("list failed: " + r.describe());
  return intField(r.object()->getObject("meta"), "total");
}

::testing::AssertionResult IsStreamOpen(const SseStream& s) {
  if (!s.headReceived()) return ::testing::AssertionFailure() << "no response head: " << s.describe();
  if (s.status() != 200) return ::testing::AssertionFailure() << "expected 200: " << s.describe();
  if (!s.isEventStream())
    return ::testing::AssertionFailure() << "Content-Type is not text/event-stream: " << s.describe();
  if (s.parser().retries.empty()) return ::testing::AssertionFailure() << "no retry: line: " << s.describe();
  if (s.closed()) return ::testing::AssertionFailure() << "the stream is closed: " << s.describe();
  return ::testing::AssertionSuccess();
}

std::vector<std::int64_t> idsOf(const std::vector<SseMessage>& messages) {
  std::vector<std::int64_t> ids;
  for (const auto& m : messages) ids.push_back(m.numericId());
  return ids;
}

std::vector<SseMessage> readThrough(SseStream& s, std::int64_t lastId, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::vector<SseMessage> out;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    auto m = s.next(std::max(left, 0ms));
    if (!m) break;
    out.push_back(*m);
    if (m->id && m->numericId() == lastId) break;
  }
  return out;
}

std::string withoutKeepAlives(std::string body) {
  const std::string ka = ": keep-alive\n\n";
  for (auto pos = body.find(ka); pos != std::string::npos; pos = body.find(ka, pos)) body.erase(pos, ka.size());
  return body;
}

std::string joinIds(const std::vector<std::int64_t>& ids) {
  std::string s = "[";
  for (std::size_t i = 0; i < ids.size(); ++i) s += (i ? "," : "") + std::to_string(ids[i]);
  return s + "]";
}

}  // namespace aev::testing
