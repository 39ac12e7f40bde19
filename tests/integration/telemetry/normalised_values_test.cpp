// Providers and finish reasons of POST /event normalised as the OTLP mapping does (the
// values as sent kept in metadata; docs/integrations.md#how-attributes-map), and two
// instrumentations' spans of one LLM call counted once (#two-instrumentations-on-one-client).
#include <map>
#include <set>

#include "integration/telemetry/traces_support.h"

namespace aev::testing {
namespace {

class NormalisedValuesApi : public TracesTest {
 protected:
  static Poco::JSON::Object::Ptr summary(const Publisher& p, const std::string& traceId) {
    auto r = p.keyed.get(tracePath(traceId, "summary"));
    if (r.status != 200) throw std::runtime_error("summary: " + r.describe());
    return r.object();
  }
  static std::map<std::string, Poco::JSON::Object::Ptr> breakdown(const Publisher& p, const std::string& dimension) {
    auto r = p.keyed.get("/analytics/breakdown?dimension=" + dimension);
    if (r.status != 200) throw std::runtime_error("breakdown: " + r.describe());
    std::map<std::string, Poco::JSON::Object::Ptr> out;
    for (const auto& row : objects(r.object()->getArray("rows"))) out[strField(row, "key")] = row;
    return out;
  }
};

TEST_F(NormalisedValuesApi, PostEventProvidersAndFinishReasonsAreNormalised) {
  auto p = newPublisher("tokdet");
  const auto trace = "trace-" + unique();
  publishOne(p.keyed, p.channelId, trace,
             {"call", "agent.message", "a", std::nullopt,
              obj({{"model", "gpt-4o"},
                   {"provider", "OpenAI"},
                   {"finish_reason", "end_turn"},
                   {"usage", obj({{"input_tokens", 1000}, {"output_tokens", 500}})}})});
  publishOne(p.keyed, p.channelId, trace,
             {"call2", "agent.message", "a", std::nullopt,
              obj({{"model", "gpt-4o"},
                   {"provider", "openai.chat"},
                   {"finish_reason", "STOP"},
                   {"usage", obj({{"input_tokens", 100}, {"output_tokens", 50}})}})});
  auto s = summary(p, trace);
  EXPECT_EQ(intField(s, "inputTokens"), 1100);
  EXPECT_EQ(intField(s, "outputTokens"), 550);

  auto providers = breakdown(p, "provider");
  ASSERT_EQ(providers.size(), 1u) << "OpenAI and openai.chat are one provider";
  ASSERT_EQ(providers.count("openai"), 1u);
  EXPECT_EQ(intField(providers["openai"], "eventCount"), 2);
  EXPECT_EQ(intField(providers["openai"], "inputTokens"), 1100);
  auto reasons = breakdown(p, "finishReason");
  ASSERT_EQ(reasons.size(), 1u);
  EXPECT_EQ(intField(reasons["stop"], "eventCount"), 2);

  // The values as sent stay in the event's metadata.
  auto events = objects(listOf(p.keyed.get(tracePath(trace, "events"))));
  ASSERT_EQ(events.size(), 2u);
  std::set<std::string> sent;
  for (const auto& e : events) sent.insert(strField(e->getObject("metadata"), "provider"));
  EXPECT_EQ(sent, (std::set<std::string>{"OpenAI", "openai.chat"}));
}

TEST_F(NormalisedValuesApi, TwoInstrumentationsOfOneLlmCallCountItOnce) {
  auto p = newPublisher("tokdup");
  const std::string trace = "6b8efff798038103d269b633813fc60c";
  // Recent times (analytics looks at a recent window), in nanoseconds.
  const auto at = [](std::int64_t ms) { return std::to_string((recentBase() + ms * kMs) * 1000); };
  const std::string spans = R"({"resourceSpans":[{"scopeSpans":[
    {"scope":{"name":"@arizeai/openinference-instrumentation-openai"},"spans":[{"traceId":")" +
                            trace +
                            R"(","spanId":"1111111111111111","name":"ChatCompletion",
      "startTimeUnixNano":")" +
                            at(0) + R"(","endTimeUnixNano":")" + at(900) + R"(","attributes":[
      {"key":"openinference.span.kind","value":{"stringValue":"LLM"}},
      {"key":"llm.model_name","value":{"stringValue":"gpt-4o-mini"}},
      {"key":"llm.system","value":{"stringValue":"openai"}},
      {"key":"llm.token_count.prompt","value":{"intValue":"1000"}},
      {"key":"llm.token_count.completion","value":{"intValue":"200"}},
      {"key":"llm.token_count.prompt_details.cache_read","value":{"intValue":"300"}},
      {"key":"llm.token_count.completion_details.reasoning","value":{"intValue":"50"}}]}]},
    {"scope":{"name":"@traceloop/instrumentation-openai"},"spans":[{"traceId":")" +
                            trace + R"(","spanId":"2222222222222222","name":"openai.chat",
      "startTimeUnixNano":")" +
                            at(5) + R"(","endTimeUnixNano":")" + at(905) + R"(","attributes":[
      {"key":"llm.request.type","value":{"stringValue":"chat"}},
      {"key":"gen_ai.system","value":{"stringValue":"OpenAI"}},
      {"key":"gen_ai.request.model","value":{"stringValue":"gpt-4o-mini"}},
      {"key":"gen_ai.usage.input_tokens","value":{"intValue":"1000"}},
      {"key":"gen_ai.usage.output_tokens","value":{"intValue":"200"}},
      {"key":"gen_ai.usage.cache_read_input_tokens","value":{"intValue":"300"}}]}]}]}]})";
  auto r = p.keyed.post("/v1/traces", spans,
                        {{"Content-Type", "application/json"}, {"x-channel-id", std::to_string(p.channelId)}});
  ASSERT_STATUS(r, 200);

  auto events = objects(listOf(p.keyed.get(tracePath(trace, "events"))));
  ASSERT_EQ(events.size(), 2u) << "both spans are kept as events";
  std::map<std::string, Poco::JSON::Object::Ptr> bySpan;
  for (const auto& e : events) bySpan[strField(e, "spanId")] = e;
  EXPECT_FALSE(bySpan["1111111111111111"]->getObject("metadata")->has("duplicate_of"));
  EXPECT_EQ(strField(bySpan["2222222222222222"]->getObject("metadata"), "duplicate_of"), "1111111111111111");

  auto s = summary(p, trace);
  EXPECT_EQ(intField(s, "inputTokens"), 1000);
  EXPECT_EQ(intField(s, "outputTokens"), 200);
  auto models = breakdown(p, "model");
  ASSERT_EQ(models.count("gpt-4o-mini"), 1u);
  EXPECT_EQ(intField(models["gpt-4o-mini"], "eventCount"), 2);
  EXPECT_EQ(intField(models["gpt-4o-mini"], "inputTokens"), 1000);
  // Its cost is the list price of one call.
  EXPECT_NEAR(models["gpt-4o-mini"]->getValue<double>("costUsd"), (1000 * 0.15 + 200 * 0.60) / 1e6, 1e-12);
}

}  // namespace
}  // namespace aev::testing
