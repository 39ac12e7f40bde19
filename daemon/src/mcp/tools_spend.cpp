// spend_status: every spend policy with its current-window spend and how much of its
// limit that is.
#include <cmath>

#include "http/context.h"
#include "http/resource_views.h"
#include "mcp/listing.h"
#include "mcp/registry.h"
#include "spend/policy_service.h"

namespace aev::mcp {

namespace {

ToolOutput spendStatus(const ToolContext& ctx, const Arguments& args) {
  const auto policyId = args.id("policyId");
  Poco::JSON::Array::Ptr list = new Poco::JSON::Array;
  std::size_t rows = 0;
  for (const auto& view : ctx.app.spendPolicies->list(ctx.orgId)) {
    if (policyId && view.policy.id != *policyId) continue;
    auto obj = http::policyJson(ctx.baseUrl, view, false);
    const auto spent = obj->getValue<double>("currentSpendUsd");
    obj->set("percentUsed",
             view.policy.limitUsd > 0 ? std::round(spent / view.policy.limitUsd * 10000.0) / 100.0 : 0.0);
    list->add(obj);
    ++rows;
  }
  if (policyId && rows == 0)
    throw ToolError("No spend policy " + std::to_string(*policyId) +
                    " in this organization. Call spend_status without policyId to see them all.");
  JsonObject out = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  out->set("policies", list);
  return {finishObject(out, std::nullopt).structured, rows, false};
}

}  // namespace

void addSpendTools(ToolRegistry& r) {
  r.add({"spend_status",
         "Spend status",
         "Spend policies with limitUsd, currentSpendUsd and percentUsed of the current window (windowType), their "
         "rungs (at_percent → action) and scope.",
         {Param::text("policyId", "only this policy")},
         outputSchema({{"policies", "array"}}, false, false),
         spendStatus});
}

}  // namespace aev::mcp
