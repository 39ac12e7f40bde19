// Spend policies (docs/features.md#spend-policies), second shape: a Bearer user acting
// on the active organization (or the one x-tenant-id selects), like moderation rules;
// another organization's policy is a 404. POST /spend-policies/check also takes an API
// key with `publish` (the key that will publish asks before it calls a model).
#include <Poco/JSON/Array.h>

#include <cmath>
#include <set>

#include "auth/authenticator.h"
#include "http/audit_actor.h"
#include "http/body.h"
#include "http/context.h"
#include "http/credentials.h"
#include "http/render.h"
#include "http/resource_views.h"
#include "http/router.h"
#include "spend/accountant.h"
#include "spend/policy_service.h"

namespace aev::http {

namespace {

const std::set<std::string> kPolicyFields = {"name",          "apiKeyId",     "appId",   "environmentId",
                                             "userId",        "model",        "provider", "tagKey",
                                             "tagValue",      "limitUsd",     "windowType", "cooldownMins",
                                             "destination",   "destinationType", "enabled", "rungs"};
const std::set<std::string> kOutputOnly = {"id", "policyId", "orgId", "currentSpendUsd", "createdAt", "updatedAt"};
const std::set<std::string> kRungFields = {"at_percent", "action", "block_mode", "fallback_model"};
const std::set<std::string> kCheckFields = {"apiKeyId", "appId",    "environmentId", "userId",
                                            "model",    "provider", "tagKey",        "tagValue"};

// A nullable field: absent → untouched, null → cleared, else read by `read`.
template <class T, class Read>
std::optional<std::optional<T>> nullable(BodyReader& body, const std::string& field, Read read) {
  if (!body.object()->has(field)) return std::nullopt;
  if (body.object()->isNull(field)) return std::optional<T>();
  auto value = read(field);
  if (!value) return std::nullopt;  // a type problem, recorded
  return std::optional<T>(*value);
}

std::optional<std::vector<store::SpendRungRecord>> rungsOf(BodyReader& body) {
  if (!body.has("rungs")) return std::nullopt;
  auto array = body.object()->getArray("rungs");
  if (!array) {
    body.fail("rungs", "must be an array of rungs", stringify(body.object()->get("rungs")).substr(0, 200));
    return std::nullopt;
  }
  std::vector<store::SpendRungRecord> rungs;
  bool typed = true;
  for (std::size_t i = 0; i < array->size(); ++i) {
    const std::string at = "rungs[" + std::to_string(i) + "]";
    auto o = array->getObject(static_cast<unsigned>(i));
    if (!o) {
      body.fail(at, "must be an object", stringify(array->get(static_cast<unsigned>(i))).substr(0, 200));
      typed = false;
      continue;
    }
    BodyReader rung(o, "body." + at);
    store::SpendRungRecord r;
    auto percent = rung.integer("at_percent", true);
    auto action = rung.nonNullString("action", true);
    std::optional<std::string> blockMode, fallbackModel;
    if (rung.has("block_mode") && !o->isNull("block_mode")) blockMode = rung.string("block_mode", false);
    if (rung.has("fallback_model") && !o->isNull("fallback_model")) fallbackModel = rung.string("fallback_model", false);
    for (const auto& [field, value] : *o)
      if (!kRungFields.count(field)) rung.fail(field, "is not a field of a rung", stringify(value).substr(0, 200));
    try {
      rung.done();
    } catch (ApiError& problems) {
      for (auto f : problems.fieldErrors()) body.fail(f.location.substr(5), f.message, f.value);
      typed = false;
      continue;
    }
    r.atPercent = *percent;
    r.action = *action;
    r.blockMode = blockMode;
    r.fallbackModel = fallbackModel;
    rungs.push_back(std::move(r));
  }
  if (!typed) return std::nullopt;
  return rungs;
}

// Type checks of a create or PATCH body; value checks are the service's (one 422 for all).
spend::PolicyInput policyInput(BodyReader& body, bool creating) {
  spend::PolicyInput in;
  in.name = body.nonNullString("name", creating);
  auto readId = [&](const std::string& f) { return body.id(f, false); };
  auto readText = [&](const std::string& f) { return body.string(f, false); };
  in.apiKeyId = nullable<std::int64_t>(body, "apiKeyId", readId);
  in.appId = nullable<std::int64_t>(body, "appId", readId);
  in.environmentId = nullable<std::int64_t>(body, "environmentId", readId);
  in.userId = nullable<std::string>(body, "userId", readText);
  in.model = nullable<std::string>(body, "model", readText);
  in.provider = nullable<std::string>(body, "provider", readText);
  in.tagKey = nullable<std::string>(body, "tagKey", readText);
  in.tagValue = nullable<std::string>(body, "tagValue", readText);
  in.destination = nullable<std::string>(body, "destination", readText);
  in.destinationType = nullable<std::string>(body, "destinationType", readText);
  if (body.has("limitUsd")) {
    auto v = body.object()->get("limitUsd");
    if (v.isNumeric() && !v.isBoolean())
      in.limitUsd = v.convert<double>();
    else
      body.fail("limitUsd", "must be a number", stringify(v).substr(0, 200));
  } else if (creating) {
    body.fail("limitUsd", "is required");
  }
  in.windowType = body.nonNullString("windowType", creating);
  in.cooldownMins = body.integer("cooldownMins", false);
  in.enabled = body.boolean("enabled", false);
  in.rungs = rungsOf(body);
  if (creating && !body.has("rungs")) body.fail("rungs", "is required");
  for (const char* field : {"limitUsd", "cooldownMins", "enabled", "rungs"})
    if (body.object()->has(field) && body.object()->isNull(field)) body.fail(field, "must not be null", "null");
  // A misspelt field ("limitUSD") is a 422, not a silent no-op.
  for (const auto& [field, value] : *body.object()) {
    if (kOutputOnly.count(field))
      body.fail(field, "is output only", stringify(value).substr(0, 200));
    else if (!kPolicyFields.count(field))
      body.fail(field, "is not a field of a spend policy", stringify(value).substr(0, 200));
  }
  return in;
}

Response checkSpend(AppContext& ctx, Request& req) {
  auto p = ctx.authenticator->userOrApiKey(credentialsOf(req), "publish");
  const auto orgId = p.requireOrg();
  BodyReader body(req.jsonBody());
  spend::Subject subject;
  subject.apiKeyId = body.id("apiKeyId", false);
  subject.appId = body.id("appId", false);
  auto environmentId = body.id("environmentId", false);
  subject.userId = body.string("userId", false, 1, 256);
  subject.model = body.string("model", false, 1, 256);
  subject.provider = body.string("provider", false, 1, 256);
  auto tagKey = body.string("tagKey", false, 1, 256);
  auto tagValue = body.string("tagValue", false, 1, 256);
  if (tagKey.has_value() != tagValue.has_value())
    body.fail(tagKey ? "tagValue" : "tagKey", "tagKey and tagValue are sent together");
  for (const auto& [field, value] : *body.object())
    if (!kCheckFields.count(field)) body.fail(field, "is not a field of a spend check", stringify(value).substr(0, 200));
  if (environmentId) {
    subject.environment = ctx.spendPolicies->environmentSlug(orgId, *environmentId);
    if (!subject.environment)
      body.fail("environmentId", "does not name an environment of this organization", std::to_string(*environmentId));
  }
  body.done();
  if (tagKey && tagValue) subject.tags.emplace_back(*tagKey, *tagValue);
  if (!p.isUser()) subject.apiKeyId = p.apiKeyId;  // a key asks for itself
  auto standing = ctx.spend->check(orgId, subject);
  auto obj = withSchema(req.baseUrl, "SpendCheck");
  obj->set("allowed", standing.allowed);
  obj->set("action", standing.action ? Poco::Dynamic::Var(spend::nameOf(*standing.action)) : Poco::Dynamic::Var());
  obj->set("blockMode", standing.blockMode ? Poco::Dynamic::Var(std::string(
                                                 *standing.blockMode == spend::BlockMode::Hard ? "hard" : "soft"))
                                           : Poco::Dynamic::Var());
  obj->set("fallbackModel", optionalText(standing.fallbackModel));
  obj->set("policyId", standing.matched ? Poco::Dynamic::Var(idString(standing.policyId)) : Poco::Dynamic::Var());
  obj->set("percent", standing.matched ? Poco::Dynamic::Var(std::round(standing.percent * 10000.0) / 10000.0)
                                       : Poco::Dynamic::Var());
  obj->set("retryAfterSeconds",
           standing.allowed ? Poco::Dynamic::Var() : Poco::Dynamic::Var(std::int64_t{standing.retryAfterSeconds}));
  return Response::json(200, obj);
}

}  // namespace

void registerSpendPolicyRoutes(Router& router, AppContext& ctx) {
  router.add(
      "POST", "/spend-policies",
      [&ctx](Request& req) {
        const auto who = actingUser(ctx, req);
        const auto orgId = who.orgId;
        BodyReader body(req.jsonBody());
        auto input = policyInput(body, true);
        body.done([&] { return ctx.spendPolicies->problems(orgId, std::nullopt, input); });
        return Response::json(201, policyJson(req.baseUrl, ctx.spendPolicies->create(orgId, input, who.actor), true));
      },
      "Create a spend policy (name, limitUsd, windowType, rungs; scope apiKeyId, appId, environmentId, userId, model, "
      "provider, tagKey+tagValue; destination+destinationType for alerts).",
      "spend");
  router.document("POST", "/spend-policies", {}, "SpendPolicy");

  router.add(
      "GET", "/spend-policies",
      [&ctx](Request& req) {
        const auto orgId = actingUser(ctx, req).orgId;
        auto obj = withSchema(req.baseUrl, "SpendPolicyList");
        Poco::JSON::Array::Ptr list = new Poco::JSON::Array;
        for (const auto& view : ctx.spendPolicies->list(orgId)) list->add(policyJson(req.baseUrl, view, false));
        obj->set("policies", list);
        return Response::json(200, obj);
      },
      "Spend policies of the organization with their current-window spend, in creation order.", "spend");
  router.document("GET", "/spend-policies", {}, "SpendPolicyList");

  // Registered before /{policyId}: a literal segment must not read as an id.
  router.add(
      "POST", "/spend-policies/check", [&ctx](Request& req) { return checkSpend(ctx, req); },
      "Ask before a model call whether spend policies allow it (Bearer, or API key with publish: then apiKeyId is "
      "the key's own).",
      "spend");
  router.document("POST", "/spend-policies/check", {}, "SpendCheck");

  router.add(
      "GET", "/spend-policies/{policyId}",
      [&ctx](Request& req) {
        const auto orgId = actingUser(ctx, req).orgId;
        auto view = ctx.spendPolicies->get(orgId, pathId(req.param("policyId"), "Spend policy"));
        return Response::json(200, policyJson(req.baseUrl, view, true));
      },
      "A spend policy with its current-window spend.", "spend");
  router.document("GET", "/spend-policies/{policyId}", {}, "SpendPolicy");

  router.add(
      "GET", "/spend-policies/{policyId}/refusals",
      [&ctx](Request& req) {
        const auto orgId = actingUser(ctx, req).orgId;
        const auto view = ctx.spendPolicies->refusals(orgId, pathId(req.param("policyId"), "Spend policy"));
        auto obj = withSchema(req.baseUrl, "SpendRefusalList");
        obj->set("count", view.count);
        Poco::JSON::Array::Ptr list = new Poco::JSON::Array;
        for (const auto& r : view.newest) {
          auto item = newObject();
          setTimestamp(item, "occurredAt", r.occurredAt);
          item->set("apiKeyId", r.apiKeyId ? Poco::Dynamic::Var(idString(*r.apiKeyId)) : Poco::Dynamic::Var());
          item->set("channelId", r.channelId ? Poco::Dynamic::Var(idString(*r.channelId)) : Poco::Dynamic::Var());
          item->set("agentId", optionalText(r.agentId));
          item->set("reason", r.reason);
          item->set("amountUsd", r.amountUsd ? Poco::Dynamic::Var(*r.amountUsd) : Poco::Dynamic::Var());
          list->add(item);
        }
        obj->set("data", list);
        return Response::json(200, obj);
      },
      "Publishes the policy's hard block rung refused: their count and the newest 20 (newest first).", "spend");
  router.document("GET", "/spend-policies/{policyId}/refusals", {}, "SpendRefusalList");

  router.add(
      "PATCH", "/spend-policies/{policyId}",
      [&ctx](Request& req) {
        const auto who = actingUser(ctx, req);
        const auto orgId = who.orgId;
        const auto id = pathId(req.param("policyId"), "Spend policy");
        BodyReader body(req.jsonBody());
        auto input = policyInput(body, false);
        body.done([&] { return ctx.spendPolicies->problems(orgId, id, input); });
        return Response::json(200, policyJson(req.baseUrl, ctx.spendPolicies->update(orgId, id, input, who.actor), true));
      },
      "Change fields of a spend policy (null clears a scope field); its window spend is recounted from the events.",
      "spend");
  router.document("PATCH", "/spend-policies/{policyId}", {}, "SpendPolicy");

  router.add(
      "DELETE", "/spend-policies/{policyId}",
      [&ctx](Request& req) {
        const auto who = actingUser(ctx, req);
        const auto orgId = who.orgId;
        ctx.spendPolicies->remove(orgId, pathId(req.param("policyId"), "Spend policy"), who.actor);
        return Response::noContent();
      },
      "Delete a spend policy (its notifications stay for delivery).", "spend");
}

}  // namespace aev::http
