#include "integration/spend/spend_support.h"

#include <Poco/JSON/Stringifier.h>

#include <atomic>
#include <sstream>

namespace aev::testing {

namespace {
std::atomic<std::uint64_t> spanCounter{1};

std::string hex(std::uint64_t value, int digits) {
  std::string out(static_cast<std::size_t>(digits), '0');
  for (int i = digits - 1; i >= 0 && value; --i, value >>= 4)
    out[static_cast<std::size_t>(i)] = "0123456789abcdef"[value & 15];
  return out;
}
}  // namespace

Poco::JSON::Object::Ptr SpendTest::createPolicy(const Tenant& t, Poco::JSON::Object::Ptr body) {
  auto r = t.http.post("/spend-policies", body);
  if (r.status != 201) throw std::runtime_error("policy not created: " + r.describe());
  return r.object();
}

Poco::JSON::Object::Ptr SpendTest::policyBody(double limitUsd, Poco::JSON::Array::Ptr rungs,
                                              const std::string& windowType) {
  return obj({{"name", "budget " + unique()}, {"limitUsd", limitUsd}, {"windowType", windowType}, {"rungs", rungs}});
}

Poco::JSON::Object::Ptr SpendTest::rung(int atPercent, const std::string& action, const std::string& blockMode,
                                        const std::string& fallbackModel) {
  auto r = obj({{"at_percent", atPercent}, {"action", action}});
  if (!blockMode.empty()) r->set("block_mode", blockMode);
  if (!fallbackModel.empty()) r->set("fallback_model", fallbackModel);
  return r;
}

Poco::JSON::Object::Ptr SpendTest::costEvent(std::int64_t channelId, double costUsd, const std::string& model,
                                             Poco::JSON::Object::Ptr extraMetadata) {
  auto metadata = obj({{"model", model}, {"provider", "openai"}, {"cost_usd", costUsd}});
  if (extraMetadata)
    for (const auto& [k, v] : *extraMetadata) metadata->set(k, v);
  return eventBody(channelId, "llm-call", obj({{"role", "user"}}),
                   obj({{"eventType", "agent.llm.token"}, {"metadata", metadata}}));
}

std::string SpendTest::otlpSpan(const std::string& spanName, double costUsd, const std::string& model) {
  Poco::JSON::Array::Ptr attributes = new Poco::JSON::Array;
  attributes->add(obj({{"key", "gen_ai.operation.name"}, {"value", obj({{"stringValue", "chat"}})}}));
  attributes->add(obj({{"key", "gen_ai.request.model"}, {"value", obj({{"stringValue", model}})}}));
  attributes->add(obj({{"key", "cost_usd"}, {"value", obj({{"doubleValue", costUsd}})}}));
  const auto n = spanCounter++;
  auto span = obj({{"traceId", hex(0x5e7d0000 + n, 32)},
                   {"spanId", hex(0x2000 + n, 16)},
                   {"name", spanName},
                   {"startTimeUnixNano", "1700000000000000000"},
                   {"endTimeUnixNano", "1700000000500000000"},
                   {"attributes", attributes}});
  auto request = obj({{"resourceSpans", arr({obj({{"scopeSpans", arr({obj({{"spans", arr({span})}})})}})})}});
  std::ostringstream out;
  Poco::JSON::Stringifier::condense(request, out);
  return out.str();
}

double SpendTest::currentSpend(const Tenant& t, const std::string& policyId) {
  auto r = t.http.get("/spend-policies/" + policyId);
  if (r.status != 200) throw std::runtime_error("policy not read: " + r.describe());
  return r.object()->getValue<double>("currentSpendUsd");
}

}  // namespace aev::testing
