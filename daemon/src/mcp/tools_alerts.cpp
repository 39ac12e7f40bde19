// list_alerts: the organization's alert rules with their state.
#include "alerts/alert_service.h"
#include "http/context.h"
#include "http/resource_views.h"
#include "mcp/listing.h"
#include "mcp/registry.h"

namespace aev::mcp {

namespace {

ToolOutput listAlerts(const ToolContext& ctx, const Arguments& args) {
  const auto cursor = cursorOf(ctx, args);
  const auto start = pageStart(args, cursor);
  const auto state = args.text("state").value_or("all");
  std::vector<JsonObject> rows;
  std::int64_t index = 0;
  bool more = false;
  for (const auto& rule : ctx.app.alerts->list(ctx.orgId)) {
    if (state != "all" && rule.state != state) continue;
    if (index++ < start.offset) continue;
    if (static_cast<std::int64_t>(rows.size()) == start.limit) {
      more = true;
      break;
    }
    rows.push_back(http::alertJson(ctx.baseUrl, rule, false));
  }
  JsonObject out = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  return finishListing(ctx, args, out, "alerts", std::move(rows), start, more, std::nullopt);
}

}  // namespace

void addAlertTools(ToolRegistry& r) {
  r.add({"list_alerts",
         "Alert rules",
         "Alert rules with metric, operator, threshold, windowMins, state (firing or ok), lastValue and "
         "lastEvaluatedAt, in creation order.",
         {Param::oneOf("state", "only rules in this state (default all)", {"firing", "ok", "all"}), limitParam(20, 100),
          cursorParam()},
         outputSchema({{"alerts", "array"}}, true, false),
         listAlerts});
}

}  // namespace aev::mcp
