// Webhooks (docs/features.md#webhooks): endpoints of a channel, their
// delivery attempts, redelivery, and the internal ingest call clients are refused. A
// Bearer user acting on the active organization (or the one x-tenant-id selects); any
// member manages them, as with apps and channels; another organization's endpoint is a 404.
#include <Poco/JSON/Array.h>

#include <limits>
#include <set>

#include "auth/authenticator.h"
#include "common/clock.h"
#include "http/attempt_query.h"
#include "http/audit_actor.h"
#include "http/body.h"
#include "http/context.h"
#include "http/credentials.h"
#include "http/render.h"
#include "http/router.h"
#include "webhooks/webhook_service.h"

namespace aev::http {

namespace {

const std::set<std::string> kEndpointFields = {"url", "channelId", "eventTypes", "description", "active"};

// The superset of both shapes (docs/api.md#the-two-shapes): integer id and channelId as the first
// shape takes them, endpointId and orgId as decimal strings.
JsonObject endpointJson(const std::string& baseUrl, const store::WebhookEndpointRecord& e, bool withSecret) {
  auto obj = withSchema(baseUrl, "WebhookEndpoint");
  obj->set("id", e.id);
  obj->set("endpointId", idString(e.id));
  obj->set("orgId", idString(e.orgId));
  obj->set("channelId", e.channelId);
  obj->set("url", e.url);
  if (e.eventTypes) {
    Poco::JSON::Array::Ptr types = new Poco::JSON::Array;
    for (const auto& t : *e.eventTypes) types->add(t);
    obj->set("eventTypes", types);
  } else {
    obj->set("eventTypes", Poco::Dynamic::Var());
  }
  obj->set("description", e.description);
  if (withSecret) obj->set("secret", e.secret);
  obj->set("active", e.active);
  setTimestamp(obj, "failingSince", e.failingSince);
  setTimestamp(obj, "disabledAt", e.disabledAt);
  obj->set("disabledReason", e.disabledReason ? Poco::Dynamic::Var(*e.disabledReason) : Poco::Dynamic::Var());
  setTimestamp(obj, "createdAt", e.createdAt);
  setTimestamp(obj, "updatedAt", e.updatedAt);
  return obj;
}

JsonObject deliveryJson(const store::DeliveryAttemptRecord& a) {
  auto obj = newObject();
  obj->set("id", a.id);
  obj->set("deliveryId", idString(a.id));
  obj->set("endpointId", idString(a.targetId));
  obj->set("webhookId", a.messageId);
  obj->set("eventId", a.eventId ? Poco::Dynamic::Var(*a.eventId) : Poco::Dynamic::Var());
  setAttemptFields(obj, a);
  return obj;
}

// Type checks of a create or PATCH body; value checks are the service's (one 422 for all).
webhooks::EndpointInput endpointInput(BodyReader& body, bool creating) {
  webhooks::EndpointInput in;
  in.url = body.nonNullString("url", creating);
  if (creating) in.channelId = body.id("channelId", true);
  else if (body.object()->has("channelId")) body.fail("channelId", "cannot change: create a new endpoint instead");
  const auto& object = body.object();
  if (object->has("eventTypes")) {
    if (object->isNull("eventTypes")) in.eventTypes = std::optional<std::vector<std::string>>();
    else if (auto types = body.stringArray("eventTypes", false)) in.eventTypes = types;
  }
  in.description = body.nonNullString("description", false);
  in.active = body.boolean("active", false);
  for (const auto& [field, value] : *object)
    if (!kEndpointFields.count(field))
      body.fail(field, "is not a field of a webhook endpoint", stringify(value).substr(0, 200));
  return in;
}

// The filters of GET /webhooks/endpoints; a malformed one is a 422 naming it.
store::EndpointFilter endpointFilter(const Request& req, std::int64_t orgId) {
  constexpr auto kMaxId = std::numeric_limits<std::int64_t>::max();
  store::EndpointFilter f;
  f.orgId = orgId;
  if (auto v = req.queryFilter("channelId")) f.channelId = queryInt(v, "channelId", 0, 1, kMaxId);
  if (auto v = req.queryFilter("appId")) f.appId = queryInt(v, "appId", 0, 1, kMaxId);
  if (auto v = req.queryFilter("active")) {
    if (*v != "true" && *v != "false") throw errors::invalidField("query.active", "must be true or false", *v);
    f.active = *v == "true";
  }
  return f;
}

}  // namespace

void registerWebhookRoutes(Router& router, AppContext& ctx) {
  router.add(
      "POST", "/webhooks/endpoints",
      [&ctx](Request& req) {
        const auto who = actingUser(ctx, req);
        const auto orgId = who.orgId;
        BodyReader body(req.jsonBody());
        auto input = endpointInput(body, true);
        body.done([&] { return ctx.webhooks->problems(orgId, std::nullopt, input); });
        auto endpoint = ctx.webhooks->create(orgId, input, who.actor);
        return Response::json(201, endpointJson(req.baseUrl, endpoint, true));
      },
      "Register a webhook endpoint for a channel (url, channelId; optional eventTypes filter and description). "
      "The response carries the signing secret; it is never shown again.",
      "webhooks");
  router.document("POST", "/webhooks/endpoints", {}, "WebhookEndpoint");

  router.add(
      "GET", "/webhooks/endpoints",
      [&ctx](Request& req) {
        const auto orgId = actingUser(ctx, req).orgId;
        const auto page = queryInt(req.queryParam("page"), "page", 1, 1, 1000000000);
        const auto limit = queryInt(req.queryParam("limit"), "limit", 20, 1, 100);
        const auto result = ctx.webhooks->list(endpointFilter(req, orgId), page, limit);
        auto obj = withSchema(req.baseUrl, "WebhookEndpointPage");
        Poco::JSON::Array::Ptr data = new Poco::JSON::Array;
        const auto health = ctx.webhooks->health24h(orgId);
        for (const auto& e : result.data) {
          auto item = endpointJson(req.baseUrl, e, false);
          setHealth24h(item, health, e.id);
          data->add(item);
        }
        obj->set("data", data);
        obj->set("meta", pageMeta(result.total, page, limit));
        return Response::json(200, obj);
      },
      "Webhook endpoints of the whole organization (without their secrets, with their health24h), oldest first, "
      "paginated; optionally "
      "of one channel, of one app's channels, active or not.",
      "webhooks");
  router.document("GET", "/webhooks/endpoints",
                  {{"channelId", "string", "only this channel's endpoints", {}, false},
                   {"appId", "string", "only the endpoints of this app's channels", {}, false},
                   {"active", "string", "only active (true) or disabled (false) endpoints", {"true", "false"}, false},
                   {"page", "integer", "default 1", {}, false},
                   {"limit", "integer", "1 to 100, default 20", {}, false}},
                  "WebhookEndpointPage");

  router.add(
      "GET", "/webhooks/endpoints/channel/{channelId}",
      [&ctx](Request& req) {
        const auto orgId = actingUser(ctx, req).orgId;
        Poco::JSON::Array::Ptr list = new Poco::JSON::Array;
        const auto endpoints = ctx.webhooks->listForChannel(orgId, pathId(req.param("channelId"), "Channel"));
        const auto health = ctx.webhooks->health24h(orgId);
        for (const auto& e : endpoints) {
          auto item = endpointJson(req.baseUrl, e, false);
          setHealth24h(item, health, e.id);
          list->add(item);
        }
        return Response::json(200, list);
      },
      "Webhook endpoints of a channel (without their secrets).", "webhooks");
  // A bare array: the schema catalog holds objects only; items are WebhookEndpoint.

  router.add(
      "GET", "/webhooks/endpoints/{id}",
      [&ctx](Request& req) {
        const auto orgId = actingUser(ctx, req).orgId;
        auto endpoint = ctx.webhooks->get(orgId, pathId(req.param("id"), "Webhook endpoint"));
        auto obj = endpointJson(req.baseUrl, endpoint, false);
        setHealth24h(obj, ctx.webhooks->health24h(orgId, endpoint.id), endpoint.id);
        return Response::json(200, obj);
      },
      "A webhook endpoint (without its secret), with its health24h.", "webhooks");
  router.document("GET", "/webhooks/endpoints/{id}", {}, "WebhookEndpoint");

  router.add(
      "PATCH", "/webhooks/endpoints/{id}",
      [&ctx](Request& req) {
        const auto who = actingUser(ctx, req);
        const auto orgId = who.orgId;
        const auto id = pathId(req.param("id"), "Webhook endpoint");
        BodyReader body(req.jsonBody());
        auto input = endpointInput(body, false);
        body.done([&] { return ctx.webhooks->problems(orgId, id, input); });
        auto endpoint = ctx.webhooks->update(orgId, id, input, who.actor);
        return Response::json(200, endpointJson(req.baseUrl, endpoint, false));
      },
      "Change a webhook endpoint's url, eventTypes, description or active (true re-enables an endpoint that was "
      "disabled after failing; false drops its pending messages).",
      "webhooks");
  router.document("PATCH", "/webhooks/endpoints/{id}", {}, "WebhookEndpoint");

  router.add(
      "DELETE", "/webhooks/endpoints/{id}",
      [&ctx](Request& req) {
        const auto who = actingUser(ctx, req);
        const auto orgId = who.orgId;
        ctx.webhooks->remove(orgId, pathId(req.param("id"), "Webhook endpoint"), who.actor);
        return Response::noContent();
      },
      "Delete a webhook endpoint; its pending deliveries and retries stop.", "webhooks");

  router.add(
      "GET", "/webhooks/deliveries/{endpointId}",
      [&ctx](Request& req) {
        const auto orgId = actingUser(ctx, req).orgId;
        const auto query = attemptQuery(req);
        Poco::JSON::Array::Ptr list = new Poco::JSON::Array;
        for (const auto& a : ctx.webhooks->deliveries(orgId, pathId(req.param("endpointId"), "Webhook endpoint"),
                                                      query.limit, query.filter))
          list->add(deliveryJson(a));
        return Response::json(200, list);
      },
      "Delivery attempts of a webhook endpoint, newest first, optionally of one outcome and status class "
      "(statusCode 0: no HTTP answer; responseBody truncated to 4 KiB; nextAttemptAt when a retry is scheduled).",
      "webhooks");
  router.document("GET", "/webhooks/deliveries/{endpointId}", attemptQueryDocs(),
                  "");  // a bare array of delivery records

  router.add(
      "POST", "/webhooks/endpoints/{id}/deliveries/{deliveryId}/redeliver",
      [&ctx](Request& req) {
        const auto who = actingUser(ctx, req);
        const auto orgId = who.orgId;
        ctx.webhooks->redeliver(orgId, pathId(req.param("id"), "Webhook endpoint"),
                                pathId(req.param("deliveryId"), "Webhook delivery"), who.actor);
        auto obj = newObject();
        obj->set("queued", true);
        return Response::json(202, obj);
      },
      "Send the message of a delivery attempt again (same webhook-id), as a new series of attempts.", "webhooks");

  router.add(
      "POST", "/webhooks/ingest/{endpointId}",
      [&ctx](Request& req) {
        // No client credentials apply: only the service's internal key (docs/features.md#webhooks).
        const auto key = req.header("x-internal-key");
        ctx.webhooks->requireInternalKey(key);  // before anything else, a bad path included
        auto pending = ctx.webhooks->ingest(key, pathId(req.param("endpointId"), "Webhook endpoint"));
        auto obj = newObject();
        obj->set("pending", pending);
        return Response::json(202, obj);
      },
      "Internal: used by the service to deliver webhooks (makes the endpoint's pending messages due now). Answers "
      "403 to every caller without the service's internal key (x-internal-key).",
      "webhooks", true);
}

}  // namespace aev::http
