// Webhook endpoints through the API (docs/features.md#webhooks, docs/features.md#outbound-requests): creation
// shows the secret once, lists and reads never do, every bad field is one 422, another
// organization's endpoints and channels do not exist, the ingest route refuses clients,
// and with private addresses off a loopback receiver is refused at creation.
#include <gtest/gtest.h>

#include "integration/delivery/delivery_support.h"

namespace aev::testing {
namespace {

class WebhookEndpointsApi : public DeliveryTest {};

TEST_F(WebhookEndpointsApi, CreateShowsTheSecretOnceAndListsWithoutIt) {
  auto t = newTenant("wh");
  const auto ch = newChannel(t);
  HttpReceiver receiver;
  auto created = createEndpoint(t, ch, receiver.url(),
                                obj({{"eventTypes", arr({"agent.error", "agent.end"})}, {"description", "ops"}}));
  const auto id = intField(created, "id");
  EXPECT_EQ(strField(created, "endpointId"), std::to_string(id));
  EXPECT_EQ(intField(created, "channelId"), ch);
  EXPECT_EQ(strField(created, "orgId"), std::to_string(t.orgId));
  EXPECT_EQ(strField(created, "url"), receiver.url());
  EXPECT_EQ(strField(created, "description"), "ops");
  EXPECT_TRUE(created->getValue<bool>("active"));
  EXPECT_EQ(created->getArray("eventTypes")->size(), 2u);
  EXPECT_FALSE(strField(created, "createdAt").empty());
  const auto secret = strField(created, "secret");
  ASSERT_EQ(secret.rfind("whsec_", 0), 0u) << secret;
  EXPECT_GE(secret.size(), 6u + 32u);

  auto listed = t.http.get("/webhooks/endpoints/channel/" + std::to_string(ch));
  ASSERT_STATUS(listed, 200);
  auto items = objects(listed.array());
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(intField(items[0], "id"), id);
  EXPECT_FALSE(items[0]->has("secret"));
  EXPECT_EQ(listed.body.find(secret), std::string::npos);

  auto one = t.http.get("/webhooks/endpoints/" + std::to_string(id));
  ASSERT_STATUS(one, 200);
  EXPECT_FALSE(one.object()->has("secret"));

  // A second endpoint gets its own secret.
  auto other = createEndpoint(t, ch, receiver.url("/other"));
  EXPECT_NE(strField(other, "secret"), secret);

  ASSERT_STATUS(t.http.del("/webhooks/endpoints/" + std::to_string(id)), 204);
  EXPECT_TRUE(IsProblem(t.http.get("/webhooks/endpoints/" + std::to_string(id)), 404));
  EXPECT_TRUE(IsProblem(t.http.del("/webhooks/endpoints/" + std::to_string(id)), 404));
  EXPECT_TRUE(IsProblem(t.http.get("/webhooks/deliveries/" + std::to_string(id)), 404));
  EXPECT_EQ(objects(t.http.get("/webhooks/endpoints/channel/" + std::to_string(ch)).array()).size(), 1u);

  // Audited, never with the secret.
  auto audit = t.http.get("/audit-logs?resourceType=webhook");
  ASSERT_STATUS(audit, 200);
  std::vector<std::string> actions;
  for (const auto& e : objects(audit.object()->getArray("data"))) actions.push_back(strField(e, "action"));
  EXPECT_EQ(actions, (std::vector<std::string>{"webhook.delete", "webhook.create", "webhook.create"}));
  EXPECT_EQ(audit.body.find(secret), std::string::npos);
  EXPECT_EQ(audit.body.find("whsec_"), std::string::npos);
}

TEST_F(WebhookEndpointsApi, BadFieldsAreOne422AndSaveNothing) {
  auto t = newTenant("whbad");
  const auto ch = newChannel(t);
  auto r = postEndpoint(t, obj({{"url", "ftp://example.com/x"},
                                {"eventTypes", arr({"agent.nope"})},
                                {"description", std::string(501, 'd')},
                                {"colour", "red"}}));
  ASSERT_TRUE(IsProblem(r, 422));
  auto where = errorLocations(r);
  for (const char* field : {"body.url", "body.channelId", "body.eventTypes", "body.description", "body.colour"})
    EXPECT_NE(std::find(where.begin(), where.end(), field), where.end()) << field << " in " << r.body;

  EXPECT_TRUE(IsProblem(postEndpoint(t, obj({{"url", "http://127.0.0.1:9/x"}, {"channelId", ch},
                                             {"eventTypes", arr({})}})),
                        422));
  EXPECT_TRUE(IsProblem(postEndpoint(t, obj({{"channelId", ch}})), 422));
  EXPECT_TRUE(IsProblem(postEndpoint(t, obj({{"url", "http://127.0.0.1:9/x"}, {"channelId", 987654321}})), 422));
  EXPECT_TRUE(IsProblem(t.http.post("/webhooks/endpoints", std::string("{not json")), 400));
  EXPECT_EQ(objects(t.http.get("/webhooks/endpoints/channel/" + std::to_string(ch)).array()).size(), 0u);
  EXPECT_TRUE(IsProblem(t.http.get("/webhooks/endpoints/channel/987654321"), 404));
  EXPECT_TRUE(IsProblem(t.http.get("/webhooks/deliveries/abc"), 404));
}

TEST_F(WebhookEndpointsApi, AnotherOrganizationsEndpointsAndChannelsDoNotExist) {
  auto a = newTenant("wha");
  auto b = newTenant("whb");
  const auto ch = newChannel(a);
  HttpReceiver receiver;
  const auto id = intField(createEndpoint(a, ch, receiver.url()), "id");
  const auto path = "/webhooks/endpoints/" + std::to_string(id);
  EXPECT_TRUE(IsProblem(b.http.get(path), 404));
  EXPECT_TRUE(IsProblem(b.http.patch(path, obj({{"active", false}})), 404));
  EXPECT_TRUE(IsProblem(b.http.del(path), 404));
  EXPECT_TRUE(IsProblem(b.http.get("/webhooks/deliveries/" + std::to_string(id)), 404));
  EXPECT_TRUE(IsProblem(b.http.get("/webhooks/endpoints/channel/" + std::to_string(ch)), 404));
  EXPECT_TRUE(IsProblem(b.http.post(path + "/deliveries/1/redeliver"), 404));
  // B cannot attach its own receiver to A's channel.
  auto r = postEndpoint(b, obj({{"url", receiver.url("/b")}, {"channelId", ch}}));
  ASSERT_TRUE(IsProblem(r, 422));
  EXPECT_EQ(errorLocations(r), std::vector<std::string>{"body.channelId"});
  // A's endpoint is untouched.
  ASSERT_STATUS(a.http.get(path), 200);
  EXPECT_TRUE(a.http.get(path).object()->getValue<bool>("active"));
}

TEST_F(WebhookEndpointsApi, PatchChangesFieldsAndRefusesBadOnes) {
  auto t = newTenant("whpatch");
  const auto ch = newChannel(t);
  HttpReceiver receiver;
  const auto id = intField(createEndpoint(t, ch, receiver.url()), "id");
  const auto path = "/webhooks/endpoints/" + std::to_string(id);
  auto r = t.http.patch(path, obj({{"description", "new"}, {"eventTypes", arr({"custom"})}, {"active", false}}));
  ASSERT_STATUS(r, 200);
  EXPECT_EQ(strField(r.object(), "description"), "new");
  EXPECT_FALSE(r.object()->getValue<bool>("active"));
  EXPECT_FALSE(r.object()->has("secret"));
  EXPECT_TRUE(IsProblem(t.http.patch(path, obj({{"channelId", ch}})), 422));
  EXPECT_TRUE(IsProblem(t.http.patch(path, obj({{"url", "gopher://x"}})), 422));
  auto back = t.http.patch(path, obj({{"active", true}, {"eventTypes", Poco::Dynamic::Var()}}));
  ASSERT_STATUS(back, 200);
  EXPECT_TRUE(back.object()->getValue<bool>("active"));
  EXPECT_TRUE(back.object()->isNull("eventTypes"));
  EXPECT_EQ(strField(back.object(), "description"), "new");
}

TEST_F(WebhookEndpointsApi, IngestIsRefusedToClients) {
  auto t = newTenant("whingest");
  const auto ch = newChannel(t);
  HttpReceiver receiver;
  const auto id = intField(createEndpoint(t, ch, receiver.url()), "id");
  const auto path = "/webhooks/ingest/" + std::to_string(id);
  // A signed-in member of the organization, an anonymous caller, a wrong key: all 403.
  EXPECT_TRUE(IsProblem(t.http.post(path, std::string("{}")), 403));
  EXPECT_TRUE(IsProblem(anon().post(path, std::string("{}")), 403));
  EXPECT_TRUE(IsProblem(anon().post(path, std::string("{}"), {{"x-internal-key", "guess"}}), 403));
  EXPECT_TRUE(IsProblem(anon().post("/webhooks/ingest/not-a-number", std::string("{}")), 403));
  // The service's own key is accepted.
  auto ok = anon().post(path, std::string("{}"), {{"x-internal-key", kInternalKey}});
  ASSERT_STATUS(ok, 202);
  EXPECT_EQ(intField(ok.object(), "pending"), 0);
}

TEST_F(WebhookEndpointsApi, RoutesAreDocumented) {
  auto doc = anon().get("/openapi.json");
  ASSERT_STATUS(doc, 200);
  for (const char* p : {"/webhooks/endpoints", "/webhooks/deliveries/{endpointId}", "/webhooks/ingest/{endpointId}"})
    EXPECT_NE(doc.body.find(p), std::string::npos) << p;
  ASSERT_STATUS(anon().get("/schemas/WebhookEndpoint.json"), 200);
  ASSERT_STATUS(anon().get("/schemas/ExportDestination.json"), 200);
}

// Private addresses off (the default): a loopback receiver is refused when the endpoint
// is created (docs/features.md#outbound-requests).
class WebhookPolicyApi : public DeliveryTest {
 public:
  static void SetUpTestSuite() {
    startDaemon(options(deliverySettings({{"outbound.allow_private_addresses", "false"}})));
  }
};

TEST_F(WebhookPolicyApi, LoopbackAndPrivateReceiversAreRefusedAtCreation) {
  auto t = newTenant("whpol");
  const auto ch = newChannel(t);
  for (const char* url : {"http://127.0.0.1:8080/hook", "http://localhost/hook", "http://10.1.2.3/x",
                          "http://169.254.169.254/latest/meta-data", "http://[::1]:9/x", "http://192.168.0.10/"}) {
    auto r = postEndpoint(t, obj({{"url", url}, {"channelId", ch}}));
    ASSERT_TRUE(IsProblem(r, 422)) << url;
    EXPECT_EQ(errorLocations(r), std::vector<std::string>{"body.url"}) << r.body;
    EXPECT_NE(r.body.find("outbound.allow_private_addresses"), std::string::npos) << r.body;
  }
  EXPECT_EQ(objects(t.http.get("/webhooks/endpoints/channel/" + std::to_string(ch)).array()).size(), 0u);
}

}  // namespace
}  // namespace aev::testing
