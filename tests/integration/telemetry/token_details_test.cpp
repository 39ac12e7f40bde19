// Cached (cache-read) input tokens and reasoning tokens (docs/integrations.md#how-attributes-map)
// from POST /event and from OTLP spans of each convention that sends them, summed on the trace
// summary and the traces list (not in analytics breakdowns: the rollups do not carry them).
#include <map>

#include "integration/telemetry/traces_support.h"

namespace aev::testing {
namespace {

class TokenDetailsApi : public TracesTest {
 protected:
  static Poco::JSON::Object::Ptr summary(const Publisher& p, const std::string& traceId) {
    auto r = p.keyed.get(tracePath(traceId, "summary"));
    if (r.status != 200) throw std::runtime_error("summary: " + r.describe());
    return r.object();
  }
};

TEST_F(TokenDetailsApi, CachedAndReasoningTokensAreSummedOnTraces) {
  auto p = newPublisher("tokdet");
  const auto trace = "trace-" + unique();
  publishOne(p.keyed, p.channelId, trace,
             {"call", "agent.message", "a", std::nullopt,
              obj({{"model", "gpt-4o"},
                   {"usage", obj({{"input_tokens", 1000},
                                  {"output_tokens", 500},
                                  {"cached_input_tokens", 400},
                                  {"reasoning_tokens", 120}})}})});
  publishOne(p.keyed, p.channelId, trace,
             {"call2", "agent.message", "a", std::nullopt,
              obj({{"model", "gpt-4o"},
                   {"gen_ai.usage.cache_read.input_tokens", 10},
                   {"usage", obj({{"input_tokens", 100}, {"output_tokens", 50}})}})});
  // An OpenInference span of the same trace, through OTLP.
  const std::string otlpTrace = "7b8efff798038103d269b633813fc60c";
  const auto at = [](std::int64_t ms) { return std::to_string((recentBase() + ms * kMs) * 1000); };
  const std::string span = R"({"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":")" + otlpTrace +
                           R"(","spanId":"3333333333333333","name":"ChatCompletion","startTimeUnixNano":")" + at(0) +
                           R"(","endTimeUnixNano":")" + at(500) + R"(","attributes":[
      {"key":"openinference.span.kind","value":{"stringValue":"LLM"}},
      {"key":"llm.model_name","value":{"stringValue":"gpt-4o"}},
      {"key":"llm.token_count.prompt","value":{"intValue":"300"}},
      {"key":"llm.token_count.completion","value":{"intValue":"90"}},
      {"key":"llm.token_count.prompt_details.cache_read","value":{"intValue":"200"}},
      {"key":"llm.token_count.completion_details.reasoning","value":{"intValue":"30"}}]}]}]}]})";
  ASSERT_STATUS(p.keyed.post("/v1/traces", span,
                             {{"Content-Type", "application/json"}, {"x-channel-id", std::to_string(p.channelId)}}),
                200);

  auto s = summary(p, trace);
  EXPECT_EQ(intField(s, "inputTokens"), 1100);
  EXPECT_EQ(intField(s, "cachedInputTokens"), 410);
  EXPECT_EQ(intField(s, "reasoningTokens"), 120);
  auto o = summary(p, otlpTrace);
  EXPECT_EQ(intField(o, "cachedInputTokens"), 200);
  EXPECT_EQ(intField(o, "reasoningTokens"), 30);
  // The list shows them too.
  bool listed = false;
  for (const auto& t : objects(listOf(p.keyed.get("/traces"))))
    if (strField(t, "traceId") == trace) {
      listed = true;
      EXPECT_EQ(intField(t, "cachedInputTokens"), 410);
    }
  EXPECT_TRUE(listed) << "the trace is not in GET /traces";

  auto rows = objects(p.keyed.get("/analytics/breakdown?dimension=model").object()->getArray("rows"));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(intField(rows[0], "inputTokens"), 1400);
}

}  // namespace
}  // namespace aev::testing
