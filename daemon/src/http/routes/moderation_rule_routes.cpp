// Moderation rules (docs/features.md#moderation), second shape: a Bearer user acting on
// the active organization (or the one x-tenant-id selects). Any member reads and writes
// them, as with environments and apps; another organization's rule is a 404.
#include <Poco/JSON/Array.h>

#include <set>

#include "auth/authenticator.h"
#include "http/audit_actor.h"
#include "http/body.h"
#include "http/component_kinds.h"
#include "http/context.h"
#include "http/credentials.h"
#include "http/render.h"
#include "http/resource_views.h"
#include "http/router.h"
#include "moderation/rule_service.h"
#include "plugins/instance_config.h"

namespace aev::http {

namespace {

const std::set<std::string> kRuleFields = {"name",   "action",         "detector", "pattern",
                                           "target", "detectorConfig", "minScore", "enabled"};

JsonObject ruleJson(const std::string& baseUrl, const store::ModerationRuleRecord& rule, bool withSchemaField) {
  auto obj = withSchemaField ? withSchema(baseUrl, "ModerationRule") : newObject();
  obj->set("id", idString(rule.id));
  obj->set("ruleId", idString(rule.id));
  obj->set("orgId", idString(rule.orgId));
  obj->set("name", rule.name);
  obj->set("action", rule.action);
  obj->set("detector", rule.detector);
  obj->set("pattern", rule.pattern ? Poco::Dynamic::Var(*rule.pattern) : Poco::Dynamic::Var());
  obj->set("target", rule.target);
  const auto config = rule.detectorConfig.value_or("{}");
  obj->set("detectorConfig", plugins::publicConfig(config));
  obj->set("secretConfigKeys", stringArray(plugins::sealedKeys(config)));
  obj->set("minScore", rule.minScore ? Poco::Dynamic::Var(*rule.minScore) : Poco::Dynamic::Var());
  obj->set("enabled", rule.enabled);
  setTimestamp(obj, "createdAt", rule.createdAt);
  setTimestamp(obj, "updatedAt", rule.updatedAt);
  return obj;
}

// Type checks of a create or PATCH body; value checks are the service's (one 422 for all).
moderation::RuleInput ruleInput(BodyReader& body, bool creating) {
  moderation::RuleInput in;
  in.name = body.nonNullString("name", creating);
  in.action = body.nonNullString("action", creating);
  in.detector = body.nonNullString("detector", creating);
  in.target = body.nonNullString("target", false);
  const auto& object = body.object();
  if (object->has("pattern")) {
    if (object->isNull("pattern"))
      in.pattern = std::optional<std::string>();
    else if (auto pattern = body.string("pattern", false))
      in.pattern = pattern;
  }
  in.enabled = body.boolean("enabled", false);
  if (object->has("detectorConfig")) {
    if (object->isNull("detectorConfig"))
      in.detectorConfig = Poco::JSON::Object::Ptr();
    else if (auto config = object->getObject("detectorConfig"))
      in.detectorConfig = config;
    else
      body.fail("detectorConfig", "must be an object (the plugin detector's settings for this rule)");
  }
  if (object->has("minScore")) {
    if (object->isNull("minScore"))
      in.minScore = std::optional<double>();
    else if (auto score = body.number("minScore", false))
      in.minScore = score;
  }
  // A misspelt field ("patern") is a 422, not a silent no-op.
  for (const auto& [field, value] : *object)
    if (!kRuleFields.count(field))
      body.fail(field, "is not a field of a moderation rule", stringify(value).substr(0, 200));
  return in;
}

}  // namespace

void registerModerationRuleRoutes(Router& router, AppContext& ctx) {
  router.add(
      "GET", "/moderation/detector-kinds",
      [&ctx](Request& req) {
        ctx.authenticator->userOrApiKey(credentialsOf(req), "read").requireOrg();
        auto obj = withSchema(req.baseUrl, "DetectorKindList");
        obj->set("data", detectorKindsJson(ctx.moderationRules->detectorKinds()));
        return Response::json(200, obj);
      },
      "The detectors a moderation rule may name: the built-in ones (which take a pattern) and every loaded plugin "
      "detector, with its configuration schema (a rule's detectorConfig), its secret (write-only) keys and the "
      "targets it scans.",
      "moderation");
  router.document("GET", "/moderation/detector-kinds", {}, "DetectorKindList");
  router.documentAccess("GET", "/moderation/detector-kinds", "read");

  router.add(
      "POST", "/moderation/rules",
      [&ctx](Request& req) {
        const auto who = actingUser(ctx, req);
        const auto orgId = who.orgId;
        BodyReader body(req.jsonBody());
        auto input = ruleInput(body, true);
        body.done([&] { return ctx.moderationRules->problems(orgId, std::nullopt, input); });
        auto rule = ctx.moderationRules->create(orgId, input, who.actor);
        return Response::json(201, ruleJson(req.baseUrl, rule, true));
      },
      "Create a moderation rule (name, action, detector; pattern for regex, keyword, tool_name, tool_arg; target).",
      "moderation");
  router.document("POST", "/moderation/rules", {}, "ModerationRule");

  router.add(
      "GET", "/moderation/rules",
      [&ctx](Request& req) {
        const auto orgId = actingUser(ctx, req).orgId;
        auto obj = withSchema(req.baseUrl, "ModerationRuleList");
        Poco::JSON::Array::Ptr data = new Poco::JSON::Array;
        for (const auto& rule : ctx.moderationRules->list(orgId)) data->add(ruleJson(req.baseUrl, rule, false));
        obj->set("data", data);
        return Response::json(200, obj);
      },
      "Moderation rules of the organization, in creation (evaluation) order.", "moderation");
  router.document("GET", "/moderation/rules", {}, "ModerationRuleList");

  router.add(
      "GET", "/moderation/rules/{ruleId}",
      [&ctx](Request& req) {
        const auto orgId = actingUser(ctx, req).orgId;
        auto rule = ctx.moderationRules->get(orgId, pathId(req.param("ruleId"), "Moderation rule"));
        return Response::json(200, ruleJson(req.baseUrl, rule, true));
      },
      "A moderation rule.", "moderation");
  router.document("GET", "/moderation/rules/{ruleId}", {}, "ModerationRule");

  router.add(
      "PATCH", "/moderation/rules/{ruleId}",
      [&ctx](Request& req) {
        const auto who = actingUser(ctx, req);
        const auto orgId = who.orgId;
        const auto id = pathId(req.param("ruleId"), "Moderation rule");
        BodyReader body(req.jsonBody());
        auto input = ruleInput(body, false);
        body.done([&] { return ctx.moderationRules->problems(orgId, id, input); });
        auto rule = ctx.moderationRules->update(orgId, id, input, who.actor);
        return Response::json(200, ruleJson(req.baseUrl, rule, true));
      },
      "Change fields of a moderation rule (enabled turns it off and on); checked and compiled again.", "moderation");
  router.document("PATCH", "/moderation/rules/{ruleId}", {}, "ModerationRule");

  router.add(
      "DELETE", "/moderation/rules/{ruleId}",
      [&ctx](Request& req) {
        const auto who = actingUser(ctx, req);
        const auto orgId = who.orgId;
        ctx.moderationRules->remove(orgId, pathId(req.param("ruleId"), "Moderation rule"), who.actor);
        return Response::noContent();
      },
      "Delete a moderation rule (its violations stay in the efficacy report).", "moderation");
}

}  // namespace aev::http
