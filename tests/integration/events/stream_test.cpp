// Live streams (docs/api.md#streaming-and-resume), read by the raw SSE client:
// framing byte for byte, ordering, filters and the identifier path, resume with
// Last-Event-ID / ?last_event_id= (also while publishes keep coming), `event: reset` for
// an unknown id, streams ended by deleting the channel or app, revoking the key or
// removing the member, who may subscribe, stream tokens, keep-alives and CORS.
#include <Poco/DateTimeFormat.h>
#include <Poco/DateTimeParser.h>
#include <Poco/String.h>
#include <Poco/Timestamp.h>
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <mutex>
#include <thread>

#include "events_support.h"

namespace aev::testing {
namespace {

std::string canonical(const Poco::Dynamic::Var& v) { return toJson(parseJson(toJson(v))); }

std::int64_t epochSeconds(const std::string& rfc3339) {
  int tzd = 0;
  return Poco::DateTimeParser::parse(Poco::DateTimeFormat::ISO8601_FRAC_FORMAT, rfc3339, tzd).timestamp().epochTime();
}

std::int64_t nowSeconds() { return Poco::Timestamp().epochTime(); }

Headers auth(const Tenant& t) { return {{"Authorization", t.bearer()}}; }
Headers keyAuth(const ApiKey& k) { return {{"X-API-Key", k.key}}; }

class StreamApi : public EventsTest {};

// ---------------------------------------------------------------- framing and order

TEST_F(StreamApi, FramingIsIdDataBlankLineWithTheEventOnOneLine) {
  auto t = newTenant("frame");
  const auto ch = newChannel(t);
  auto s = subscribe(subscribePath(ch), auth(t));
  ASSERT_TRUE(IsStreamOpen(*s));
  const auto& head = s->response();
  EXPECT_EQ(Poco::toLower(head.header("Connection")), "close");
  EXPECT_EQ(head.contentType().rfind("text/event-stream", 0), 0u);
  EXPECT_FALSE(head.hasHeader("Content-Length")) << "a stream has no length";
  EXPECT_FALSE(head.hasHeader("Transfer-Encoding")) << "frames must not be wrapped in chunks";
  EXPECT_EQ(head.header("Cache-Control"), "no-cache");
  EXPECT_FALSE(head.header("X-Request-Id").empty());
  EXPECT_EQ(s->body(), "retry: 3000\n\n");  // sent once, first
  EXPECT_EQ(s->parser().retries, std::vector<std::string>{"3000"});

  // Newlines, quotes, backslashes, a forged frame, non-ASCII: all inside one data line.
  auto payload = obj({{"text", "line one\nline two\r\nline three\rend"},
                      {"quote", "she said \"hi\" \\o/"},
                      {"forged", "\n\ndata: forged\nid: 1\n\n"},
                      {"unicode", "\xC5\xBC\xC3\xB3\xC5\x82\xC4\x87 \xE2\x98\x83 \xF0\x9F\x98\x80"},
                      {"control", std::string("tab\there, nul-free \x01 byte")},
                      {"html", "</script><script>alert(1)</script>"}});
  auto e1 = publish(t.http, ch, "framing \"test\"", payload, obj({{"metadata", obj({{"note", "a\nb"}})}}));
  auto e2 = publish(t.http, ch, "second", obj({{"n", 2}}));
  auto messages = s->take(2, kWait);
  ASSERT_EQ(messages.size(), 2u) << s->describe();
  const std::vector<Poco::JSON::Object::Ptr> published = {e1, e2};
  std::string expectedBody = "retry: 3000\n\n";
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& m = messages[i];
    const auto id = intField(published[i], "id");
    EXPECT_EQ(m.event, "");
    EXPECT_EQ(m.dataLines, 1u) << m.raw;
    EXPECT_EQ(m.data.find_first_of("\r\n"), std::string::npos) << m.raw;
    EXPECT_EQ(m.raw, "id: " + std::to_string(id) + "\ndata: " + m.data + "\n\n");
    EXPECT_EQ(m.numericId(), id);
    EXPECT_EQ(canonical(m.json()), canonical(published[i])) << "the streamed event differs from the 201 body";
    expectedBody += m.raw;
  }
  EXPECT_EQ(canonical(messages[0].json()->get("payload")), canonical(payload));
  // Nothing else on the wire (no stray bytes between frames).
  EXPECT_EQ(withoutKeepAlives(s->body()), expectedBody);
  EXPECT_EQ(s->parser().lastEventId, std::to_string(intField(e2, "id")));
}

TEST_F(StreamApi, EverySubscriberGetsEveryEventInPublishOrder) {
  auto t = newTenant("order");
  const auto ch = newChannel(t);
  auto key = createKey(t, {"subscribe"});
  auto viaBearer = subscribe(subscribePath(ch), auth(t));
  auto viaKey = subscribe(subscribePath(ch), keyAuth(key));
  ASSERT_TRUE(IsStreamOpen(*viaBearer));
  ASSERT_TRUE(IsStreamOpen(*viaKey));

  auto published = publishMany(t.http, ch, 10, "single");
  Poco::JSON::Array::Ptr batch = new Poco::JSON::Array;
  for (int i = 0; i < 30; ++i) batch->add(eventBody(ch, "batched-" + std::to_string(i)));
  auto r = t.http.post("/events/batch", obj({{"events", batch}}));
  ASSERT_STATUS(r, 200);
  for (const auto& res : objects(r.object()->getArray("results"))) published.push_back(intField(res, "id"));

  for (auto* s : {viaBearer.get(), viaKey.get()}) {
    auto got = readThrough(*s, published.back());
    EXPECT_EQ(idsOf(got), published) << s->describe();
  }
  // A subscriber that joins now sees only what comes next (no replay without an id).
  auto late = subscribe(subscribePath(ch), auth(t));
  ASSERT_TRUE(IsStreamOpen(*late));
  const auto next = intField(publish(t.http, ch, "after-join"), "id");
  auto got = late->take(1, kWait);
  EXPECT_EQ(idsOf(got), std::vector<std::int64_t>{next}) << late->describe();
}

// ---------------------------------------------------------------- filters

struct Published {
  std::int64_t id;
  std::string agent, type, trace, identifier;
};

TEST_F(StreamApi, FiltersCombineWithAndAndWithTheIdentifierPath) {
  auto t = newTenant("filters");
  const auto ch = newChannel(t);
  const auto chs = std::to_string(ch);
  struct Sub {
    std::string name, path;
    std::function<bool(const Published&)> wants;
    std::unique_ptr<SseStream> stream;
  };
  std::vector<Sub> subs;
  auto add = [&](std::string name, std::string path, std::function<bool(const Published&)> wants) {
    subs.push_back({std::move(name), std::move(path), std::move(wants), nullptr});
  };
  add("agent", subscribePath(ch, "agent_id=a1"), [](const Published& p) { return p.agent == "a1"; });
  add("type", subscribePath(ch, "event_type=agent.error"), [](const Published& p) { return p.type == "agent.error"; });
  add("trace", subscribePath(ch, "trace_id=t1"), [](const Published& p) { return p.trace == "t1"; });
  add("all three", subscribePath(ch, "agent_id=a1&event_type=agent.error&trace_id=t1"),
      [](const Published& p) { return p.agent == "a1" && p.type == "agent.error" && p.trace == "t1"; });
  add("identifier path", "/channel/" + chs + "/tool/subscribe",
      [](const Published& p) { return p.identifier == "tool"; });
  add("identifier path + agent", "/channel/" + chs + "/tool/subscribe?agent_id=a1",
      [](const Published& p) { return p.identifier == "tool" && p.agent == "a1"; });
  add("none", subscribePath(ch), [](const Published&) { return true; });
  for (auto& s : subs) {
    s.stream = subscribe(s.path, auth(t));
    ASSERT_TRUE(IsStreamOpen(*s.stream)) << s.name;
  }
  auto nobody = subscribe(subscribePath(ch, "agent_id=nobody"), auth(t));
  ASSERT_TRUE(IsStreamOpen(*nobody));

  std::vector<Published> published;
  for (int i = 0; i < 24; ++i) {
    Published p{0, i % 2 ? "a2" : "a1", (i / 2) % 2 ? "agent.error" : "agent.start",
                "t" + std::to_string(1 + (i / 4) % 3), i % 3 == 0 ? "tool" : "msg"};
    auto e = publish(t.http, ch, p.identifier, obj({{"i", i}}),
                     obj({{"agentId", p.agent}, {"eventType", p.type}, {"traceId", p.trace}}));
    p.id = intField(e, "id");
    published.push_back(p);
  }
  // The last one matches every filter, so each stream can be read up to it.
  Published last{0, "a1", "agent.error", "t1", "tool"};
  last.id = intField(
      publish(t.http, ch, "tool", obj({}), obj({{"agentId", "a1"}, {"eventType", "agent.error"}, {"traceId", "t1"}})),
      "id");
  published.push_back(last);

  for (auto& s : subs) {
    std::vector<std::int64_t> expected;
    for (const auto& p : published)
      if (s.wants(p)) expected.push_back(p.id);
    auto got = readThrough(*s.stream, last.id);
    EXPECT_EQ(idsOf(got), expected) << s.name << ": " << s.stream->describe();
    for (const auto& m : got) {
      auto e = m.json();
      if (s.name == "agent") {
        EXPECT_EQ(strField(e, "agentId"), "a1");
      } else if (s.name == "type") {
        EXPECT_EQ(strField(e, "eventType"), "agent.error");
      } else if (s.name == "trace") {
        EXPECT_EQ(strField(e, "traceId"), "t1");
      } else if (s.name == "identifier path") {
        EXPECT_EQ(strField(e, "identifier"), "tool");
      }
    }
  }
  // The filter nobody matches delivered nothing (the others are done, so it had its turn).
  EXPECT_FALSE(nobody->waitUntil([&] { return nobody->messageCount() > 0; }, 300ms)) << nobody->describe();
}

// The end user (metadata.user) filters the channel's list, the replay after Last-Event-ID
// and the live events alike: what a live tail filtered by user loads, then follows.
TEST_F(StreamApi, TheEndUserFilterAppliesToTheListTheReplayAndTheLiveStream) {
  auto t = newTenant("enduser");
  const auto ch = newChannel(t);
  const auto path = "/event/" + std::to_string(ch) + "/list";
  const auto as = [](const std::string& user) { return obj({{"metadata", obj({{"user", user}})}}); };
  std::vector<std::int64_t> mine;
  const auto first = intField(publish(t.http, ch, "start"), "id");
  for (int i = 0; i < 6; ++i) {
    auto id =
        intField(publish(t.http, ch, "e" + std::to_string(i), nullptr, i % 3 == 0 ? as("maria") : as("lee")), "id");
    if (i % 3 == 0) mine.push_back(id);
    publish(t.http, ch, "anon" + std::to_string(i));
  }
  // The list: newest first, counted; a user nobody is gives nothing; combined with AND.
  auto listed = t.http.get(path + "?user=maria");
  ASSERT_STATUS(listed, 200);
  std::vector<std::int64_t> ids;
  for (const auto& e : objects(listOf(listed))) ids.push_back(intField(e, "id"));
  EXPECT_EQ(ids, (std::vector<std::int64_t>{mine[1], mine[0]}));
  EXPECT_EQ(intField(listed.object()->getObject("meta"), "total"), 2);
  EXPECT_EQ(intField(t.http.get(path + "?user=nobody").object()->getObject("meta"), "total"), 0);
  EXPECT_EQ(intField(t.http.get(path + "?user=lee&eventType=agent.message").object()->getObject("meta"), "total"), 0);
  EXPECT_EQ(intField(t.http.get(path + "?user=lee").object()->getObject("meta"), "total"), 4);

  // The stream: the replay after the first event holds only maria's, then her live ones.
  auto h = auth(t);
  h.emplace_back("Last-Event-ID", std::to_string(first));
  auto s = subscribe(subscribePath(ch, "user=maria"), h);
  ASSERT_TRUE(IsStreamOpen(*s));
  publish(t.http, ch, "live-lee", nullptr, as("lee"));
  mine.push_back(intField(publish(t.http, ch, "live-maria", nullptr, as("maria")), "id"));
  auto got = readThrough(*s, mine.back());
  EXPECT_EQ(idsOf(got), mine) << s->describe();
  for (const auto& m : got) EXPECT_EQ(strField(m.json()->getObject("metadata"), "user"), "maria");
}

TEST_F(StreamApi, IdentifierPathSegmentIsPercentDecoded) {
  auto t = newTenant("ident");
  const auto ch = newChannel(t);
  auto s = subscribe("/channel/" + std::to_string(ch) + "/tool%20call%20%C3%A9/subscribe", auth(t));
  ASSERT_TRUE(IsStreamOpen(*s));
  publish(t.http, ch, "tool call");
  const auto wanted = intField(publish(t.http, ch, "tool call \xC3\xA9"), "id");
  auto got = s->take(1, kWait);
  EXPECT_EQ(idsOf(got), std::vector<std::int64_t>{wanted}) << s->describe();
}

// ---------------------------------------------------------------- resume

TEST_F(StreamApi, ResumeAfterDisconnectDeliversEverythingOnceInOrder) {
  auto t = newTenant("resume");
  const auto ch = newChannel(t);
  auto first = subscribe(subscribePath(ch), auth(t));
  ASSERT_TRUE(IsStreamOpen(*first));
  auto before = publishMany(t.http, ch, 3, "before");
  auto got = first->take(3, kWait);
  ASSERT_EQ(idsOf(got), before) << first->describe();
  first->close();

  auto missed = publishMany(t.http, ch, 5, "missed");  // while nobody listens

  // Header form.
  Headers h = auth(t);
  h.emplace_back("Last-Event-ID", std::to_string(before.back()));
  auto second = subscribe(subscribePath(ch), h);
  ASSERT_TRUE(IsStreamOpen(*second));
  auto replayed = second->take(5, kWait);
  EXPECT_EQ(idsOf(replayed), missed) << second->describe();
  for (const auto& m : replayed) EXPECT_EQ(m.event, "");
  auto live = publishMany(t.http, ch, 2, "live");
  EXPECT_EQ(idsOf(second->take(2, kWait)), live) << second->describe();

  // Query form, from the same point: the replay now covers missed + live.
  auto third = subscribe(subscribePath(ch, "last_event_id=" + std::to_string(before.back())), auth(t));
  ASSERT_TRUE(IsStreamOpen(*third));
  std::vector<std::int64_t> expected = missed;
  expected.insert(expected.end(), live.begin(), live.end());
  EXPECT_EQ(idsOf(readThrough(*third, expected.back())), expected) << third->describe();

  // Resuming from the newest id replays nothing; the next event arrives once.
  Headers atHead = auth(t);
  atHead.emplace_back("Last-Event-ID", std::to_string(live.back()));
  auto fourth = subscribe(subscribePath(ch), atHead);
  ASSERT_TRUE(IsStreamOpen(*fourth));
  const auto next = intField(publish(t.http, ch, "next"), "id");
  EXPECT_EQ(idsOf(fourth->take(1, kWait)), std::vector<std::int64_t>{next}) << fourth->describe();
  // ... and so do the others, exactly once.
  EXPECT_EQ(idsOf(second->take(1, kWait)), std::vector<std::int64_t>{next});
  EXPECT_EQ(idsOf(third->take(1, kWait)), std::vector<std::int64_t>{next});
  EXPECT_FALSE(fourth->waitUntil([&] { return !fourth->parser().messages.empty(); }, 200ms)) << fourth->describe();
}

TEST_F(StreamApi, ReplayHonoursFiltersAndTheIdentifierPath) {
  auto t = newTenant("replayfilter");
  const auto ch = newChannel(t);
  const auto start = intField(publish(t.http, ch, "start"), "id");
  std::vector<std::int64_t> agentA, tool;
  for (int i = 0; i < 10; ++i) {
    const std::string agent = i % 2 ? "b" : "a";
    const std::string identifier = i % 3 ? "msg" : "tool";
    const auto id = intField(publish(t.http, ch, identifier, obj({{"i", i}}), obj({{"agentId", agent}})), "id");
    if (agent == "a") agentA.push_back(id);
    if (identifier == "tool") tool.push_back(id);
  }
  Headers h = auth(t);
  h.emplace_back("Last-Event-ID", std::to_string(start));
  auto byAgent = subscribe(subscribePath(ch, "agent_id=a"), h);
  auto byIdentifier = subscribe("/channel/" + std::to_string(ch) + "/tool/subscribe", h);
  ASSERT_TRUE(IsStreamOpen(*byAgent));
  ASSERT_TRUE(IsStreamOpen(*byIdentifier));
  EXPECT_EQ(idsOf(byAgent->take(agentA.size(), kWait)), agentA) << byAgent->describe();
  EXPECT_EQ(idsOf(byIdentifier->take(tool.size(), kWait)), tool) << byIdentifier->describe();
}

TEST_F(StreamApi, ResumeWhilePublishingNeverLosesOrRepeats) {
  auto t = newTenant("resumerace");
  const auto ch = newChannel(t);
  auto key = createKey(t, {"publish"});
  constexpr int kEvents = 150;

  std::mutex mutex;
  std::vector<std::int64_t> published;
  std::atomic<bool> publisherDone{false};
  std::string publisherError;
  std::thread publisher;
  struct Joiner {
    std::thread& t;
    ~Joiner() {
      if (t.joinable()) t.join();
    }
  } joiner{publisher};
  auto first = subscribe(subscribePath(ch), auth(t));
  ASSERT_TRUE(IsStreamOpen(*first));
  publisher = std::thread([&] {
    auto http = anon().withApiKey(key.key);
    try {
      for (int i = 0; i < kEvents; ++i) {
        auto id = intField(publish(http, ch, "race-" + std::to_string(i), obj({{"i", i}})), "id");
        std::lock_guard lock(mutex);
        published.push_back(id);
      }
    } catch (const std::exception& e) {
      std::lock_guard lock(mutex);
      publisherError = e.what();
    }
    publisherDone = true;
  });

  // Read a few, drop the connection, resume from the last id seen; again and again while
  // the publisher keeps committing (replay and live meet many times).
  std::vector<std::int64_t> received;
  std::unique_ptr<SseStream> s = std::move(first);
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  int reconnects = 0;
  for (int round = 0; std::chrono::steady_clock::now() < deadline; ++round) {
    const std::size_t want = 1 + (round * 7) % 13;
    for (const auto& m : s->take(want, 2s)) {
      ASSERT_EQ(m.event, "") << "unexpected " << m.raw;
      received.push_back(m.numericId());
    }
    {
      std::lock_guard lock(mutex);
      if (publisherDone && !published.empty() && !received.empty() && received.back() == published.back()) break;
      if (publisherDone && !publisherError.empty()) break;
    }
    s->close();
    Headers h = auth(t);
    if (!received.empty()) h.emplace_back("Last-Event-ID", std::to_string(received.back()));
    s = subscribe(subscribePath(ch), h);
    ASSERT_TRUE(IsStreamOpen(*s)) << "reconnect " << reconnects;
    ++reconnects;
  }
  publisher.join();
  ASSERT_EQ(publisherError, "");
  EXPECT_GT(reconnects, 10);
  EXPECT_EQ(received.size(), published.size());
  EXPECT_EQ(received, published) << "received " << joinIds(received) << "\npublished " << joinIds(published);
}

TEST_F(StreamApi, ResumeWithConcurrentPublishersFollowsTheChannelSequence) {
  auto t = newTenant("resumeconc");
  const auto ch = newChannel(t);
  auto key = createKey(t, {"publish"});
  constexpr int kThreads = 4, kRequests = 30;  // every third request a batch of 5

  std::mutex mutex;
  std::vector<std::vector<std::int64_t>> byThread(kThreads);
  std::atomic<int> running{kThreads};
  std::string error;
  std::vector<std::thread> publishers;
  struct Joiner {
    std::vector<std::thread>& ts;
    ~Joiner() {
      for (auto& th : ts)
        if (th.joinable()) th.join();
    }
  } joiner{publishers};
  auto s = subscribe(subscribePath(ch), auth(t));
  ASSERT_TRUE(IsStreamOpen(*s));
  for (int k = 0; k < kThreads; ++k) {
    publishers.emplace_back([&, k] {
      auto http = anon().withApiKey(key.key);
      try {
        for (int i = 0; i < kRequests; ++i) {
          std::vector<std::int64_t> ids;
          if (i % 3 == 2) {
            Poco::JSON::Array::Ptr events = new Poco::JSON::Array;
            for (int j = 0; j < 5; ++j) events->add(eventBody(ch, "t" + std::to_string(k), obj({{"i", i}, {"j", j}})));
            auto r = http.post("/events/batch", obj({{"events", events}}));
            if (r.status != 200 || intField(r.object(), "stored") != 5) throw std::runtime_error(r.describe());
            for (const auto& res : objects(r.object()->getArray("results"))) ids.push_back(intField(res, "id"));
          } else {
            ids.push_back(intField(publish(http, ch, "t" + std::to_string(k), obj({{"i", i}})), "id"));
          }
          std::lock_guard lock(mutex);
          byThread[k].insert(byThread[k].end(), ids.begin(), ids.end());
        }
      } catch (const std::exception& e) {
        std::lock_guard lock(mutex);
        error = e.what();
      }
      --running;
    });
  }
  const std::size_t total = kThreads * (kRequests / 3 * 2 + kRequests / 3 * 5);

  std::vector<std::int64_t> received;
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  int reconnects = 0;
  for (int round = 0; std::chrono::steady_clock::now() < deadline; ++round) {
    for (const auto& m : s->take(1 + (round * 5) % 17, 2s)) {
      ASSERT_EQ(m.event, "") << "unexpected " << m.raw;
      received.push_back(m.numericId());
    }
    if (received.size() >= total && running == 0) break;
    {
      std::lock_guard lock(mutex);
      if (!error.empty()) break;
    }
    s->close();
    Headers h = auth(t);
    if (!received.empty()) h.emplace_back("Last-Event-ID", std::to_string(received.back()));
    s = subscribe(subscribePath(ch), h);
    ASSERT_TRUE(IsStreamOpen(*s)) << "reconnect " << reconnects;
    ++reconnects;
  }
  for (auto& th : publishers) th.join();
  ASSERT_EQ(error, "");
  EXPECT_GT(reconnects, 10);
  // Exactly the channel's sequence (the list is newest first by that sequence).
  auto listed = listIds(t.http, ch);
  ASSERT_EQ(listed.size(), total);
  std::vector<std::int64_t> sequence(listed.rbegin(), listed.rend());
  EXPECT_EQ(received, sequence) << "received " << joinIds(received) << "\nsequence " << joinIds(sequence);
  // And each publisher's events in the order it got its answers.
  for (int k = 0; k < kThreads; ++k) {
    std::vector<std::int64_t> mine;
    for (auto id : received)
      if (std::find(byThread[k].begin(), byThread[k].end(), id) != byThread[k].end()) mine.push_back(id);
    EXPECT_EQ(mine, byThread[k]) << "publisher " << k;
  }
}

TEST_F(StreamApi, UnknownLastEventIdIsAnsweredWithAReset) {
  auto t = newTenant("reset");
  auto stranger = newTenant("reset-stranger");
  const auto ch = newChannel(t);
  const auto otherCh = newChannel(t);
  const auto otherChannelsEvent = intField(publish(t.http, otherCh, "elsewhere"), "id");
  const auto foreignEvent = intField(publish(stranger.http, newChannel(stranger), "foreign"), "id");
  publishMany(t.http, ch, 3, "old");

  auto newest = [&] { return listIds(t.http, ch).front(); };
  const std::vector<std::pair<std::string, bool>> unknown = {{"999999999", true},
                                                             {std::to_string(otherChannelsEvent), true},
                                                             {std::to_string(foreignEvent), true},
                                                             {"not-a-number", true},
                                                             {"999999999", false},
                                                             {"-5", false}};
  for (const auto& [lastId, asHeader] : unknown) {
    SCOPED_TRACE(lastId + (asHeader ? " (header)" : " (query)"));
    const auto head = newest();
    Headers h = auth(t);
    if (asHeader) h.emplace_back("Last-Event-ID", lastId);
    auto s = subscribe(subscribePath(ch, asHeader ? "" : "last_event_id=" + lastId), h);
    ASSERT_TRUE(IsStreamOpen(*s));
    auto reset = s->next(kWait);
    ASSERT_TRUE(reset) << s->describe();
    EXPECT_EQ(reset->event, "reset");
    EXPECT_EQ(reset->raw, "event: reset\nid: " + std::to_string(head) +
                              "\ndata: {\"reason\":\"unknown_last_event_id\",\"resumeFrom\":" + std::to_string(head) +
                              "}\n\n");
    auto data = reset->json();
    EXPECT_EQ(strField(data, "reason"), "unknown_last_event_id");
    EXPECT_EQ(intField(data, "resumeFrom"), head);
    // Nothing is replayed; live events follow.
    const auto live = intField(publish(t.http, ch, "after-reset"), "id");
    auto next = s->take(1, kWait);
    EXPECT_EQ(idsOf(next), std::vector<std::int64_t>{live}) << s->describe();
    if (!next.empty()) {
      EXPECT_EQ(next[0].event, "");
    }
  }
  // The cursor a reset hands out resumes normally afterwards.
  const auto head = newest();
  auto missed = publishMany(t.http, ch, 2, "missed");
  Headers h = auth(t);
  h.emplace_back("Last-Event-ID", std::to_string(head));
  auto s = subscribe(subscribePath(ch), h);
  ASSERT_TRUE(IsStreamOpen(*s));
  auto got = s->take(2, kWait);
  EXPECT_EQ(idsOf(got), missed) << s->describe();
  for (const auto& m : got) EXPECT_EQ(m.event, "");
}

// ---------------------------------------------------------------- streams that end

TEST_F(StreamApi, DeletingTheChannelEndsItsStreamsOnly) {
  auto t = newTenant("chdelete");
  const auto app = createApp(t);
  const auto doomed = createChannel(t, app);
  const auto survivor = createChannel(t, app);
  auto key = createKey(t, {"subscribe"});
  auto s1 = subscribe(subscribePath(doomed), auth(t));
  auto s2 = subscribe("/channel/" + std::to_string(doomed) + "/x/subscribe", keyAuth(key));
  auto other = subscribe(subscribePath(survivor), auth(t));
  for (auto* s : {s1.get(), s2.get(), other.get()}) ASSERT_TRUE(IsStreamOpen(*s));

  ASSERT_STATUS(t.http.del("/channel/" + std::to_string(doomed)), 204);
  EXPECT_TRUE(s1->waitClosed(5s)) << s1->describe();
  EXPECT_TRUE(s2->waitClosed(5s)) << s2->describe();
  EXPECT_EQ(s1->messageCount(), 0u);
  // The other channel's stream is unaffected.
  const auto id = intField(publish(t.http, survivor, "still here"), "id");
  EXPECT_EQ(idsOf(other->take(1, kWait)), std::vector<std::int64_t>{id}) << other->describe();
  EXPECT_FALSE(other->closed());
  // And the deleted channel cannot be subscribed to.
  auto again = subscribe(subscribePath(doomed), auth(t));
  EXPECT_TRUE(IsProblem(again->readResponse(kWait), 404)) << again->describe();
}

TEST_F(StreamApi, DeletingTheAppEndsTheStreamsOfItsChannels) {
  auto t = newTenant("appdelete");
  const auto app = createApp(t);
  const auto c1 = createChannel(t, app);
  const auto c2 = createChannel(t, app);
  const auto elsewhere = newChannel(t);
  auto s1 = subscribe(subscribePath(c1), auth(t));
  auto s2 = subscribe(subscribePath(c2), auth(t));
  auto other = subscribe(subscribePath(elsewhere), auth(t));
  for (auto* s : {s1.get(), s2.get(), other.get()}) ASSERT_TRUE(IsStreamOpen(*s));
  ASSERT_STATUS(t.http.del("/apps/" + std::to_string(app)), 204);
  EXPECT_TRUE(s1->waitClosed(5s)) << s1->describe();
  EXPECT_TRUE(s2->waitClosed(5s)) << s2->describe();
  const auto id = intField(publish(t.http, elsewhere, "still here"), "id");
  EXPECT_EQ(idsOf(other->take(1, kWait)), std::vector<std::int64_t>{id}) << other->describe();
}

TEST_F(StreamApi, RevokingTheKeyEndsItsStreamsOnly) {
  auto t = newTenant("revoke");
  const auto ch = newChannel(t);
  auto revoked = createKey(t, {"subscribe"});
  auto kept = createKey(t, {"subscribe"});
  auto s1 = subscribe(subscribePath(ch), keyAuth(revoked));
  auto s2 = subscribe(subscribePath(ch), keyAuth(kept));
  auto s3 = subscribe(subscribePath(ch), auth(t));
  for (auto* s : {s1.get(), s2.get(), s3.get()}) ASSERT_TRUE(IsStreamOpen(*s));
  ASSERT_STATUS(t.user.http.del("/api-keys/" + std::to_string(revoked.id)), 204);
  EXPECT_TRUE(s1->waitClosed(5s)) << s1->describe();
  const auto id = intField(publish(t.http, ch, "after revoke"), "id");
  EXPECT_EQ(idsOf(s2->take(1, kWait)), std::vector<std::int64_t>{id}) << s2->describe();
  EXPECT_EQ(idsOf(s3->take(1, kWait)), std::vector<std::int64_t>{id}) << s3->describe();
  auto again = subscribe(subscribePath(ch), keyAuth(revoked));
  EXPECT_TRUE(IsProblem(again->readResponse(kWait), 401)) << again->describe();
}

TEST_F(StreamApi, RemovingTheMemberEndsTheirStreams) {
  auto owner = newTenant("rm-owner");
  auto member = newTenant("rm-member");
  const auto ch = newChannel(owner);
  addMember(owner.user, owner.orgId, member.user, "user");
  Headers memberInOwnersOrg = {{"Authorization", member.bearer()}, {"x-tenant-id", std::to_string(owner.orgId)}};
  auto memberStream = subscribe(subscribePath(ch), memberInOwnersOrg);
  auto ownerStream = subscribe(subscribePath(ch), auth(owner));
  ASSERT_TRUE(IsStreamOpen(*memberStream));
  ASSERT_TRUE(IsStreamOpen(*ownerStream));
  ASSERT_STATUS(owner.user.http.del("/organizations/" + std::to_string(owner.orgId) + "/members/" +
                                    std::to_string(member.user.id)),
                204);
  EXPECT_TRUE(memberStream->waitClosed(5s)) << memberStream->describe();
  const auto id = intField(publish(owner.http, ch, "members only"), "id");
  EXPECT_EQ(idsOf(ownerStream->take(1, kWait)), std::vector<std::int64_t>{id}) << ownerStream->describe();
  EXPECT_EQ(memberStream->body().find("members only"), std::string::npos);
  auto again = subscribe(subscribePath(ch), memberInOwnersOrg);
  EXPECT_TRUE(IsProblem(again->readResponse(kWait), 403)) << again->describe();
}

TEST_F(StreamApi, DeletingTheOrganizationEndsItsStreams) {
  auto t = newTenant("orgdelete");
  auto org = createOrg(t.user);
  const auto orgId = intField(org, "id");
  Tenant inOrg{t.user, orgId, {}};
  inOrg.user.accessToken = strField(org, "access_token");
  inOrg.http = anon().withBearer(inOrg.user.accessToken).withHeader("x-tenant-id", std::to_string(orgId));
  inOrg.user.http = anon().withBearer(inOrg.user.accessToken);
  const auto ch = newChannel(inOrg);
  auto key = createKey(inOrg, {"subscribe"});
  auto viaSession = subscribe(subscribePath(ch), auth(inOrg));
  auto viaKey = subscribe(subscribePath(ch), keyAuth(key));
  const auto personal = newChannel(t);
  auto unrelated = subscribe(subscribePath(personal), auth(t));
  for (auto* s : {viaSession.get(), viaKey.get(), unrelated.get()}) ASSERT_TRUE(IsStreamOpen(*s));

  ASSERT_STATUS(t.user.http.del("/organizations/" + std::to_string(orgId)), 204);
  EXPECT_TRUE(viaSession->waitClosed(5s)) << viaSession->describe();
  EXPECT_TRUE(viaKey->waitClosed(5s)) << viaKey->describe();
  const auto id = intField(publish(t.http, personal, "personal org lives on"), "id");
  EXPECT_EQ(idsOf(unrelated->take(1, kWait)), std::vector<std::int64_t>{id}) << unrelated->describe();
}

// ---------------------------------------------------------------- who may subscribe

TEST_F(StreamApi, SubscribeNeedsASessionOrTheSubscribeScope) {
  auto t = newTenant("subauth");
  auto stranger = newTenant("subauth-stranger");
  const auto ch = newChannel(t);
  const auto path = subscribePath(ch);
  auto refused = [&](const Headers& h, int status, const std::string& p) {
    auto s = subscribe(p, h);
    auto r = s->readResponse(kWait);
    EXPECT_TRUE(IsProblem(r, status)) << s->describe();
    EXPECT_FALSE(s->isEventStream());
  };
  refused({}, 401, path);
  refused({{"Authorization", "Bearer nope"}}, 401, path);
  refused({{"X-API-Key", "aes_" + std::string(43, 'k')}}, 401, path);
  refused(keyAuth(createKey(t, {"publish"})), 403, path);  // a publish-only key cannot subscribe
  refused(keyAuth(createKey(t, {"read"})), 403, path);
  refused(keyAuth(createKey(t, {"publish", "read"})), 403, "/channel/" + std::to_string(ch) + "/x/subscribe");
  auto subscribeKey = createKey(t, {"subscribe"});
  // x-tenant-id with a key must be the key's organization.
  Headers mismatch = keyAuth(subscribeKey);
  mismatch.emplace_back("x-tenant-id", std::to_string(stranger.orgId));
  refused(mismatch, 403, path);
  refused(auth(t), 404, subscribePath(999999999));
  refused(keyAuth(subscribeKey), 404, subscribePath(newChannel(stranger)));

  auto ok = subscribe(path, keyAuth(subscribeKey));
  ASSERT_TRUE(IsStreamOpen(*ok));
  // A subscribe-only key cannot publish.
  EXPECT_TRUE(IsProblem(anon().withApiKey(subscribeKey.key).post("/event", eventBody(ch, "nope")), 403));
  const auto id = intField(publish(t.http, ch, "yes"), "id");
  EXPECT_EQ(idsOf(ok->take(1, kWait)), std::vector<std::int64_t>{id});
}

// ---------------------------------------------------------------- stream tokens

TEST_F(StreamApi, StreamTokensOpenOneChannelForAWhile) {
  auto t = newTenant("token");
  const auto app = createApp(t);
  const auto ch = createChannel(t, app);
  const auto sibling = createChannel(t, app);
  auto r = t.http.post("/stream-tokens", obj({{"channelId", ch}}));
  ASSERT_STATUS(r, 201);
  const auto token = strField(r.object(), "token");
  EXPECT_GE(token.size(), 20u);
  const auto expires = epochSeconds(strField(r.object(), "expiresAt"));
  EXPECT_NEAR(static_cast<double>(expires - nowSeconds()), 300.0, 15.0) << r.body;  // default 5 minutes

  auto s = subscribe(subscribePath(ch, "stream_token=" + token), {});
  ASSERT_TRUE(IsStreamOpen(*s));
  const auto id = intField(publish(t.http, ch, "to the browser"), "id");
  EXPECT_EQ(idsOf(s->take(1, kWait)), std::vector<std::int64_t>{id}) << s->describe();
  // With filters and Last-Event-ID as a browser sends them.
  auto resumed =
      subscribe(subscribePath(ch, "stream_token=" + token + "&agent_id=x"), {{"Last-Event-ID", std::to_string(id)}});
  ASSERT_TRUE(IsStreamOpen(*resumed));
  const auto x = intField(publish(t.http, ch, "for x", nullptr, obj({{"agentId", "x"}})), "id");
  EXPECT_EQ(idsOf(resumed->take(1, kWait)), std::vector<std::int64_t>{x}) << resumed->describe();
  // The identifier path takes it too.
  auto byIdentifier = subscribe("/channel/" + std::to_string(ch) + "/for%20x/subscribe?stream_token=" + token, {});
  EXPECT_TRUE(IsStreamOpen(*byIdentifier));

  auto refused = [&](const std::string& path, int status) {
    auto s2 = subscribe(path, {});
    EXPECT_TRUE(IsProblem(s2->readResponse(kWait), status)) << s2->describe();
  };
  // Bound to its channel.
  refused(subscribePath(sibling, "stream_token=" + token), 403);
  // Tampered with: the signature, the channel inside it, or nonsense.
  std::string flipped = token;
  flipped.back() = flipped.back() == 'A' ? 'B' : 'A';
  refused(subscribePath(ch, "stream_token=" + flipped), 401);
  std::string truncated = token.substr(0, token.size() - 4);
  refused(subscribePath(ch, "stream_token=" + truncated), 401);
  refused(subscribePath(ch, "stream_token=st_1.2.3.4.abc"), 401);
  refused(subscribePath(ch, "stream_token=garbage"), 401);
  // It is a stream credential only.
  EXPECT_TRUE(IsProblem(anon().get("/event/" + std::to_string(ch) + "/list?stream_token=" + token), 401));
  EXPECT_TRUE(IsProblem(anon().post("/event?stream_token=" + token, eventBody(ch, "x")), 401));
  // Query strings are not logged (docs/api.md#streaming-and-resume).
  EXPECT_EQ(daemon().log().find(token), std::string::npos) << "the stream token was written to the log";
}

TEST_F(StreamApi, IssuingStreamTokens) {
  auto t = newTenant("tokenissue");
  auto stranger = newTenant("tokenissue-stranger");
  const auto ch = newChannel(t);
  EXPECT_TRUE(IsProblem(anon().post("/stream-tokens", obj({{"channelId", ch}})), 401));
  EXPECT_TRUE(IsProblem(t.http.post("/stream-tokens", obj({})), 422));
  EXPECT_TRUE(IsProblem(t.http.post("/stream-tokens", obj({{"channelId", "abc"}})), 422));
  EXPECT_TRUE(IsProblem(t.http.post("/stream-tokens", obj({{"channelId", 999999999}})), 404));
  EXPECT_TRUE(IsProblem(t.http.post("/stream-tokens", obj({{"channelId", newChannel(stranger)}})), 404));
  EXPECT_TRUE(IsProblem(
      anon().withApiKey(createKey(t, {"publish"}).key).post("/stream-tokens", obj({{"channelId", ch}})), 403));
  // The decimal string form, and an API key with the subscribe scope.
  auto viaKey = anon()
                    .withApiKey(createKey(t, {"subscribe"}).key)
                    .post("/stream-tokens", obj({{"channelId", std::to_string(ch)}}));
  ASSERT_STATUS(viaKey, 201);
  auto s = subscribe(subscribePath(ch, "stream_token=" + strField(viaKey.object(), "token")), {});
  EXPECT_TRUE(IsStreamOpen(*s));
  // Two tokens are never the same.
  auto a = t.http.post("/stream-tokens", obj({{"channelId", ch}}));
  auto b = t.http.post("/stream-tokens", obj({{"channelId", ch}}));
  ASSERT_STATUS(a, 201);
  ASSERT_STATUS(b, 201);
  EXPECT_NE(strField(a.object(), "token"), strField(b.object(), "token"));
}

TEST_F(StreamApi, AStreamTokenDoesNotOutliveTheKeyThatIssuedIt) {
  auto t = newTenant("tokenrevoke");
  const auto ch = newChannel(t);
  auto key = createKey(t, {"subscribe"});
  auto keyed = anon().withApiKey(key.key);
  auto first = keyed.post("/stream-tokens", obj({{"channelId", ch}}));
  auto second = keyed.post("/stream-tokens", obj({{"channelId", ch}}));
  ASSERT_STATUS(first, 201);
  ASSERT_STATUS(second, 201);
  auto open = subscribe(subscribePath(ch, "stream_token=" + strField(first.object(), "token")), {});
  ASSERT_TRUE(IsStreamOpen(*open));
  ASSERT_STATUS(t.user.http.del("/api-keys/" + std::to_string(key.id)), 204);
  // Revocation takes effect on the very next request (docs/api.md#authentication) and ends the key's
  // streams, including those it opened through a token.
  EXPECT_TRUE(open->waitClosed(5s)) << "a stream opened with the revoked key's token stayed open: " << open->describe();
  auto late = subscribe(subscribePath(ch, "stream_token=" + strField(second.object(), "token")), {});
  EXPECT_TRUE(IsProblem(late->readResponse(kWait), 401))
      << "a token of a revoked key still opens a stream: " << late->describe();
}

TEST_F(StreamApi, AStreamTokenDoesNotOutliveTheMembershipOfItsIssuer) {
  auto owner = newTenant("tokenmember-owner");
  auto member = newTenant("tokenmember");
  const auto ch = newChannel(owner);
  addMember(owner.user, owner.orgId, member.user, "user");
  auto asMember = member.user.http.withHeader("x-tenant-id", std::to_string(owner.orgId));
  auto first = asMember.post("/stream-tokens", obj({{"channelId", ch}}));
  auto second = asMember.post("/stream-tokens", obj({{"channelId", ch}}));
  ASSERT_STATUS(first, 201);
  ASSERT_STATUS(second, 201);
  auto open = subscribe(subscribePath(ch, "stream_token=" + strField(first.object(), "token")), {});
  ASSERT_TRUE(IsStreamOpen(*open));
  ASSERT_STATUS(owner.user.http.del("/organizations/" + std::to_string(owner.orgId) + "/members/" +
                                    std::to_string(member.user.id)),
                204);
  EXPECT_TRUE(open->waitClosed(5s)) << "a removed member's token stream stayed open: " << open->describe();
  auto late = subscribe(subscribePath(ch, "stream_token=" + strField(second.object(), "token")), {});
  auto r = late->readResponse(kWait);
  EXPECT_TRUE(r.status == 401 || r.status == 403)
      << "a removed member's token still opens a stream: " << late->describe();
}

// ---------------------------------------------------------------- timers and CORS

constexpr const char* kPageOrigin = "http://127.0.0.1:45678";

class StreamTimersApi : public EventsTest {
 public:
  static void SetUpTestSuite() {
    startDaemon(options({{"stream.keepalive_seconds", "1"},
                         {"stream.token_ttl_seconds", "1"},
                         {"http.cors_origins", std::string(kPageOrigin) + ",http://app.example"}}));
  }
};

TEST_F(StreamTimersApi, IdleStreamsGetKeepAliveComments) {
  auto t = newTenant("keepalive");
  const auto ch = newChannel(t);
  auto s = subscribe(subscribePath(ch), auth(t));
  ASSERT_TRUE(IsStreamOpen(*s));
  ASSERT_TRUE(s->waitUntil([&] { return s->parser().comments.size() >= 2; }, 5s)) << s->describe();
  for (const auto& c : s->parser().comments) EXPECT_EQ(c, " keep-alive");
  EXPECT_EQ(s->body().rfind("retry: 3000\n\n: keep-alive\n\n: keep-alive\n\n", 0), 0u) << s->describe();
  // Events still frame cleanly between keep-alives.
  const auto id = intField(publish(t.http, ch, "between"), "id");
  auto got = s->take(1, kWait);
  ASSERT_EQ(idsOf(got), std::vector<std::int64_t>{id}) << s->describe();
  ASSERT_TRUE(s->waitUntil([&] { return s->parser().comments.size() >= 3; }, 5s)) << s->describe();
  EXPECT_EQ(withoutKeepAlives(s->body()), "retry: 3000\n\n" + got[0].raw);
  EXPECT_EQ(s->messageCount(), 1u);
}

TEST_F(StreamTimersApi, StreamTokensExpireForConnectingNotForOpenStreams) {
  auto t = newTenant("tokenttl");
  const auto ch = newChannel(t);
  auto issue = [&] {
    auto r = t.http.post("/stream-tokens", obj({{"channelId", ch}}));
    if (r.status != 201) throw std::runtime_error(r.describe());
    return r.object();
  };
  auto expired = issue();
  EXPECT_LE(epochSeconds(strField(expired, "expiresAt")) - nowSeconds(), 2) << toJson(expired);

  // A token used at once opens a stream that outlives the token (a loaded machine may
  // take longer than the 1 s TTL to connect; then take a fresh token).
  std::unique_ptr<SseStream> s;
  for (int attempt = 0; attempt < 5 && !(s && IsStreamOpen(*s)); ++attempt)
    s = subscribe(subscribePath(ch, "stream_token=" + strField(issue(), "token")), {});
  ASSERT_TRUE(s && IsStreamOpen(*s)) << (s ? s->describe() : "");

  // Wait out the TTL of the first token (keep-alives every second mark the time).
  const auto deadline = epochSeconds(strField(expired, "expiresAt")) + 1;
  ASSERT_TRUE(s->waitUntil([&] { return nowSeconds() > deadline; }, 5s));
  auto refused = subscribe(subscribePath(ch, "stream_token=" + strField(expired, "token")), {});
  EXPECT_TRUE(IsProblem(refused->readResponse(kWait), 401)) << refused->describe();
  const auto id = intField(publish(t.http, ch, "still flowing"), "id");
  EXPECT_EQ(idsOf(s->take(1, kWait)), std::vector<std::int64_t>{id}) << s->describe();
  EXPECT_GE(s->parser().comments.size(), 1u);
}

TEST_F(StreamTimersApi, CorsAllowsTheConfiguredOriginsOnly) {
  auto t = newTenant("cors");
  const auto ch = newChannel(t);
  // A simple request from an allowed origin: echoed, with Vary: Origin.
  auto allowed = t.http.get("/event/" + std::to_string(ch) + "/list", {{"Origin", kPageOrigin}});
  ASSERT_STATUS(allowed, 200);
  EXPECT_EQ(allowed.header("Access-Control-Allow-Origin"), kPageOrigin);
  EXPECT_NE(allowed.header("Vary").find("Origin"), std::string::npos);
  EXPECT_EQ(t.http.get("/healthz", {{"Origin", "http://app.example"}}).header("Access-Control-Allow-Origin"),
            "http://app.example");
  // Other origins get nothing.
  for (const char* origin : {"http://127.0.0.1:1", "http://evil.example", "null"}) {
    auto r = t.http.get("/event/" + std::to_string(ch) + "/list", {{"Origin", origin}});
    EXPECT_FALSE(r.hasHeader("Access-Control-Allow-Origin")) << origin;
  }
  // Preflight for a publish with JSON and credentials headers. (These carry
  // Content-Length: 0; the bodiless form browsers send is checked below.)
  auto preflight = anon().request("OPTIONS", "/event", std::nullopt,
                                  {{"Content-Length", "0"},
                                   {"Origin", kPageOrigin},
                                   {"Access-Control-Request-Method", "POST"},
                                   {"Access-Control-Request-Headers", "authorization, content-type, x-tenant-id"}});
  EXPECT_GE(preflight.status, 200);
  EXPECT_LT(preflight.status, 300) << preflight.describe();
  EXPECT_EQ(preflight.header("Access-Control-Allow-Origin"), kPageOrigin);
  const auto methods = Poco::toLower(preflight.header("Access-Control-Allow-Methods"));
  EXPECT_NE(methods.find("post"), std::string::npos) << methods;
  EXPECT_NE(methods.find("get"), std::string::npos) << methods;
  const auto headers = Poco::toLower(preflight.header("Access-Control-Allow-Headers"));
  for (const char* h : {"authorization", "content-type", "x-tenant-id", "last-event-id", "x-api-key"})
    EXPECT_NE(headers.find(h), std::string::npos) << h << " not in " << headers;
  // Exactly as a browser sends it: no body and no Content-Length. The answer must come at
  // once (a server that waits for a body here stalls every cross-origin page).
  {
    SseStream browserPreflight("127.0.0.1", daemon().port());
    browserPreflight.start("/apps",
                           {{"Origin", kPageOrigin},
                            {"Access-Control-Request-Method", "GET"},
                            {"Access-Control-Request-Headers", "authorization,x-tenant-id"},
                            {"Accept", "*/*"}},
                           0, "OPTIONS");
    const auto started = std::chrono::steady_clock::now();
    auto r = browserPreflight.readResponse(5s);
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
    EXPECT_TRUE(r.status >= 200 && r.status < 300)
        << "no answer to a bodiless preflight within 5 s (" << ms << " ms): " << browserPreflight.describe();
    EXPECT_EQ(r.header("Access-Control-Allow-Origin"), kPageOrigin) << browserPreflight.describe();
  }
  auto denied = anon().request(
      "OPTIONS", "/event", std::nullopt,
      {{"Content-Length", "0"}, {"Origin", "http://evil.example"}, {"Access-Control-Request-Method", "POST"}});
  EXPECT_FALSE(denied.hasHeader("Access-Control-Allow-Origin")) << denied.describe();
  EXPECT_FALSE(denied.hasHeader("Access-Control-Allow-Methods")) << denied.describe();

  // The stream itself, as an EventSource from the page opens it.
  auto token = strField(t.http.post("/stream-tokens", obj({{"channelId", ch}})).object(), "token");
  auto s = subscribe(subscribePath(ch, "stream_token=" + token), {{"Origin", kPageOrigin}});
  ASSERT_TRUE(IsStreamOpen(*s));
  EXPECT_EQ(s->response().header("Access-Control-Allow-Origin"), kPageOrigin);
  auto foreign = subscribe(subscribePath(ch), {{"Origin", "http://evil.example"}, {"Authorization", t.bearer()}});
  ASSERT_TRUE(IsStreamOpen(*foreign));  // CORS is the browser's business; the server just does not allow it
  EXPECT_FALSE(foreign->response().hasHeader("Access-Control-Allow-Origin"));
  // Errors carry it too, so the page can read them.
  auto error = t.http.post("/event", "{}", {{"Origin", kPageOrigin}});
  EXPECT_TRUE(IsProblem(error, 422));
  EXPECT_EQ(error.header("Access-Control-Allow-Origin"), kPageOrigin);
}

// One organization cannot take the whole hub (reliability checklist C3):
// stream.max_subscribers_per_org streams, then 429 with Retry-After; another organization
// is not affected, and a stream that ends gives its slot back. A full hub
// (stream.max_subscribers) is a 503. Both are problem answers, before any stream starts.
class StreamLimitsApi : public EventsTest {
 public:
  static void SetUpTestSuite() {
    startDaemon(options({{"stream.max_subscribers_per_org", "2"}, {"stream.max_subscribers", "3"}}));
  }
};

TEST_F(StreamLimitsApi, AnOrganizationHoldsAtMostItsStreamLimit) {
  auto a = newTenant("limit-a");
  auto b = newTenant("limit-b");
  const auto chA = newChannel(a);
  const auto chB = newChannel(b);
  auto first = subscribe(subscribePath(chA), auth(a));
  ASSERT_TRUE(IsStreamOpen(*first));
  auto second = subscribe(subscribePath(chA), auth(a));
  ASSERT_TRUE(IsStreamOpen(*second));

  auto third = subscribe(subscribePath(chA), auth(a));
  ASSERT_EQ(third->status(), 429) << third->describe();
  auto refused = third->readResponse(kWait);
  EXPECT_TRUE(IsProblem(refused, 429)) << refused.describe();
  EXPECT_EQ(refused.header("Retry-After"), "5");
  auto other = subscribe(subscribePath(chB), auth(b));
  EXPECT_TRUE(IsStreamOpen(*other)) << "another organization's stream was refused";
  auto c = newTenant("limit-c");  // the hub holds 3 streams: full
  auto full = subscribe(subscribePath(newChannel(c)), auth(c));
  ASSERT_EQ(full->status(), 503) << full->describe();
  auto unavailable = full->readResponse(kWait);
  EXPECT_TRUE(IsProblem(unavailable, 503)) << unavailable.describe();
  EXPECT_EQ(unavailable.header("Retry-After"), "5");
  expectServerErrors(1);

  // Live streams still get their events.
  const auto id = intField(publish(a.http, chA, "still-live"), "id");
  EXPECT_EQ(idsOf(second->take(1, kWait)), std::vector<std::int64_t>{id}) << second->describe();

  first->close();  // the hub notices the disconnect and frees the slot
  // The organization's count and the hub's total are two counters, freed one after the
  // other: until both are, a new stream may still be refused by either (429 or 503).
  std::unique_ptr<SseStream> again;
  int hubFullAnswers = 0;
  const auto deadline = std::chrono::steady_clock::now() + kWait;
  do {
    again = subscribe(subscribePath(chA), auth(a));
    if (again->status() == 503)
      ++hubFullAnswers;
    else if (again->status() != 429)
      break;
    std::this_thread::sleep_for(20ms);
  } while (std::chrono::steady_clock::now() < deadline);
  EXPECT_TRUE(IsStreamOpen(*again)) << again->describe();
  expectServerErrors(1 + hubFullAnswers);
}

TEST_F(StreamApi, NoCorsHeadersByDefault) {
  auto t = newTenant("nocors");
  auto r = t.http.get("/apps", {{"Origin", kPageOrigin}});
  ASSERT_STATUS(r, 200);
  EXPECT_FALSE(r.hasHeader("Access-Control-Allow-Origin"));
  auto preflight =
      anon().request("OPTIONS", "/event", std::nullopt,
                     {{"Content-Length", "0"}, {"Origin", kPageOrigin}, {"Access-Control-Request-Method", "POST"}});
  EXPECT_FALSE(preflight.hasHeader("Access-Control-Allow-Origin")) << preflight.describe();
}

}  // namespace
}  // namespace aev::testing
