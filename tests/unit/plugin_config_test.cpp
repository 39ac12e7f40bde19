// plugins/instance_config.h: the secret keys a component's configuration schema declares
// (writeOnly), sealed at rest and never shown, on SQLite and a real PostgreSQL: an export
// destination's config, a moderation rule's detectorConfig and an alert rule's
// destinationConfig hold no secret in clear, and open back to the plugin's exact object.
#include "plugins/instance_config.h"

#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include "store/alert_repository.h"
#include "store/export_destination_repository.h"
#include "store/moderation_rule_repository.h"
#include "unit/store_test.h"
#include "webhooks/secret_box.h"

namespace aev::plugins {
namespace {

constexpr const char* kSchema = R"({"type": "object", "required": ["path"], "properties": {
  "path": {"type": "string"}, "token": {"type": "string", "writeOnly": true},
  "limits": {"type": "object", "secret": true}}})";

Poco::JSON::Object::Ptr object(const std::string& text) {
  return Poco::JSON::Parser().parse(text).extract<Poco::JSON::Object::Ptr>();
}

TEST(InstanceConfig, SchemaDeclaresSecretAndRequiredKeys) {
  EXPECT_EQ(secretKeysOf(kSchema), (std::set<std::string>{"limits", "token"}));
  EXPECT_EQ(requiredKeysOf(kSchema), (std::set<std::string>{"path"}));
  EXPECT_TRUE(secretKeysOf("").empty());
  EXPECT_TRUE(secretKeysOf("not json").empty());
  EXPECT_TRUE(requiredKeysOf(R"({"required": "path"})").empty());
}

TEST(InstanceConfig, SealedValuesOpenToTheSameObjectAndAreNeverShown) {
  webhooks::SecretBox box(std::string(40, 'k'));
  auto stored =
      sealConfig(*object(R"({"path": "/a", "token": "s3cret-token", "limits": {"n": 3}})"), secretKeysOf(kSchema), box);
  EXPECT_EQ(stored.find("s3cret-token"), std::string::npos) << stored;
  EXPECT_NE(stored.find("$sealed"), std::string::npos) << stored;
  EXPECT_EQ(toJson(*openConfig(stored, box)), R"({"limits":{"n":3},"path":"/a","token":"s3cret-token"})");
  EXPECT_EQ(toJson(*publicConfig(stored)), R"({"path":"/a"})");
  EXPECT_EQ(sealedKeys(stored), (std::vector<std::string>{"limits", "token"}));
  // Sealing a stored object again keeps the sealed values as they are.
  EXPECT_EQ(sealConfig(*parseConfig(stored), secretKeysOf(kSchema), box), stored);
  // Another key does not open them.
  webhooks::SecretBox other(std::string(40, 'x'));
  EXPECT_THROW(openConfig(stored, other), std::runtime_error);
}

class SealedConfigStoreTest : public aev::testing::StoreTest {
 protected:
  void SetUp() override {
    openStore();
    if (IsSkipped()) return;
    org_ = addOrganization("sealed");
  }
  // The raw column as the store holds it.
  std::string raw(const std::string& sql) { return db_->query(sql).front().str("v"); }

  webhooks::SecretBox box_{std::string(40, 'k')};
  std::int64_t org_ = 0;
};

TEST_P(SealedConfigStoreTest, NoSecretIsStoredInClearAndEachOpensBack) {
  const auto config = object(R"({"path": "/var/x.ndjson", "token": "tok-123456"})");
  const auto stored = sealConfig(*config, secretKeysOf(kSchema), box_);

  store::ExportDestinationRecord d;
  d.orgId = org_;
  d.name = "file";
  d.kind = "ndjson_file";
  d.envSlug = "*";
  d.signals = {"logs"};
  d.encoding = "protobuf";
  d.config = stored;
  {
    auto c = db_->acquire();
    d.id = store::ExportDestinationRepository().insert(*c, d);
  }
  store::ModerationRuleRecord rule;
  rule.orgId = org_;
  rule.name = "r";
  rule.action = "flag";
  rule.detector = "acme.customer_number";
  rule.target = "request";
  rule.detectorConfig = stored;
  rule.minScore = 0.5;
  store::AlertRuleRecord alert;
  alert.orgId = org_;
  alert.name = "a";
  alert.metric = "event_count";
  alert.op = "gt";
  alert.destination = "https://hooks.example.com/x";
  alert.destinationType = "webhook";
  alert.destinationConfig = stored;
  db_->transaction([&](store::Connection& c) {
    rule.id = store::ModerationRuleRepository().insert(c, rule);
    alert.id = store::AlertRepository().insert(c, alert);
  });

  for (const auto& sql : {std::string("SELECT config AS v FROM export_destinations"),
                          std::string("SELECT detector_config AS v FROM moderation_rules"),
                          std::string("SELECT destination_config AS v FROM alert_rules")}) {
    const auto text = raw(sql);
    EXPECT_EQ(text.find("tok-123456"), std::string::npos) << sql << ": " << text;
    EXPECT_NE(text.find("\"$sealed\":\"sbx1:"), std::string::npos) << sql << ": " << text;
  }
  auto c = db_->acquire();
  auto readBack = store::ExportDestinationRepository().find(*c, org_, d.id);
  ASSERT_TRUE(readBack);
  EXPECT_EQ(openConfig(readBack->config, box_)->getValue<std::string>("token"), "tok-123456");
  auto ruleBack = store::ModerationRuleRepository().byId(*c, org_, rule.id);
  ASSERT_TRUE(ruleBack && ruleBack->detectorConfig);
  EXPECT_EQ(openConfig(*ruleBack->detectorConfig, box_)->getValue<std::string>("token"), "tok-123456");
  EXPECT_EQ(ruleBack->minScore, 0.5);
  auto alertBack = store::AlertRepository().byId(*c, org_, alert.id);
  ASSERT_TRUE(alertBack && alertBack->destinationConfig);
  EXPECT_EQ(toJson(*publicConfig(*alertBack->destinationConfig)), R"({"path":"/var/x.ndjson"})");
}

AEV_STORE_BACKENDS(SealedConfigStoreTest);

}  // namespace
}  // namespace aev::plugins
