// Alert rules (docs/features.md#alerts): /v2/alerts CRUD in the second shape
// (`data` list, `$schema`) and each rule's history of state changes. Signed-in users of
// the organization; every change is audited.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>

#include <set>

#include "alerts/alert_rule.h"
#include "alerts/alert_service.h"
#include "http/audit_actor.h"
#include "http/body.h"
#include "http/component_kinds.h"
#include "http/context.h"
#include "http/render.h"
#include "http/resource_views.h"
#include "http/router.h"

namespace aev::http {

namespace {

const std::set<std::string> kAlertFields = {
    "name",    "metric",  "operator",    "threshold",       "windowMins",        "appId",  "environmentId", "model",
    "service", "release", "destination", "destinationType", "destinationConfig", "enabled"};

// A nullable string field: absent → untouched, null → cleared.
void readNullableString(BodyReader& body, const std::string& field, std::optional<std::optional<std::string>>& out) {
  if (!body.object()->has(field)) return;
  if (body.object()->isNull(field)) {
    out = std::optional<std::string>();
    return;
  }
  if (auto v = body.string(field, false)) out = v;
}

void readNullableId(BodyReader& body, const std::string& field, std::optional<std::optional<std::int64_t>>& out) {
  if (!body.object()->has(field)) return;
  if (body.object()->isNull(field)) {
    out = std::optional<std::int64_t>();
    return;
  }
  if (auto v = body.id(field, false)) out = v;
}

// Type checks of a create or PATCH body (value checks are the service's).
alerts::AlertInput alertInput(BodyReader& body, bool creating) {
  alerts::AlertInput in;
  in.name = body.nonNullString("name", creating);
  in.metric = body.oneOf("metric", creating, alerts::metricNames());
  in.op = body.oneOf("operator", creating, alerts::operatorNames());
  in.threshold = body.number("threshold", creating);
  in.windowMins = body.integer("windowMins", false);
  readNullableId(body, "appId", in.appId);
  readNullableId(body, "environmentId", in.environmentId);
  readNullableString(body, "model", in.model);
  readNullableString(body, "service", in.service);
  readNullableString(body, "release", in.release);
  readNullableString(body, "destination", in.destination);
  readNullableString(body, "destinationType", in.destinationType);
  if (body.object()->has("destinationConfig")) {
    if (body.object()->isNull("destinationConfig"))
      in.destinationConfig = Poco::JSON::Object::Ptr();
    else if (auto config = body.object()->getObject("destinationConfig"))
      in.destinationConfig = config;
    else
      body.fail("destinationConfig", "must be an object (the alert sink's settings for this rule)");
  }
  in.enabled = body.boolean("enabled", false);
  for (const auto& [field, value] : *body.object())
    if (!kAlertFields.count(field))
      body.fail(field, "is not a field of an alert rule", stringify(value).substr(0, 200));
  body.done();
  return in;
}

JsonObject historyJson(const store::AlertEventRecord& e) {
  auto obj = newObject();
  obj->set("id", idString(e.id));
  obj->set("alertRuleId", idString(e.ruleId));
  obj->set("state", e.state);
  obj->set("value", e.value ? Poco::Dynamic::Var(*e.value) : Poco::Dynamic::Var());
  obj->set("threshold", e.threshold);
  setTimestamp(obj, "firedAt", e.firedAt);
  setTimestamp(obj, "resolvedAt", e.resolvedAt);
  setTimestamp(obj, "createdAt", e.createdAt);
  setTimestamp(obj, "deliveredAt", e.deliveredAt);
  obj->set("notification", Poco::JSON::Parser().parse(e.notification));
  return obj;
}

}  // namespace

void registerAlertRoutes(Router& router, AppContext& ctx) {
  router.add(
      "GET", "/v2/alerts/destination-kinds",
      [&ctx](Request& req) {
        actingUser(ctx, req);
        auto obj = withSchema(req.baseUrl, "ComponentKindList");
        obj->set("data", componentKindsJson(ctx.alerts->destinationKinds()));
        return Response::json(200, obj);
      },
      "The kinds an alert rule's destinationType may name: every loaded alert sink, with its configuration schema "
      "(destinationConfig) and its secret (write-only) keys.",
      "alerts");
  router.document("GET", "/v2/alerts/destination-kinds", {}, "ComponentKindList");

  router.add(
      "POST", "/v2/alerts",
      [&ctx](Request& req) {
        const auto who = actingUser(ctx, req);
        BodyReader body(req.jsonBody());
        auto rule = ctx.alerts->create(who.orgId, alertInput(body, true), who.actor);
        return Response::json(201, alertJson(req.baseUrl, rule, true));
      },
      "Create an alert rule (name, metric, operator, threshold; windowMins, filters, destination).", "alerts");
  router.document("POST", "/v2/alerts", {}, "AlertRule");

  router.add(
      "GET", "/v2/alerts",
      [&ctx](Request& req) {
        const auto orgId = actingUser(ctx, req).orgId;
        auto obj = withSchema(req.baseUrl, "AlertRuleList");
        Poco::JSON::Array::Ptr data = new Poco::JSON::Array;
        for (const auto& r : ctx.alerts->list(orgId)) data->add(alertJson(req.baseUrl, r, false));
        obj->set("data", data);
        return Response::json(200, obj);
      },
      "Alert rules of the organization, oldest first, with their current state.", "alerts");
  router.document("GET", "/v2/alerts", {}, "AlertRuleList");

  router.add(
      "GET", "/v2/alerts/{alertRuleId}",
      [&ctx](Request& req) {
        const auto orgId = actingUser(ctx, req).orgId;
        auto rule = ctx.alerts->get(orgId, pathId(req.param("alertRuleId"), "Alert rule"));
        return Response::json(200, alertJson(req.baseUrl, rule, true));
      },
      "An alert rule.", "alerts");
  router.document("GET", "/v2/alerts/{alertRuleId}", {}, "AlertRule");

  router.add(
      "PATCH", "/v2/alerts/{alertRuleId}",
      [&ctx](Request& req) {
        const auto who = actingUser(ctx, req);
        const auto id = pathId(req.param("alertRuleId"), "Alert rule");
        BodyReader body(req.jsonBody());
        auto rule = ctx.alerts->update(who.orgId, id, alertInput(body, false), who.actor);
        return Response::json(200, alertJson(req.baseUrl, rule, true));
      },
      "Change fields of an alert rule (null clears a filter or the destination).", "alerts");
  router.document("PATCH", "/v2/alerts/{alertRuleId}", {}, "AlertRule");

  router.add(
      "DELETE", "/v2/alerts/{alertRuleId}",
      [&ctx](Request& req) {
        const auto who = actingUser(ctx, req);
        ctx.alerts->remove(who.orgId, pathId(req.param("alertRuleId"), "Alert rule"), who.actor);
        return Response::noContent();
      },
      "Delete an alert rule and its history.", "alerts");

  router.add(
      "GET", "/v2/alerts/{alertRuleId}/events",
      [&ctx](Request& req) {
        const auto orgId = actingUser(ctx, req).orgId;
        const auto limit = queryInt(req.queryParam("limit"), "limit", 50, 1, 500);
        auto obj = withSchema(req.baseUrl, "AlertEventList");
        Poco::JSON::Array::Ptr data = new Poco::JSON::Array;
        for (const auto& e : ctx.alerts->history(orgId, pathId(req.param("alertRuleId"), "Alert rule"), limit))
          data->add(historyJson(e));
        obj->set("data", data);
        return Response::json(200, obj);
      },
      "The rule's changes of state (firing, resolved), newest first, with the notification each sent.", "alerts");
  router.document("GET", "/v2/alerts/{alertRuleId}/events", {{"limit", "integer", "1 to 500, default 50", {}, false}},
                  "AlertEventList");
}

}  // namespace aev::http
