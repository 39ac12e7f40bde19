// Which requested tool call each tool run answered (GET /traces/{id}/events: telemetry.toolCallId,
// requestedBy, toolCalls; docs/features.md#traces): by call id (the AI SDK's spans recorded from
// npm, OTel GenAI spans, POST /event), and by name and order where the run carries no id (the
// OpenAI Agents SDK through OpenInference's bridge, recorded from npm: a tool and a hand-off).
#include <Poco/JSON/Parser.h>

#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "integration/telemetry/traces_support.h"

namespace aev::testing {
namespace {

using Poco::JSON::Object;

class ToolCallLinksApi : public TracesTest {
 protected:
  // A recorded export (tests/unit/fixtures/otlp/<scenario>.json) with its times moved to two
  // hours ago (same gaps) and each trace id replaced by a fresh one; returns old → new ids.
  static std::map<std::string, std::string> postFixture(const Publisher& p, const std::string& scenario) {
    std::ifstream in(std::string(AEV_OTLP_FIXTURES) + "/" + scenario + ".json");
    std::stringstream text;
    text << in.rdbuf();
    auto root = Poco::JSON::Parser().parse(text.str()).extract<Object::Ptr>();
    std::vector<Object::Ptr> spans;
    for (const auto& rs : objects(root->getArray("resourceSpans")))
      for (const auto& ss : objects(rs->getArray("scopeSpans")))
        for (const auto& span : objects(ss->getArray("spans"))) spans.push_back(span);
    if (spans.empty()) throw std::runtime_error("no spans in fixture " + scenario);
    std::uint64_t earliest = UINT64_MAX;
    for (const auto& s : spans)
      earliest = std::min<std::uint64_t>(earliest, std::stoull(strField(s, "startTimeUnixNano")));
    const auto base = static_cast<std::uint64_t>(recentBase()) * 1000;
    const auto moved = [&](const std::string& ns) { return std::to_string(std::stoull(ns) - earliest + base); };
    std::map<std::string, std::string> ids;
    std::mt19937_64 random(std::random_device{}());
    for (Object::Ptr s : spans) {
      auto& id = ids[strField(s, "traceId")];
      if (id.empty()) {
        char hex[33];
        std::snprintf(hex, sizeof hex, "%016llx%016llx", static_cast<unsigned long long>(random()),
                      static_cast<unsigned long long>(random()));
        id = hex;
      }
      s->set("traceId", id);
      s->set("startTimeUnixNano", moved(strField(s, "startTimeUnixNano")));
      s->set("endTimeUnixNano", moved(strField(s, "endTimeUnixNano")));
      if (auto events = s->getArray("events"))
        for (Object::Ptr e : objects(events)) e->set("timeUnixNano", moved(strField(e, "timeUnixNano")));
    }
    std::ostringstream body;
    root->stringify(body);
    auto r = p.keyed.post("/v1/traces", body.str(),
                          {{"Content-Type", "application/json"}, {"x-channel-id", std::to_string(p.channelId)}});
    if (r.status != 200) throw std::runtime_error("export: " + r.describe());
    return ids;
  }

  static std::vector<Object::Ptr> traceEvents(const Publisher& p, const std::string& traceId) {
    auto r = p.keyed.get(tracePath(traceId, "events"));
    if (r.status != 200) throw std::runtime_error("events: " + r.describe());
    return objects(listOf(r));
  }

  // The trace events named `identifier`.
  static std::vector<Object::Ptr> named(const std::vector<Object::Ptr>& events, const std::string& identifier) {
    std::vector<Object::Ptr> out;
    for (const auto& e : events)
      if (strField(e, "identifier") == identifier) out.push_back(e);
    return out;
  }

  // The LLM call whose output asked for `tool` (exactly one).
  static Object::Ptr requesterOf(const std::vector<Object::Ptr>& events, const std::string& tool) {
    Object::Ptr found;
    for (const auto& e : events) {
      auto calls = e->getObject("telemetry")->getArray("toolCalls");
      if (!calls) continue;
      for (const auto& c : objects(calls))
        if (strField(c, "name") == tool) {
          EXPECT_FALSE(found) << "two requests of " << tool;
          found = e;
        }
    }
    if (!found) throw std::runtime_error("no LLM call asked for " + tool);
    return found;
  }

  static Object::Ptr callNamed(const Object::Ptr& llm, const std::string& tool) {
    for (const auto& c : objects(llm->getObject("telemetry")->getArray("toolCalls")))
      if (strField(c, "name") == tool) return c;
    throw std::runtime_error("no call " + tool);
  }

  static Object::Ptr requestedBy(const Object::Ptr& event) {
    auto t = event->getObject("telemetry");
    if (t->isNull("requestedBy")) return nullptr;
    return t->getObject("requestedBy");
  }

  // Every event but `except` links to nothing and answers nothing.
  static void expectNoOtherLinks(const std::vector<Object::Ptr>& events, const std::vector<Object::Ptr>& except) {
    for (const auto& e : events) {
      bool listed = false;
      for (const auto& x : except) listed = listed || strField(x, "eventId") == strField(e, "eventId");
      if (listed) continue;
      EXPECT_FALSE(requestedBy(e)) << strField(e, "identifier");
    }
  }
};

TEST_F(ToolCallLinksApi, AiSdkToolCallSpanLinksToTheRequestByCallId) {
  auto p = newPublisher("links-ai-sdk");
  for (const auto& [recorded, traceId] : postFixture(p, "ai-sdk")) {
    auto events = traceEvents(p, traceId);
    auto tools = named(events, "ai.toolCall");
    if (tools.empty()) {  // the traces without a tool call link nothing
      expectNoOtherLinks(events, {});
      continue;
    }
    ASSERT_EQ(tools.size(), 1u);
    const auto tool = tools[0];
    EXPECT_EQ(strField(tool->getObject("telemetry"), "toolCallId"), "call_1");
    EXPECT_EQ(strField(tool->getObject("metadata"), "tool_call_id"), "call_1");
    auto llm = requesterOf(events, "get_weather");
    EXPECT_EQ(strField(llm, "identifier"), "ai.generateText.doGenerate");
    auto by = requestedBy(tool);
    ASSERT_TRUE(by);
    EXPECT_EQ(strField(by, "eventId"), strField(llm, "eventId"));
    EXPECT_EQ(strField(by, "spanId"), strField(llm, "spanId"));
    EXPECT_EQ(strField(by, "toolCallId"), "call_1");
    EXPECT_EQ(strField(by, "tool"), "get_weather");
    EXPECT_EQ(strField(by, "matchedBy"), "id");
    auto call = callNamed(llm, "get_weather");
    EXPECT_EQ(strField(call, "toolCallId"), "call_1");
    EXPECT_EQ(strField(call, "answeredBy"), strField(tool, "eventId"));
    expectNoOtherLinks(events, {tool});
  }
}

TEST_F(ToolCallLinksApi, OpenAiAgentsToolAndHandoffLinkByNameAndOrder) {
  auto p = newPublisher("links-agents");
  auto ids = postFixture(p, "openai-agents");
  ASSERT_EQ(ids.size(), 1u);
  auto events = traceEvents(p, ids.begin()->second);
  // The bridge's function span carries no call id; both LLM calls' requests say call_1.
  auto tools = named(events, "get_weather");
  ASSERT_EQ(tools.size(), 1u);
  EXPECT_TRUE(tools[0]->getObject("telemetry")->isNull("toolCallId"));
  auto weatherCall = requesterOf(events, "get_weather");
  auto by = requestedBy(tools[0]);
  ASSERT_TRUE(by);
  EXPECT_EQ(strField(by, "eventId"), strField(weatherCall, "eventId"));
  EXPECT_EQ(strField(by, "toolCallId"), "call_1");
  EXPECT_EQ(strField(by, "matchedBy"), "name");
  EXPECT_EQ(strField(callNamed(weatherCall, "get_weather"), "answeredBy"), strField(tools[0], "eventId"));

  // The hand-off span answers the triage agent's transfer_to_Weather call.
  auto handoffs = named(events, "handoff to Weather");
  ASSERT_EQ(handoffs.size(), 1u);
  EXPECT_EQ(strField(handoffs[0], "eventType"), "agent.handoff");
  auto transfer = requesterOf(events, "transfer_to_Weather");
  EXPECT_NE(strField(transfer, "eventId"), strField(weatherCall, "eventId"));
  auto handoffBy = requestedBy(handoffs[0]);
  ASSERT_TRUE(handoffBy);
  EXPECT_EQ(strField(handoffBy, "eventId"), strField(transfer, "eventId"));
  EXPECT_EQ(strField(handoffBy, "tool"), "transfer_to_Weather");
  EXPECT_EQ(strField(handoffBy, "matchedBy"), "name");
  EXPECT_EQ(strField(callNamed(transfer, "transfer_to_Weather"), "answeredBy"), strField(handoffs[0], "eventId"));
  expectNoOtherLinks(events, {tools[0], handoffs[0]});
}

// OTel GenAI names: an LLM call asking for two tools, the two execute_tool spans exported
// later, in another request and in the other order; a third run answering no request.
TEST_F(ToolCallLinksApi, OtelGenAiExecuteToolSpansLinkByCallIdAcrossExports) {
  auto p = newPublisher("links-genai");
  const std::string trace = "5c8efff798038103d269b633813fc60d";
  const auto at = [](std::int64_t ms) { return std::to_string((recentBase() + ms * kMs) * 1000); };
  const auto post = [&](const std::string& spans) {
    ASSERT_STATUS(p.keyed.post("/v1/traces", R"({"resourceSpans":[{"scopeSpans":[{"spans":[)" + spans + "]}]}]}",
                               {{"Content-Type", "application/json"}, {"x-channel-id", std::to_string(p.channelId)}}),
                  200);
  };
  const auto toolSpan = [&](const std::string& spanId, std::int64_t ms, const std::string& tool,
                            const std::string& callId) {
    return R"({"traceId":")" + trace + R"(","spanId":")" + spanId + R"(","parentSpanId":"aaaaaaaaaaaaaaaa",
      "name":"execute_tool )" +
           tool + R"(","startTimeUnixNano":")" + at(ms) + R"(","endTimeUnixNano":")" + at(ms + 10) + R"(","attributes":[
      {"key":"gen_ai.operation.name","value":{"stringValue":"execute_tool"}},
      {"key":"gen_ai.tool.name","value":{"stringValue":")" +
           tool + R"("}},
      {"key":"gen_ai.tool.call.id","value":{"stringValue":")" +
           callId + R"("}}]})";
  };
  post(toolSpan("3333333333333333", 1200, "get_time", "call_b") + "," +
       toolSpan("4444444444444444", 1300, "get_weather", "call_a") + "," +
       toolSpan("5555555555555555", 1400, "get_weather", "call_unknown"));
  post(R"({"traceId":")" + trace + R"(","spanId":"2222222222222222","parentSpanId":"aaaaaaaaaaaaaaaa",
      "name":"chat gpt-4o-mini","startTimeUnixNano":")" +
       at(0) + R"(","endTimeUnixNano":")" + at(1000) + R"(","attributes":[
      {"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},
      {"key":"gen_ai.request.model","value":{"stringValue":"gpt-4o-mini"}},
      {"key":"gen_ai.output.messages","value":{"stringValue":"[{\"role\":\"assistant\",\"parts\":[{\"type\":\"tool_call\",\"id\":\"call_a\",\"name\":\"get_weather\",\"arguments\":{\"city\":\"Paris\"}},{\"type\":\"tool_call\",\"id\":\"call_b\",\"name\":\"get_time\"}],\"finish_reason\":\"tool_call\"}]"}}]})");

  auto events = traceEvents(p, trace);
  ASSERT_EQ(events.size(), 4u);
  std::map<std::string, Object::Ptr> bySpan;
  for (const auto& e : events) bySpan[strField(e, "spanId")] = e;
  const auto llm = bySpan["2222222222222222"];
  for (const auto& [span, callId, tool] : {std::tuple{"4444444444444444", "call_a", "get_weather"},
                                           std::tuple{"3333333333333333", "call_b", "get_time"}}) {
    SCOPED_TRACE(span);
    auto by = requestedBy(bySpan[span]);
    ASSERT_TRUE(by);
    EXPECT_EQ(strField(by, "eventId"), strField(llm, "eventId"));
    EXPECT_EQ(strField(by, "toolCallId"), callId);
    EXPECT_EQ(strField(by, "tool"), tool);
    EXPECT_EQ(strField(by, "matchedBy"), "id");
    EXPECT_EQ(strField(callNamed(llm, tool), "answeredBy"), strField(bySpan[span], "eventId"));
  }
  const auto stray = bySpan["5555555555555555"];
  EXPECT_EQ(strField(stray->getObject("telemetry"), "toolCallId"), "call_unknown");
  EXPECT_FALSE(requestedBy(stray)) << "a run whose id no request names links to nothing, not by name";
  EXPECT_TRUE(llm->getObject("telemetry")->isNull("toolCallId"));
  EXPECT_FALSE(requestedBy(llm));
}

// POST /event: the run's start and end both answer the call named by metadata.tool_call_id.
TEST_F(ToolCallLinksApi, PostEventToolCallStartAndEndLinkByCallId) {
  auto p = newPublisher("links-event");
  const auto trace = "trace-" + unique();
  const auto base = recentBase();
  auto llm = publishOne(
      p.keyed, p.channelId, trace,
      {"chat", "agent.message", "a", base,
       obj({{"model", "gpt-4o"},
            {"gen_ai.output.messages",
             R"([{"role":"assistant","parts":[{"type":"tool_call","id":"c-7","name":"lookup","arguments":{}}]}])"}})});
  auto start = publishOne(
      p.keyed, p.channelId, trace,
      {"lookup", "agent.tool_call.start", "a", base + 10 * kMs, obj({{"tool", "lookup"}, {"tool_call_id", "c-7"}})});
  auto end = publishOne(
      p.keyed, p.channelId, trace,
      {"lookup", "agent.tool_call.end", "a", base + 20 * kMs, obj({{"tool", "lookup"}, {"tool_call_id", "c-7"}})});
  auto events = traceEvents(p, trace);
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(strField(events[0], "eventId"), strField(llm, "eventId"));
  for (std::size_t i : {1u, 2u}) {
    auto by = requestedBy(events[i]);
    ASSERT_TRUE(by) << i;
    EXPECT_EQ(strField(by, "eventId"), strField(llm, "eventId"));
    EXPECT_EQ(strField(by, "matchedBy"), "id");
    EXPECT_EQ(strField(events[i]->getObject("telemetry"), "toolCallId"), "c-7");
  }
  EXPECT_EQ(strField(callNamed(events[0], "lookup"), "answeredBy"), strField(start, "eventId"));
  (void)end;
}

}  // namespace
}  // namespace aev::testing
