#pragma once
// Helpers of the spend suites: policies created through the API, events and OTLP spans
// that report a cost (metadata.cost_usd), and a policy's currentSpendUsd read back.
#include <cstdint>
#include <string>

#include "integration/telemetry/traces_support.h"

namespace aev::testing {

class SpendTest : public TracesTest {
 protected:
  // POST /spend-policies as the tenant; the 201 body (throws otherwise).
  static Poco::JSON::Object::Ptr createPolicy(const Tenant& t, Poco::JSON::Object::Ptr body);
  // A minimal valid body: name, limitUsd, windowType, rungs.
  static Poco::JSON::Object::Ptr policyBody(double limitUsd, Poco::JSON::Array::Ptr rungs,
                                            const std::string& windowType = "month");
  static Poco::JSON::Object::Ptr rung(int atPercent, const std::string& action, const std::string& blockMode = "",
                                      const std::string& fallbackModel = "");
  // An event of model `model` costing `costUsd` (plus `extraMetadata` fields).
  static Poco::JSON::Object::Ptr costEvent(std::int64_t channelId, double costUsd, const std::string& model = "gpt-4o",
                                           Poco::JSON::Object::Ptr extraMetadata = nullptr);
  // An OTLP/JSON export of one chat span of `model` costing `costUsd`.
  static std::string otlpSpan(const std::string& spanName, double costUsd, const std::string& model);
  // currentSpendUsd of GET /spend-policies/{id}.
  static double currentSpend(const Tenant& t, const std::string& policyId);
};

}  // namespace aev::testing
