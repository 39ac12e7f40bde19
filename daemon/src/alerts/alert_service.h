#pragma once
// /v2/alerts (docs/features.md#alerts): alert rules of an organization, validated
// and audited, and the history of their state changes. No HTTP types.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <Poco/JSON/Object.h>

#include "audit/actor.h"
#include "common/errors.h"
#include "plugins/components.h"
#include "store/alert_repository.h"
#include "store/app_repository.h"
#include "store/database.h"
#include "store/environment_repository.h"

namespace aev::audit {
class AuditLog;
}
namespace aev::plugins {
class Registry;
}
namespace aev::webhooks {
class SecretBox;
}

namespace aev::alerts {

// A create or PATCH body, already type-checked. Absent fields keep their value on PATCH;
// an inner nullopt (JSON null) clears an optional filter or destination.
struct AlertInput {
  std::optional<std::string> name;
  std::optional<std::string> metric;
  std::optional<std::string> op;
  std::optional<double> threshold;
  std::optional<std::int64_t> windowMins;
  std::optional<std::optional<std::int64_t>> appId;
  std::optional<std::optional<std::int64_t>> environmentId;
  std::optional<std::optional<std::string>> model;
  std::optional<std::optional<std::string>> service;
  std::optional<std::optional<std::string>> release;
  std::optional<std::optional<std::string>> destination;
  std::optional<std::optional<std::string>> destinationType;
  // The sink's own settings for this rule; replaces the whole object, null clears it.
  std::optional<Poco::JSON::Object::Ptr> destinationConfig;
  std::optional<bool> enabled;
};

class AlertService {
 public:
  static constexpr std::int64_t kMaxRulesPerOrg = 200;

  // secrets seals and opens the secret keys of destinationConfig (null: stored as is).
  AlertService(store::Database& db, audit::AuditLog& audit, const plugins::Registry* registry,
               bool allowPrivateAddresses, const webhooks::SecretBox* secrets = nullptr)
      : db_(db), audit_(audit), registry_(registry), allowPrivateAddresses_(allowPrivateAddresses), secrets_(secrets) {}

  store::AlertRuleRecord create(std::int64_t orgId, const AlertInput& input, const audit::Actor& actor);
  std::vector<store::AlertRuleRecord> list(std::int64_t orgId);
  store::AlertRuleRecord get(std::int64_t orgId, std::int64_t id);
  store::AlertRuleRecord update(std::int64_t orgId, std::int64_t id, const AlertInput& input,
                                const audit::Actor& actor);
  void remove(std::int64_t orgId, std::int64_t id, const audit::Actor& actor);
  // Newest first.
  std::vector<store::AlertEventRecord> history(std::int64_t orgId, std::int64_t id, std::int64_t limit);

  // The alert sink configuration of a rule's destination (also what delivery opens).
  std::string sinkConfig(const std::string& destination, const std::string& storedConfig = "{}") const;
  // The kinds a rule's destinationType may name: every loaded alert sink.
  std::vector<plugins::ComponentInfo> destinationKinds() const;

 private:
  std::vector<FieldError> problems(store::Connection& c, const store::AlertRuleRecord& rule);
  void apply(store::AlertRuleRecord& r, const AlertInput& in) const;

  store::Database& db_;
  audit::AuditLog& audit_;
  const plugins::Registry* registry_;
  bool allowPrivateAddresses_;
  const webhooks::SecretBox* secrets_;
  store::AlertRepository rules_;
  store::AppRepository apps_;
  store::EnvironmentRepository environments_;
};

}  // namespace aev::alerts
