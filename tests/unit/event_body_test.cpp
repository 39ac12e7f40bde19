// http/event_body.h: readEvent (fields read from the JsonView) against parseEventObject
// (the Poco path it falls back to), each followed by the publisher's telemetry step
// (events::Publisher::extract), on valid events of every shape and on each kind of
// mistake: the same NewEvent, or the same 422 with the same errors; and valid events are
// read directly, not handed to the Poco path.
#include "http/event_body.h"

#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/errors.h"
#include "common/json_parse.h"
#include "common/metrics.h"
#include "events/publisher.h"
#include "telemetry/extractor.h"

namespace aev::http {
namespace {

struct Outcome {
  std::optional<events::NewEvent> event;
  std::optional<ApiError> error;
};

class EventBodyTest : public ::testing::Test {
 protected:
  EventBodyTest() : extractor_(telemetry::PriceTable::builtIn()) {
    publisher_.kind = auth::Principal::Kind::ApiKey;
    publisher_.apiKeyId = 17;
    publisher_.orgId = 5;
  }

  // Events the direct reading handed to the Poco path so far.
  static std::int64_t handedOver() {
    return Metrics::instance().counter("agent_events_publish_events_read_by_poco_total").load();
  }

  // A reading, then the publisher's first step (the 422 of the reader's and the
  // telemetry's problems together).
  template <typename Read>
  Outcome outcomeOf(Read read) {
    Outcome out;
    try {
      auto submission = read();
      events::Publisher::extract(extractor_, submission);
      out.event = std::move(submission.event);
    } catch (const ApiError& e) {
      out.error = e;
    }
    return out;
  }

  Outcome viaView(const std::string& doc) {
    JsonView view(doc);
    return outcomeOf([&] { return readEvent(view, JsonView::kRoot, "body.events[2]", publisher_, "batch"); });
  }

  Outcome viaPoco(const std::string& doc) {
    return outcomeOf([&] {
      return parseEventObject(parseJson(doc).extract<Poco::JSON::Object::Ptr>(), "body.events[2]", publisher_, "batch");
    });
  }

  // Both paths give the same answer, and the view's came from the path expected: the
  // direct reading for a plainly valid event, the Poco path for anything else.
  void expectSame(const std::string& doc, bool direct) {
    SCOPED_TRACE(doc);
    const auto before = handedOver();
    const auto a = viaView(doc);
    EXPECT_EQ(handedOver() - before, direct ? 0 : 1);
    const auto b = viaPoco(doc);
    ASSERT_EQ(a.event.has_value(), b.event.has_value());
    if (a.error) {
      EXPECT_EQ(a.error->status(), b.error->status());
      EXPECT_EQ(a.error->detail(), b.error->detail());
      ASSERT_EQ(a.error->fieldErrors().size(), b.error->fieldErrors().size());
      for (std::size_t i = 0; i < a.error->fieldErrors().size(); ++i) {
        EXPECT_EQ(a.error->fieldErrors()[i].location, b.error->fieldErrors()[i].location);
        EXPECT_EQ(a.error->fieldErrors()[i].message, b.error->fieldErrors()[i].message);
        EXPECT_EQ(a.error->fieldErrors()[i].value, b.error->fieldErrors()[i].value);
      }
      return;
    }
    const auto &x = *a.event, &y = *b.event;
    EXPECT_EQ(x.orgId, y.orgId);
    EXPECT_EQ(x.channelId, y.channelId);
    EXPECT_EQ(x.identifier, y.identifier);
    EXPECT_EQ(x.payloadJson, y.payloadJson);
    EXPECT_EQ(x.agentId, y.agentId);
    EXPECT_EQ(x.eventType, y.eventType);
    EXPECT_EQ(x.traceId, y.traceId);
    EXPECT_EQ(x.spanId, y.spanId);
    EXPECT_EQ(x.parentSpanId, y.parentSpanId);
    EXPECT_EQ(x.metadataJson, y.metadataJson);
    EXPECT_EQ(x.occurredAt, y.occurredAt);
    EXPECT_EQ(x.source, y.source);
    EXPECT_EQ(x.apiKeyId, y.apiKeyId);
    EXPECT_EQ(x.userId, y.userId);
    EXPECT_EQ(x.isError, y.isError);
    const auto &s = x.telemetry, &t = y.telemetry;
    EXPECT_EQ(s.model, t.model);
    EXPECT_EQ(s.provider, t.provider);
    EXPECT_EQ(s.status, t.status);
    EXPECT_EQ(s.agent, t.agent);
    EXPECT_EQ(s.tool, t.tool);
    EXPECT_EQ(s.finishReason, t.finishReason);
    EXPECT_EQ(s.operation, t.operation);
    EXPECT_EQ(s.endUser, t.endUser);
    EXPECT_EQ(s.inputTokens, t.inputTokens);
    EXPECT_EQ(s.outputTokens, t.outputTokens);
    EXPECT_EQ(s.costUsd, t.costUsd);
    EXPECT_EQ(s.durationMs, t.durationMs);
    EXPECT_EQ(s.attributes, t.attributes);
  }

  telemetry::Extractor extractor_;
  auth::Principal publisher_;
};

TEST_F(EventBodyTest, ValidEventsReadAsThePocoPathReadsThem) {
  for (const char* doc : {
           R"({"identifier":"a","channel_id":3,"payload":{}})",
           R"({"identifier":"bench","channel_id":7,"agentId":"agent-1","eventType":"agent.message","traceId":"t1",
              "spanId":"s1","payload":{"role":"assistant","content":"hi","tokens":42,"bench_ts":1.5}})",
           R"({"identifier":"x","channelId":"12","payload":{"z":{"b":[1,{"d":null,"c":true}],"a":"é/\u00e9"}}})",
           R"({"identifier":"x","channelId":9,"payload":{"a":1,"a":2}})",
           R"({"identifier":"x","channel_id":4,"payload":{},"agentId":null,"eventType":null,"metadata":null,
              "timestamp":null,"unknown":[1,2]})",
           R"({"identifier":"x","channel_id":4,"payload":{},"timestamp":"2026-11-26T01:02:03.456Z"})",
           R"({"identifier":"é中😀","channel_id":4,"payload":{"s":"a\"b\\c\n"},"agentId":"\u0041gent"})",
           R"({"identifier":"x","channel_id":4,"payload":{},"identifier":"last wins"})",
           R"({"identifier":"x","channel_id":4,"eventType":"agent.error","payload":{},
              "metadata":{"model":"gpt-4o","usage":{"input_tokens":1000,"output_tokens":200},"duration_ms":12.5,
                          "tags":{"team":"search","tier":2,"beta":true,"off":null}}})",
           R"({"identifier":"x","channel_id":4,"eventType":"agent.tool_call.start","payload":{"tool":"search"}})",
           R"({"identifier":"x","channel_id":4,"eventType":"agent.tool_call.end","payload":{"name":"lookup"},
              "metadata":{"status":"error","user":"u-1"}})",
       })
    expectSame(doc, true);
  // An escaped member name is left to the Poco path, which reads it the same.
  expectSame(R"({"ident\u0069fier":"escaped member name","channel_id":4,"payload":{}})", false);
}

TEST_F(EventBodyTest, MistakesGiveThePocoPathsErrors) {
  for (const char* doc : {
           R"({"channel_id":3,"payload":{}})",                      // identifier missing
           R"({"identifier":"","channel_id":3,"payload":{}})",      // too short
           R"({"identifier":7,"channel_id":3,"payload":{}})",       // not a string
           R"({"identifier":"x","payload":{}})",                    // no channel
           R"({"identifier":"x","channel_id":"3a","payload":{}})",  // not an id
           R"({"identifier":"x","channel_id":1.5,"payload":{}})",   // not an integer
           R"({"identifier":"x","channel_id":18446744073709551615,"payload":{}})",
           R"({"identifier":"x","channel_id":3})",                 // payload missing
           R"({"identifier":"x","channel_id":3,"payload":null})",  // null is missing
           R"({"identifier":"x","channel_id":3,"payload":[1]})",   // not an object
           R"({"identifier":"x","channel_id":3,"payload":{},"eventType":"agent.unknown"})",
           R"({"identifier":"x","channel_id":3,"payload":{},"agentId":5})",
           R"({"identifier":"x","channel_id":3,"payload":{},"metadata":"m"})",
           R"({"identifier":"x","channel_id":3,"payload":{},"timestamp":"yesterday"})",
           R"({"identifier":"x","channel_id":3,"payload":{},"timestamp":""})",
           R"({"identifier":7,"payload":5,"eventType":"no","timestamp":"no"})",  // all of them at once
       })
    expectSame(doc, false);
  // Bad tags are the telemetry step's 422, not the reader's: read directly, the same answer.
  expectSame(R"({"identifier":"x","channel_id":3,"payload":{},"metadata":{"tags":{"deep":{"a":1}}}})", true);
  expectSame(R"({"identifier":"x","channel_id":3,"payload":{},"metadata":{"tags":[1]}})", true);
  // A field problem and a tag problem: one 422 listing both, in reading order.
  expectSame(R"({"identifier":7,"channel_id":3,"payload":{},"metadata":{"tags":[1]}})", false);
  const std::string longText(257, 'a');
  expectSame(R"({"identifier":")" + longText + R"(","channel_id":3,"payload":{}})", false);
  expectSame(R"({"identifier":"x","channel_id":3,"payload":{},"traceId":")" + longText + R"("})", false);
  expectSame(R"({"identifier":"x","channel_id":3,"payload":{},"timestamp":")" + std::string(65, '1') + R"("})", false);
  // 256 characters of 2 bytes each are within the limit (characters, not bytes).
  std::string wide;
  for (int i = 0; i < 256; ++i) wide += "é";
  expectSame(R"({"identifier":")" + wide + R"(","channel_id":3,"payload":{}})", true);
}

// channel_id and channelId are one field in two shapes: both are accepted only when they
// name the same channel; anything else is a 422 naming both (never the first one's channel).
TEST_F(EventBodyTest, BothChannelSpellingsMustAgree) {
  for (const char* doc : {R"({"identifier":"x","channel_id":3,"channelId":"3","payload":{}})",
                          R"({"identifier":"x","channel_id":"3","channelId":3,"payload":{}})"}) {
    expectSame(doc, false);
    auto read = viaView(doc);
    ASSERT_TRUE(read.event) << doc;
    EXPECT_EQ(read.event->channelId, 3);
  }
  expectSame(R"({"identifier":"x","channelId":"3","payload":{}})", true);
  for (const char* doc : {R"({"identifier":"x","channel_id":3,"channelId":"999","payload":{}})",
                          R"({"identifier":"x","channel_id":3,"channelId":{},"payload":{}})",
                          R"({"identifier":"x","channel_id":3,"channelId":true,"payload":{}})",
                          R"({"identifier":"x","channel_id":"no","channelId":3,"payload":{}})",
                          R"({"identifier":"x","channel_id":4,"channelId":"not read","payload":{}})",
                          R"({"identifier":"x","channel_id":0,"channelId":9,"payload":{}})"}) {
    SCOPED_TRACE(doc);
    expectSame(doc, false);
    auto read = viaView(doc);
    ASSERT_TRUE(read.error);
    EXPECT_EQ(read.error->status(), 422);
    std::set<std::string> locations;
    for (const auto& f : read.error->fieldErrors()) locations.insert(f.location);
    EXPECT_TRUE(locations.count("body.events[2].channel_id"));
    EXPECT_TRUE(locations.count("body.events[2].channelId"));
  }
}

}  // namespace
}  // namespace aev::http
