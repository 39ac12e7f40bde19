// Text no store can hold, sent anywhere a client can put text: a NUL (%00 in a path or a
// query, \u0000 in JSON) and ill-formed UTF-8 (%FF, raw 0xFF bytes in a body or a
// header). Each request is the same 400 on SQLite and PostgreSQL, decided before the store
// is touched (a PostgreSQL text column refuses both, so a check after the store is a 500
// there), and every answer is well-formed UTF-8 JSON: a problem never quotes a client's
// bytes back raw. The daemon logs in JSON here, and its log must stay valid UTF-8 JSON
// lines too.
#include <gtest/gtest.h>

#include <sstream>

#include "events_support.h"
#include "support/backend.h"

namespace aev::testing {
namespace {

// Well-formed UTF-8 (RFC 3629), written here independently of the daemon's own check.
bool strictUtf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    std::uint32_t cp = n == 1 ? c : c & (0x7F >> n);
    for (std::size_t k = 1; k < n; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    static const std::uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += n;
  }
  return true;
}

::testing::AssertionResult IsUtf8Json(const std::string& text) {
  if (!strictUtf8(text)) return ::testing::AssertionFailure() << "not valid UTF-8: " << ::testing::PrintToString(text);
  try {
    parseJson(text);
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "not JSON (" << e.what() << "): " << text;
  }
  return ::testing::AssertionSuccess();
}

struct HostileRequest {
  HostileRequest(std::string what, std::string method, std::string path, std::optional<std::string> body = {},
                 Headers headers = {}, int status = 400, bool problem = true)
      : what(std::move(what)),
        method(std::move(method)),
        path(std::move(path)),
        body(std::move(body)),
        headers(std::move(headers)),
        status(status),
        problem(problem) {}
  std::string what;
  std::string method;
  std::string path;  // {ch} and {app} are replaced by a channel's and its app's ids
  std::optional<std::string> body;
  Headers headers;
  int status;
  bool problem;  // false: OTLP answers in its own status format (google.rpc.Status)
};

std::string withIds(std::string text, std::int64_t app, std::int64_t ch) {
  for (const auto& [key, value] : {std::pair<std::string, std::int64_t>{"{ch}", ch}, {"{app}", app}})
    for (auto at = text.find(key); at != std::string::npos; at = text.find(key))
      text.replace(at, key.size(), std::to_string(value));
  return text;
}

std::vector<HostileRequest> hostileRequests() {
  const std::string ff = "\xFF";
  const std::string otlpNul =
      R"({"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"0af7651916cd43dd8448eb211c80319c",)"
      R"("spanId":"b7ad6b7169203331","name":"a\u0000b","startTimeUnixNano":"1","endTimeUnixNano":"2"}]}]}]})";
  return {
      // Ill-formed UTF-8 and NUL in percent-decoded path segments.
      {"%FF in a path identifier", "GET", "/channel/{ch}/%FF/subscribe"},
      {"%00 in a path identifier", "GET", "/channel/{ch}/a%00b/subscribe"},
      {"%00 in a trace id", "GET", "/traces/ab%00cd/summary"},
      {"a surrogate in a trace id", "GET", "/traces/%ED%A0%80/events"},
      {"%00 in an id segment", "GET", "/apps/1%00"},
      {"%FF in a webhook endpoint id", "POST", "/webhooks/ingest/%FF", std::string("{}")},
      // ... in query names and values.
      {"%FF as a limit", "GET", "/event/{ch}/list?limit=%FF"},
      {"%00 in a list filter", "GET", "/event/{ch}/list?agent_id=a%00b"},
      {"a truncated sequence in a filter", "GET", "/event/{ch}/list?event_type=%C3"},
      {"%00 in last_event_id", "GET", "/channel/{ch}/subscribe?last_event_id=%00"},
      {"%00 in a trace filter", "GET", "/traces?agent=%00"},
      {"%FF in an audit filter", "GET", "/audit-logs?action=%FF"},
      {"%00 in an analytics dimension", "GET", "/analytics/breakdown?dimension=%00"},
      {"%00 in a query parameter name", "GET", "/apps?x%00=1"},
      // ... in header values used as values.
      {"0xFF in Last-Event-ID", "GET", "/channel/{ch}/subscribe", std::nullopt, {{"Last-Event-ID", ff}}},
      {"0xFF in X-Tenant-Id", "GET", "/apps", std::nullopt, {{"X-Tenant-Id", "1" + ff}}},
      {"0xFF in X-Channel-Id", "POST", "/v1/traces", std::string(R"({"resourceSpans":[]})"), {{"X-Channel-Id", ff}}},
      // ... in JSON bodies: \u0000 and raw ill-formed bytes, in every kind of stored field.
      {"\\u0000 in an event identifier", "POST", "/event",
       std::string(R"({"channel_id":{ch},"identifier":"a\u0000b","payload":{}})")},
      {"\\u0000 in a payload value", "POST", "/event",
       std::string(R"({"channel_id":{ch},"identifier":"x","payload":{"k":"\u0000"}})")},
      {"\\u0000 in a metadata name", "POST", "/event",
       std::string(R"({"channel_id":{ch},"identifier":"x","payload":{},"metadata":{"\u0000":1}})")},
      {"0xFF in an event identifier", "POST", "/event",
       std::string(R"({"channel_id":{ch},"identifier":"a)" + ff + R"(","payload":{}})")},
      {"\\u0000 in a batch", "POST", "/events/batch",
       std::string(R"({"events":[{"channel_id":{ch},"identifier":"\u0000","payload":{}}]})")},
      {"\\u0000 in an app name", "POST", "/apps", std::string(R"({"name":"a\u0000"})")},
      {"0xFF in an app name", "PATCH", "/apps/{app}", std::string(R"({"name":")" + ff + R"("})")},
      {"\\u0000 in a channel name", "POST", "/apps/{app}/channels", std::string(R"({"name":"\u0000"})")},
      {"\\u0000 in a webhook URL", "POST", "/webhooks/endpoints",
       std::string(R"({"url":"https://example.com/\u0000","channelId":{ch}})")},
      {"\\u0000 in a moderation rule", "POST", "/moderation/rules",
       std::string(R"({"name":"r\u0000","action":"flag","detector":"regex","pattern":"x"})")},
      {"\\u0000 in a login", "POST", "/auth/login", std::string(R"({"login":"a\u0000","password":"x"})")},
      {"\\u0000 in an OTLP span name", "POST", "/v1/traces", otlpNul, {{"X-Channel-Id", "{ch}"}}, 400, false},
      // Not found, but its problem names the path: it must not carry the raw byte.
      {"%FF in an unknown path", "GET", "/no-such-route/%FF", std::nullopt, {}, 404},
  };
}

class HostileText : public EventsTest {
 public:
  static void SetUpTestSuite() { startDaemon(options({{"log.format", "json"}})); }
};

TEST_F(HostileText, TextNoStoreCanHoldIsThe400OfEveryStoreAndEveryAnswerIsUtf8Json) {
  auto t = newTenant("hostile");
  const auto app = createApp(t);
  const auto ch = createChannel(t, app);
  for (const auto& c : hostileRequests()) {
    SCOPED_TRACE(c.what + " on " + currentBackendName());
    Headers headers;
    for (const auto& [name, value] : c.headers) headers.emplace_back(name, withIds(value, app, ch));
    const auto body = c.body ? std::optional<std::string>(withIds(*c.body, app, ch)) : std::nullopt;
    const auto r = t.http.request(c.method, withIds(c.path, app, ch), body, headers);
    EXPECT_EQ(r.status, c.status) << r.describe();
    EXPECT_TRUE(IsUtf8Json(r.body));
    if (c.problem) {
      EXPECT_TRUE(IsProblem(r, c.status));
    }
  }
  // Nothing was stored: the channel has no event, the app kept its name.
  EXPECT_EQ(listTotal(t.http, ch), 0);
  const auto appNow = t.http.get("/apps/" + std::to_string(app));
  ASSERT_STATUS(appNow, 200);
  EXPECT_TRUE(strictUtf8(strField(appNow.object(), "name")));
}

TEST_F(HostileText, WhatIsStorableStillWorksAndReadsBackTheSame) {
  // The other side of the rule: well-formed non-ASCII text and escaped control
  // characters other than NUL are stored and answered unchanged on both stores.
  auto t = newTenant("hostile-ok");
  const auto ch = newChannel(t);
  const std::string text = "caf\xC3\xA9 \xE4\xB8\xAD \xF0\x9F\x98\x80 \x01";
  auto stored = publish(t.http, ch, "id-\xC3\xA9", obj({{"t", text}}));
  EXPECT_EQ(strField(stored, "identifier"), "id-\xC3\xA9");
  const auto list = t.http.get("/event/" + std::to_string(ch) + "/list");
  ASSERT_STATUS(list, 200);
  EXPECT_TRUE(IsUtf8Json(list.body));
  const auto events = listOf(list);
  ASSERT_EQ(events->size(), 1u) << list.body;
  EXPECT_EQ(events->getObject(0)->getObject("payload")->getValue<std::string>("t"), text);
  const auto traces = t.http.get("/traces?agent=caf%C3%A9");  // a decoded filter that is well formed
  EXPECT_EQ(traces.status, 200) << traces.describe();
}

TEST_F(HostileText, TheJsonLogStaysUtf8JsonWhateverARequestCarried) {
  auto t = newTenant("hostile-log");
  // Raw bytes in the request target: the access log line names the path.
  t.http.get("/no-such-route/\xFF\xC3");
  t.http.get("/apps?q=%FF", {{"X-Request-Id", "\xFF\xFE"}});
  std::istringstream lines(daemon().log());
  std::string line;
  int count = 0;
  while (std::getline(lines, line)) {
    if (line.empty() || line.front() != '{') continue;  // only the daemon's JSON lines
    ++count;
    EXPECT_TRUE(IsUtf8Json(line));
  }
  EXPECT_GT(count, 3);
}

}  // namespace
}  // namespace aev::testing
