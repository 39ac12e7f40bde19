// Moderation outcomes (docs/features.md#moderation): the violations list and efficacy
// report (Bearer, or an API key with `read`, as analytics), and a dry run of the rules on
// a sample event (Bearer, or an API key with `publish`: an agent may ask before sending).
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>

#include <limits>

#include "auth/authenticator.h"
#include "events/event.h"
#include "http/body.h"
#include "http/context.h"
#include "http/credentials.h"
#include "http/render.h"
#include "http/resource_views.h"
#include "http/router.h"
#include "moderation/moderator.h"
#include "moderation/violation_service.h"

namespace aev::http {

namespace {

JsonObject matchJson(const moderation::RuleMatch& m) {
  auto obj = newObject();
  obj->set("ruleId", idString(m.ruleId));
  obj->set("ruleName", m.ruleName);
  obj->set("detector", m.detector);
  obj->set("action", moderation::nameOf(m.action));
  obj->set("target", moderation::nameOf(m.target));
  obj->set("matchCount", static_cast<Poco::UInt64>(m.matchCount));
  obj->set("latencyMs", m.latencyMs);
  Poco::JSON::Array::Ptr fields = new Poco::JSON::Array;
  for (const auto& f : m.fields) fields->add(f);
  obj->set("fields", fields);
  obj->set("matches", matchDetailsJson(m.details));
  return obj;
}

// POST /moderation/evaluate reads what POST /event would: payload (required), eventType
// and metadata decide the targets and text; identifier, channel_id and the rest may be
// sent as they are and are not needed.
moderation::EventDocument sampleEvent(const Poco::JSON::Object::Ptr& obj) {
  BodyReader body(obj);
  moderation::EventDocument doc;
  doc.source = "api";
  if (!body.has("payload"))
    body.fail("payload", "is required");
  else if (!(doc.payload = obj->getObject("payload")))
    body.fail("payload", "must be an object", stringify(obj->get("payload")).substr(0, 200));
  doc.eventType = body.oneOf("eventType", false, events::eventTypes()).value_or("");
  if (body.has("metadata") && !(doc.metadata = obj->getObject("metadata")))
    body.fail("metadata", "must be an object", stringify(obj->get("metadata")).substr(0, 200));
  body.done();
  return doc;
}

}  // namespace

void registerModerationReportRoutes(Router& router, AppContext& ctx) {
  router.add(
      "GET", "/moderation/violations",
      [&ctx](Request& req) {
        const auto orgId = ctx.authenticator->userOrApiKey(credentialsOf(req), "read").requireOrg();
        const auto page = queryInt(req.queryParam("page"), "page", 1, 1, 1000000000);
        const auto limit = queryInt(req.queryParam("limit"), "limit", 20, 1, 100);
        store::ViolationFilter filter;
        filter.orgId = orgId;
        if (auto rule = req.queryFilter("ruleId")) {
          filter.ruleId = queryInt(rule, "ruleId", 0, 1, std::numeric_limits<std::int64_t>::max());
        }
        filter.action = queryChoice(req.queryFilter("action"), "action", moderation::actionNames());
        filter.target = queryChoice(req.queryFilter("target"), "target", moderation::targetNames());
        auto result = ctx.violations->list(filter, queryTime(req.queryParam("since"), "since"),
                                           queryTime(req.queryParam("until"), "until"), page, limit);
        auto obj = withSchema(req.baseUrl, "ModerationViolationList");
        Poco::JSON::Array::Ptr data = new Poco::JSON::Array;
        for (const auto& v : result.data) data->add(violationJson(v));
        obj->set("data", data);
        obj->set("meta", pageMeta(result.total, page, limit));
        return Response::json(200, obj);
      },
      "Rule matches (violations) over a window, newest first, paginated; never the matched text.", "moderation");
  router.document("GET", "/moderation/violations",
                  {{"since", "string", "window start, RFC 3339 (default: 24 hours before until)", {}, false},
                   {"until", "string", "window end, RFC 3339 (default: now)", {}, false},
                   {"page", "integer", "default 1", {}, false},
                   {"limit", "integer", "1 to 100, default 20", {}, false},
                   {"ruleId", "string", "only this rule's violations", {}, false},
                   {"action", "string", "only this action", moderation::actionNames(), false},
                   {"target", "string", "only this target", moderation::targetNames(), false}},
                  "ModerationViolationList");

  router.add(
      "GET", "/moderation/efficacy",
      [&ctx](Request& req) {
        const auto orgId = ctx.authenticator->userOrApiKey(credentialsOf(req), "read").requireOrg();
        auto report = ctx.violations->efficacy(orgId, queryTime(req.queryParam("since"), "since"),
                                               queryTime(req.queryParam("until"), "until"));
        auto obj = withSchema(req.baseUrl, "ModerationEfficacy");
        setEfficacyFields(obj, report);
        return Response::json(200, obj);
      },
      "Violations over a window per detector, action and target, with the detectors' latency (rows), and per rule "
      "with its last violation (rules).",
      "moderation");
  router.document("GET", "/moderation/efficacy",
                  {{"since", "string", "window start, RFC 3339 (default: 24 hours before until)", {}, false},
                   {"until", "string", "window end, RFC 3339 (default: now)", {}, false}},
                  "ModerationEfficacy");

  router.add(
      "POST", "/moderation/evaluate",
      [&ctx](Request& req) {
        const auto orgId = ctx.authenticator->userOrApiKey(credentialsOf(req), "publish").requireOrg();
        auto doc = sampleEvent(req.jsonBody());
        auto verdict = ctx.moderator->evaluate(orgId, doc);
        auto obj = withSchema(req.baseUrl, "ModerationVerdict");
        obj->set("decision", verdict.blocked() ? "block" : "accept");
        obj->set("blocked", verdict.blocked());
        obj->set("redacted", verdict.redacted);
        obj->set("flagged", verdict.flagged);
        if (const auto* b = verdict.blockingMatch()) {
          auto by = newObject();
          by->set("ruleId", idString(b->ruleId));
          by->set("ruleName", b->ruleName);
          obj->set("blockedBy", by);
        } else {
          obj->set("blockedBy", Poco::Dynamic::Var());
        }
        Poco::JSON::Array::Ptr targets = new Poco::JSON::Array;
        for (auto t : verdict.targets) targets->add(moderation::nameOf(t));
        obj->set("targets", targets);
        Poco::JSON::Array::Ptr matches = new Poco::JSON::Array;
        for (const auto& m : verdict.matches) matches->add(matchJson(m));
        obj->set("matches", matches);
        obj->set("payload", doc.payload);
        obj->set("metadata", doc.metadata ? Poco::Dynamic::Var(doc.metadata) : Poco::Dynamic::Var());
        return Response::json(200, obj);
      },
      "Run the organization's rules on a sample event (POST /event's body) without publishing or recording it.",
      "moderation");
  router.document("POST", "/moderation/evaluate", {}, "ModerationVerdict");
}

}  // namespace aev::http
