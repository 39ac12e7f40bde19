// Export destinations (docs/features.md#export-destinations), second shape: a Bearer user
// acting on the active organization (or the one x-tenant-id selects), like moderation
// rules; another organization's destination is a 404. Header values are write-only.
#include <Poco/JSON/Array.h>

#include <set>

#include "auth/authenticator.h"
#include "common/clock.h"
#include "exports/destination_service.h"
#include "http/attempt_query.h"
#include "http/audit_actor.h"
#include "http/body.h"
#include "http/component_kinds.h"
#include "http/context.h"
#include "http/credentials.h"
#include "http/render.h"
#include "http/resource_views.h"
#include "http/router.h"
#include "plugins/instance_config.h"

namespace aev::http {

namespace {

const std::set<std::string> kFields = {"name",        "kind",     "endpointUrl",     "envSlug",
                                       "signals",     "config",   "eventTypeFilter", "headers",
                                       "serviceName", "encoding", "active"};

JsonObject destinationJson(const std::string& baseUrl, const store::ExportDestinationRecord& d, bool withSchemaField) {
  auto obj = withSchemaField ? withSchema(baseUrl, "ExportDestination") : newObject();
  obj->set("id", idString(d.id));
  obj->set("destinationId", idString(d.id));
  obj->set("orgId", idString(d.orgId));
  obj->set("name", d.name);
  obj->set("kind", d.kind);
  obj->set("endpointUrl", d.endpointUrl);
  obj->set("envSlug", d.envSlug);
  obj->set("signals", stringArray(d.signals));
  obj->set("eventTypeFilter", d.eventTypeFilter ? stringArray(*d.eventTypeFilter) : stringArray({}));
  std::vector<std::string> keys;
  for (const auto& [k, v] : d.headers) keys.push_back(k);
  obj->set("headerKeys", stringArray(keys));
  obj->set("serviceName", d.serviceName ? Poco::Dynamic::Var(*d.serviceName) : Poco::Dynamic::Var());
  obj->set("encoding", d.encoding);
  obj->set("config", plugins::publicConfig(d.config));
  obj->set("secretConfigKeys", stringArray(plugins::sealedKeys(d.config)));
  obj->set("active", d.active);
  setTimestamp(obj, "createdAt", d.createdAt);
  setTimestamp(obj, "updatedAt", d.updatedAt);
  return obj;
}

// state: idle (nothing tried yet), ok (the last attempt delivered), retrying (a batch is
// being retried), failing (the last batch was given up: see givenUpBatches, redeliver).
JsonObject healthJson(const store::ExportHealthRecord& h) {
  auto obj = newObject();
  std::string state = "idle";
  if (h.lastOutcome)
    state = *h.lastOutcome == "delivered" ? "ok" : *h.lastOutcome == "retrying" ? "retrying" : "failing";
  obj->set("state", state);
  setTimestamp(obj, "lastSuccessAt", h.lastSuccessAt);
  setTimestamp(obj, "lastFailureAt", h.lastFailureAt);
  obj->set("lastFailureReason", h.lastFailureAt ? Poco::Dynamic::Var(h.lastFailureReason) : Poco::Dynamic::Var());
  obj->set("consecutiveFailures", h.consecutiveFailures);
  obj->set("givenUpBatches", h.givenUpBatches);
  obj->set("pending", h.pending);
  return obj;
}

JsonObject withHealth(JsonObject obj, AppContext& ctx, const store::ExportDestinationRecord& d) {
  obj->set("health", healthJson(ctx.exportDestinations->health(d.orgId, d.id)));
  return obj;
}

JsonObject attemptJson(const store::DeliveryAttemptRecord& a) {
  auto obj = newObject();
  obj->set("id", idString(a.id));
  obj->set("deliveryId", idString(a.id));
  obj->set("destinationId", idString(a.targetId));
  obj->set("eventId", a.eventId ? Poco::Dynamic::Var(idString(*a.eventId)) : Poco::Dynamic::Var());
  setAttemptFields(obj, a);
  return obj;
}

exports::DestinationInput destinationInput(BodyReader& body, bool creating) {
  exports::DestinationInput in;
  const auto& object = body.object();
  in.name = body.nonNullString("name", creating);
  in.kind = body.nonNullString("kind", false);
  in.endpointUrl = body.nonNullString("endpointUrl", false);  // required where the kind says (the service)
  in.envSlug = body.nonNullString("envSlug", creating);
  in.signals = body.stringArray("signals", creating);
  if (object->has("eventTypeFilter")) {
    if (object->isNull("eventTypeFilter")) in.eventTypeFilter = std::optional<std::vector<std::string>>();
    else if (auto f = body.stringArray("eventTypeFilter", false)) in.eventTypeFilter = f;
  }
  if (object->has("headers")) {
    auto headers = object->getObject("headers");
    if (!headers) {
      body.fail("headers", "must be an object of strings");
    } else {
      std::map<std::string, std::string> h;
      for (const auto& [k, v] : *headers) {
        if (!v.isString()) body.fail("headers." + k, "must be a string");
        else h[k] = v.convert<std::string>();
      }
      in.headers = h;
    }
  }
  if (object->has("serviceName")) {
    if (object->isNull("serviceName")) in.serviceName = std::optional<std::string>();
    else if (auto s = body.string("serviceName", false)) in.serviceName = s;
  }
  in.encoding = body.nonNullString("encoding", false);
  in.active = body.boolean("active", false);
  if (object->has("config")) {
    if (auto config = object->getObject("config"))
      in.config = config;
    else
      body.fail("config", "must be an object (the exporter's own settings, see GET /export-destinations/kinds)");
  }
  for (const auto& [field, value] : *object)
    if (!kFields.count(field))
      body.fail(field, "is not a field of an export destination", field == "headers" ? "" : stringify(value).substr(0, 200));
  return in;
}

}  // namespace

void registerExportDestinationRoutes(Router& router, AppContext& ctx) {
  router.add(
      "GET", "/export-destinations/kinds",
      [&ctx](Request& req) {
        actingUser(ctx, req);
        auto obj = withSchema(req.baseUrl, "ComponentKindList");
        obj->set("data", componentKindsJson(ctx.exportDestinations->kinds()));
        return Response::json(200, obj);
      },
      "The kinds an export destination may have: every loaded exporter, with its configuration schema, the "
      "secret keys (write-only) and the signals it ships.",
      "exports");
  router.document("GET", "/export-destinations/kinds", {}, "ComponentKindList");

  router.add(
      "POST", "/export-destinations",
      [&ctx](Request& req) {
        const auto who = actingUser(ctx, req);
        const auto orgId = who.orgId;
        BodyReader body(req.jsonBody());
        auto input = destinationInput(body, true);
        body.done([&] { return ctx.exportDestinations->problems(orgId, std::nullopt, input); });
        return Response::json(201, destinationJson(req.baseUrl, ctx.exportDestinations->create(orgId, input, who.actor), true));
      },
      "Create an export destination (name, endpointUrl, envSlug, signals; kind otlp | http, eventTypeFilter, "
      "headers (write-only), serviceName, encoding protobuf | json).",
      "exports");
  router.document("POST", "/export-destinations", {}, "ExportDestination");

  router.add(
      "GET", "/export-destinations",
      [&ctx](Request& req) {
        const auto orgId = actingUser(ctx, req).orgId;
        auto obj = withSchema(req.baseUrl, "ExportDestinationList");
        Poco::JSON::Array::Ptr data = new Poco::JSON::Array;
        const auto health = ctx.exportDestinations->health24h(orgId);
        for (const auto& d : ctx.exportDestinations->list(orgId)) {
          auto item = withHealth(destinationJson(req.baseUrl, d, false), ctx, d);
          setHealth24h(item, health, d.id);
          data->add(item);
        }
        obj->set("data", data);
        return Response::json(200, obj);
      },
      "Export destinations of the organization.", "exports");
  router.document("GET", "/export-destinations", {}, "ExportDestinationList");

  router.add(
      "GET", "/export-destinations/{destinationId}",
      [&ctx](Request& req) {
        const auto orgId = actingUser(ctx, req).orgId;
        auto d = ctx.exportDestinations->get(orgId, pathId(req.param("destinationId"), "Export destination"));
        auto obj = withHealth(destinationJson(req.baseUrl, d, true), ctx, d);
        setHealth24h(obj, ctx.exportDestinations->health24h(orgId, d.id), d.id);
        return Response::json(200, obj);
      },
      "An export destination, with its health (last success, last failure and its reason, consecutive failures, "
      "given-up batches, state).",
      "exports");
  router.document("GET", "/export-destinations/{destinationId}", {}, "ExportDestination");

  router.add(
      "PATCH", "/export-destinations/{destinationId}",
      [&ctx](Request& req) {
        const auto who = actingUser(ctx, req);
        const auto orgId = who.orgId;
        const auto id = pathId(req.param("destinationId"), "Export destination");
        BodyReader body(req.jsonBody());
        auto input = destinationInput(body, false);
        body.done([&] { return ctx.exportDestinations->problems(orgId, id, input); });
        return Response::json(200, destinationJson(req.baseUrl, ctx.exportDestinations->update(orgId, id, input, who.actor), true));
      },
      "Change fields of an export destination (headers, when sent, replace all headers; active false drops its "
      "queue).",
      "exports");
  router.document("PATCH", "/export-destinations/{destinationId}", {}, "ExportDestination");

  router.add(
      "DELETE", "/export-destinations/{destinationId}",
      [&ctx](Request& req) {
        const auto who = actingUser(ctx, req);
        const auto orgId = who.orgId;
        ctx.exportDestinations->remove(orgId, pathId(req.param("destinationId"), "Export destination"), who.actor);
        return Response::noContent();
      },
      "Delete an export destination; its queued batches are dropped.", "exports");

  router.add(
      "GET", "/export-destinations/{destinationId}/deliveries",
      [&ctx](Request& req) {
        const auto orgId = actingUser(ctx, req).orgId;
        const auto query = attemptQuery(req);
        auto obj = withSchema(req.baseUrl, "ExportDeliveryList");
        Poco::JSON::Array::Ptr data = new Poco::JSON::Array;
        for (const auto& a : ctx.exportDestinations->deliveries(
                 orgId, pathId(req.param("destinationId"), "Export destination"), query.limit, query.filter))
          data->add(attemptJson(a));
        obj->set("data", data);
        return Response::json(200, obj);
      },
      "Recent delivery attempts of an export destination (one per batch), newest first, optionally of one outcome "
      "and status class.",
      "exports");
  router.document("GET", "/export-destinations/{destinationId}/deliveries", attemptQueryDocs(), "ExportDeliveryList");

  router.add(
      "POST", "/export-destinations/{destinationId}/test",
      [&ctx](Request& req) {
        const auto orgId = actingUser(ctx, req).orgId;
        auto r = ctx.exportDestinations->test(orgId, pathId(req.param("destinationId"), "Export destination"));
        auto obj = withSchema(req.baseUrl, "ExportTestResult");
        obj->set("ok", r.ok);
        obj->set("statusCode", r.statusCode);
        obj->set("responseBody", r.responseBody);
        obj->set("durationMs", r.durationMs);
        return Response::json(200, obj);
      },
      "Send one synthetic test event through the destination's exporter now and report the receiver's answer.",
      "exports");
  router.document("POST", "/export-destinations/{destinationId}/test", {}, "ExportTestResult");

  router.add(
      "POST", "/export-destinations/{destinationId}/redeliver",
      [&ctx](Request& req) {
        const auto who = actingUser(ctx, req);
        const auto id = pathId(req.param("destinationId"), "Export destination");
        BodyReader body(req.jsonBody());
        auto deliveryId = body.id("deliveryId", false);
        auto from = body.string("from", false);
        auto to = body.string("to", false);
        for (const auto& [field, value] : *body.object())
          if (field != "deliveryId" && field != "from" && field != "to")
            body.fail(field, "is not a field of a redelivery (deliveryId, or from and to)",
                      stringify(value).substr(0, 200));
        std::optional<std::int64_t> fromAt, toAt;
        if (from && !(fromAt = clock::parseRfc3339(*from))) body.fail("from", "must be an RFC 3339 timestamp", *from);
        if (to && !(toAt = clock::parseRfc3339(*to))) body.fail("to", "must be an RFC 3339 timestamp", *to);
        if (deliveryId && (from || to)) body.fail("deliveryId", "give either deliveryId or a window (from, to)");
        if (!deliveryId && !from) body.fail("from", "is required unless deliveryId names one batch");
        body.done();
        const auto queued = ctx.exportDestinations->redeliver(who.orgId, id, deliveryId, fromAt.value_or(0),
                                                              toAt.value_or(clock::nowMicros() + 1), who.actor);
        auto obj = withSchema(req.baseUrl, "ExportRedeliverResult");
        obj->set("queued", queued);
        return Response::json(202, obj);
      },
      "Queue the given-up batches of an export destination again: one (deliveryId: its failed attempt) or those "
      "given up in a window (from, to; to defaults to now).",
      "exports");
  router.document("POST", "/export-destinations/{destinationId}/redeliver", {}, "ExportRedeliverResult");
}

}  // namespace aev::http
