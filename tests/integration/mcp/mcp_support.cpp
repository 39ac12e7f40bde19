#include "integration/mcp/mcp_support.h"

#include <Poco/JSON/Parser.h>

namespace aev::testing {

namespace {

Poco::JSON::Object::Ptr meta(const std::string& json) {
  return Poco::JSON::Parser().parse(json).extract<Poco::JSON::Object::Ptr>();
}

}  // namespace

SeededOrg McpTest::seedOrg(const std::string& tag, int bigEvents) {
  SeededOrg s;
  s.publisher = newPublisher(tag);
  const auto& p = s.publisher;
  s.traceId = "trace-" + tag + "-" + unique();
  const auto base = recentBase();
  auto stored = publishBatch(
      p.keyed, p.channelId, s.traceId,
      {TraceEventSpec(
           "plan", "agent.start", "planner", base,
           meta(R"({"model":"gpt-4o","provider":"openai","usage":{"input_tokens":1000,"output_tokens":500},)"
                R"("cost_usd":0.25,"duration_ms":120,"tags":{"team":"search"},"session":"chat-1","user":"ada"})")),
       TraceEventSpec("search", "agent.tool_call.start", "planner", base + 100 * kMs,
                      meta(R"({"model":"gpt-4o","duration_ms":340,"tags":{"team":"search"}})")),
       TraceEventSpec(
           "failed", "agent.error", "worker", base + 300 * kMs,
           meta(R"({"model":"claude-3-haiku","status":"error","error_type":"timeout","duration_ms":900})"))});
  s.eventId = intField(stored.front(), "id");

  // A flagged message: one moderation violation.
  createFlagRule(p.tenant);
  publish(p.keyed, p.channelId, "user-message",
          obj({{"role", "user"}, {"content", "I want a refund " + std::string(200, 'x')}}),
          obj({{"eventType", "agent.message"}}));

  auto alert = p.tenant.user.http.post("/v2/alerts",
                                       R"({"name":"Errors","metric":"error_rate","operator":"gt","threshold":0.05})");
  if (alert.status != 201) throw std::runtime_error("alert: " + alert.describe());
  auto policy = p.tenant.http.post(
      "/spend-policies",
      R"({"name":"Monthly","limitUsd":100,"windowType":"month","rungs":[{"at_percent":80,"action":"alert"}]})");
  if (policy.status != 201) throw std::runtime_error("spend policy: " + policy.describe());
  s.policyId = strField(policy.object(), "policyId");

  s.bigChannelId = createChannel(p.tenant, p.appId, "big-" + unique());
  if (bigEvents > 0) {
    Poco::JSON::Array::Ptr events = new Poco::JSON::Array;
    for (int i = 0; i < bigEvents; ++i)
      events->add(eventBody(s.bigChannelId, "big-" + std::to_string(i),
                            obj({{"text", std::string(1500, static_cast<char>('a' + i % 26)) + " é ✓"}})));
    auto r = p.keyed.post("/events/batch", obj({{"events", events}}));
    if (r.status != 200 || r.body.find("\"failed\":0") == std::string::npos)
      throw std::runtime_error("big batch: " + r.describe());
  }

  s.readKey = createKey(p.tenant, {"read"});
  s.publishKey = createKey(p.tenant, {"publish"});
  s.revokedKey = createKey(p.tenant, {"read"});
  auto revoked = p.tenant.http.del("/api-keys/" + std::to_string(s.revokedKey.id));
  if (revoked.status != 204) throw std::runtime_error("revoke: " + revoked.describe());
  return s;
}

void McpTest::createFlagRule(const Tenant& t) {
  auto r = t.http.post("/moderation/rules", obj({{"name", "refunds"},
                                                 {"action", "flag"},
                                                 {"detector", "keyword"},
                                                 {"pattern", "refund"},
                                                 {"target", "request"}}));
  if (r.status != 201) throw std::runtime_error("moderation rule: " + r.describe());
}

HttpResult McpTest::rpc(const std::string& key, const std::string& body, const Headers& extra) {
  Headers headers = {{"Content-Type", "application/json"}, {"Accept", "application/json, text/event-stream"}};
  if (!key.empty()) headers.emplace_back("Authorization", "Bearer " + key);
  for (const auto& h : extra) headers.push_back(h);
  return anon().request("POST", "/mcp", body, headers);
}

std::string McpTest::call(int id, const std::string& method, const std::string& params) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":")" + method + R"(","params":)" + params + "}";
}

}  // namespace aev::testing
