// list_moderation_violations and moderation_efficacy (never the matched text).
#include "common/clock.h"
#include "http/context.h"
#include "http/resource_views.h"
#include "mcp/listing.h"
#include "mcp/registry.h"
#include "moderation/rule.h"
#include "moderation/violation_service.h"

namespace aev::mcp {

namespace {

ToolOutput listViolations(const ToolContext& ctx, const Arguments& args) {
  const auto cursor = cursorOf(ctx, args);
  const auto start = pageStart(args, cursor);
  const auto window = resolveWindow(ctx, args, clock::kDay, cursor);
  store::ViolationFilter filter;
  filter.orgId = ctx.orgId;
  filter.ruleId = args.id("ruleId");
  filter.action = args.text("action");
  filter.target = args.text("target");
  const auto page = start.offset / start.limit + 1;
  const auto skip = start.offset % start.limit;
  auto result = ctx.app.violations->list(filter, window.since, window.until, page, start.limit);
  std::vector<JsonObject> rows;
  for (std::size_t i = static_cast<std::size_t>(skip); i < result.data.size(); ++i)
    rows.push_back(http::violationJson(result.data[i]));
  const bool more = result.total > start.offset + static_cast<std::int64_t>(rows.size());
  JsonObject out = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  out->set("total", result.total);
  return finishListing(ctx, args, out, "violations", std::move(rows), start, more, window);
}

ToolOutput efficacy(const ToolContext& ctx, const Arguments& args) {
  const auto window = resolveWindow(ctx, args, clock::kDay, std::nullopt);
  auto report = ctx.app.violations->efficacy(ctx.orgId, window.since, window.until);
  JsonObject out = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  http::setEfficacyFields(out, report);
  return {finishObject(out, window).structured, report.rows.size(), false};
}

}  // namespace

void addModerationTools(ToolRegistry& r) {
  r.add({"list_moderation_violations",
         "Moderation violations",
         "Moderation rule matches in the window, newest first: rule, detector, action, target, event and channel "
         "ids, matched fields (never the matched text).",
         {sinceParam(), untilParam(), Param::text("ruleId", "only this rule's violations"),
          Param::oneOf("action", "only this action", moderation::actionNames()),
          Param::oneOf("target", "only this target", moderation::targetNames()), limitParam(20, 100), cursorParam()},
         outputSchema({{"violations", "array"}, {"total", "integer"}}, true, true),
         listViolations});
  r.add({"moderation_efficacy",
         "Moderation efficacy",
         "Violations per detector, action and target over the window, with the detectors' average and maximum "
         "latency (rows), and per rule with the time of its last violation (rules).",
         {sinceParam(), untilParam()},
         outputSchema({{"rows", "array"}, {"rules", "array"}}, false, true),
         efficacy});
}

}  // namespace aev::mcp
