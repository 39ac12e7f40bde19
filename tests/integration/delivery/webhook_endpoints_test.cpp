// Webhook endpoints through the API (docs/features.md#webhooks, docs/features.md#outbound-requests): creation
// shows the secret once, lists and reads never do, every bad field is one 422, another
// organization's endpoints and channels do not exist, the ingest route refuses clients,
// and with private addresses off a loopback receiver is refused at creation.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

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

// GET /webhooks/endpoints: the organization's endpoints in one list, whatever the channel.
std::vector<std::int64_t> listedIds(const Tenant& t, const std::string& query = "") {
  auto r = t.http.get("/webhooks/endpoints" + query);
  if (r.status != 200) throw std::runtime_error("GET /webhooks/endpoints" + query + ": " + r.describe());
  std::vector<std::int64_t> ids;
  for (const auto& e : objects(r.object()->getArray("data"))) ids.push_back(intField(e, "id"));
  return ids;
}

TEST_F(WebhookEndpointsApi, OrganizationListIsTheUnionOfTheChannelListsAndFilters) {
  auto t = newTenant("whall");
  auto other = newTenant("whallother");
  HttpReceiver receiver;
  const auto appA = createApp(t);
  const auto appB = createApp(t);
  const auto a1 = createChannel(t, appA);
  const auto a2 = createChannel(t, appA);
  const auto b1 = createChannel(t, appB);
  const auto quiet = createChannel(t, appB);  // no endpoint
  const auto e1 = intField(createEndpoint(t, a1, receiver.url("/1")), "id");
  const auto e2 = intField(createEndpoint(t, a1, receiver.url("/2")), "id");
  const auto e3 = intField(createEndpoint(t, a2, receiver.url("/3")), "id");
  const auto e4 = intField(createEndpoint(t, b1, receiver.url("/4")), "id");
  ASSERT_STATUS(t.http.patch("/webhooks/endpoints/" + std::to_string(e4), obj({{"active", false}})), 200);
  const auto theirs = intField(createEndpoint(other, newChannel(other), receiver.url("/theirs")), "id");

  // The envelope and each record, as the per-channel list shows them (never the secret).
  auto r = t.http.get("/webhooks/endpoints");
  ASSERT_STATUS(r, 200);
  auto body = r.object();
  EXPECT_EQ(strField(body, "$schema"), schemaBase() + "WebhookEndpointPage.json");
  auto meta = body->getObject("meta");
  EXPECT_EQ(intField(meta, "total"), 4);
  EXPECT_EQ(intField(meta, "page"), 1);
  EXPECT_EQ(intField(meta, "limit"), 20);
  EXPECT_EQ(intField(meta, "totalPages"), 1);
  EXPECT_EQ(r.body.find("\"secret\""), std::string::npos);
  std::set<std::int64_t> listed;
  for (const auto& e : objects(body->getArray("data"))) {
    listed.insert(intField(e, "id"));
    EXPECT_EQ(strField(e, "$schema"), schemaBase() + "WebhookEndpoint.json");
  }
  std::set<std::int64_t> perChannel;
  for (auto ch : {a1, a2, b1, quiet}) {
    auto one = t.http.get("/webhooks/endpoints/channel/" + std::to_string(ch));
    ASSERT_STATUS(one, 200);
    for (const auto& e : objects(one.array())) perChannel.insert(intField(e, "id"));
  }
  EXPECT_EQ(listed, perChannel);
  EXPECT_EQ(listedIds(t), (std::vector<std::int64_t>{e1, e2, e3, e4}));
  // Each record is the per-channel list's record, field for field.
  auto fromChannel = objects(t.http.get("/webhooks/endpoints/channel/" + std::to_string(a2)).array()).front();
  for (const auto& e : objects(body->getArray("data"))) {
    if (intField(e, "id") != e3) continue;
    std::ostringstream a, b;
    e->stringify(a);
    fromChannel->stringify(b);
    EXPECT_EQ(a.str(), b.str());
  }

  // Filters, alone and together.
  EXPECT_EQ(listedIds(t, "?channelId=" + std::to_string(a1)), (std::vector<std::int64_t>{e1, e2}));
  EXPECT_EQ(listedIds(t, "?channelId=" + std::to_string(quiet)), std::vector<std::int64_t>{});
  EXPECT_EQ(listedIds(t, "?appId=" + std::to_string(appA)), (std::vector<std::int64_t>{e1, e2, e3}));
  EXPECT_EQ(listedIds(t, "?appId=" + std::to_string(appB)), std::vector<std::int64_t>{e4});
  EXPECT_EQ(listedIds(t, "?active=false"), std::vector<std::int64_t>{e4});
  EXPECT_EQ(listedIds(t, "?active=true"), (std::vector<std::int64_t>{e1, e2, e3}));
  EXPECT_EQ(listedIds(t, "?active=true&appId=" + std::to_string(appB)), std::vector<std::int64_t>{});
  EXPECT_EQ(listedIds(t, "?appId=" + std::to_string(appA) + "&channelId=" + std::to_string(a2)),
            std::vector<std::int64_t>{e3});
  EXPECT_EQ(listedIds(t, "?appId=" + std::to_string(appB) + "&channelId=" + std::to_string(a2)),
            std::vector<std::int64_t>{});
  EXPECT_EQ(listedIds(t, "?channelId=&appId="), (std::vector<std::int64_t>{e1, e2, e3, e4}));  // empty: no filter

  // Pages: the total stays, a page past the end is empty.
  EXPECT_EQ(listedIds(t, "?limit=3"), (std::vector<std::int64_t>{e1, e2, e3}));
  EXPECT_EQ(listedIds(t, "?limit=3&page=2"), std::vector<std::int64_t>{e4});
  auto past = t.http.get("/webhooks/endpoints?limit=3&page=9");
  ASSERT_STATUS(past, 200);
  EXPECT_EQ(past.object()->getArray("data")->size(), 0u);
  EXPECT_EQ(intField(past.object()->getObject("meta"), "total"), 4);
  EXPECT_EQ(intField(past.object()->getObject("meta"), "totalPages"), 2);

  // Another organization's endpoints never appear, and its ids filter nothing in.
  EXPECT_EQ(listedIds(other), std::vector<std::int64_t>{theirs});
  EXPECT_EQ(listedIds(other, "?channelId=" + std::to_string(a1)), std::vector<std::int64_t>{});
  EXPECT_EQ(listedIds(other, "?appId=" + std::to_string(appA)), std::vector<std::int64_t>{});
  EXPECT_EQ(intField(other.http.get("/webhooks/endpoints").object()->getObject("meta"), "total"), 1);

  // Bad filters and pages: a 422 naming the parameter, nothing listed.
  for (const auto& [query, where] :
       std::vector<std::pair<std::string, std::string>>{{"?channelId=abc", "query.channelId"},
                                                        {"?channelId=0", "query.channelId"},
                                                        {"?appId=-3", "query.appId"},
                                                        {"?appId=1.5", "query.appId"},
                                                        {"?active=yes", "query.active"},
                                                        {"?active=1", "query.active"},
                                                        {"?limit=0", "query.limit"},
                                                        {"?limit=101", "query.limit"},
                                                        {"?page=0", "query.page"}}) {
    auto bad = t.http.get("/webhooks/endpoints" + query);
    ASSERT_TRUE(IsProblem(bad, 422)) << query;
    EXPECT_EQ(errorLocations(bad), std::vector<std::string>{where}) << query << " " << bad.body;
  }
  EXPECT_TRUE(IsProblem(anon().get("/webhooks/endpoints"), 401));
}

TEST_F(WebhookEndpointsApi, RoutesAreDocumented) {
  auto doc = anon().get("/openapi.json");
  ASSERT_STATUS(doc, 200);
  for (const char* p : {"/webhooks/endpoints", "/webhooks/deliveries/{endpointId}", "/webhooks/ingest/{endpointId}"})
    EXPECT_NE(doc.body.find(p), std::string::npos) << p;
  // The organization-wide list: a get with its filters and its list schema.
  auto list = doc.object()->getObject("paths")->getObject("/webhooks/endpoints");
  ASSERT_TRUE(list && list->has("get")) << doc.body.substr(0, 200);
  std::ostringstream get;
  list->getObject("get")->stringify(get);
  for (const char* p : {"\"channelId\"", "\"appId\"", "\"active\"", "\"page\"", "\"limit\"", "WebhookEndpointPage"})
    EXPECT_NE(get.str().find(p), std::string::npos) << p << " in " << get.str();
  ASSERT_STATUS(anon().get("/schemas/WebhookEndpointPage.json"), 200);
  // The per-channel list stays a bare array of the same records.
  auto perChannel = anon().get("/schemas/WebhookEndpointList.json");
  ASSERT_STATUS(perChannel, 200);
  EXPECT_EQ(strField(perChannel.object(), "type"), "array");
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
