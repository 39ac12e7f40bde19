// get_context (what an agent calls first: who am I, what time is it, what can I ask
// about) and list_channels.
#include <Poco/JSON/Array.h>

#include "analytics/analytics_service.h"
#include "apps/app_service.h"
#include "common/clock.h"
#include "http/context.h"
#include "http/render.h"
#include "http/resource_views.h"
#include "identity/environment_service.h"
#include "identity/organization_service.h"
#include "identity/plans.h"
#include "mcp/listing.h"
#include "mcp/registry.h"

namespace aev::mcp {

namespace {

constexpr std::size_t kContextApps = 50;
constexpr std::size_t kContextChannelsPerApp = 20;

ToolOutput getContext(const ToolContext& ctx, const Arguments&) {
  auto& app = ctx.app;
  const auto org = app.organizations->ofApiKey(ctx.orgId);
  JsonObject out = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  JsonObject orgJson = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  orgJson->set("id", http::idString(org.id));
  orgJson->set("name", org.name);
  orgJson->set("slug", org.slug);
  orgJson->set("plan", org.plan);
  out->set("organization", orgJson);
  JsonObject key = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  key->set("id", http::idString(ctx.apiKeyId));
  key->set("prefix", ctx.keyPrefix);
  key->set("scopes", http::stringArray(ctx.scopes));
  out->set("apiKey", key);
  out->set("now", clock::toRfc3339(ctx.now));
  out->set("retentionDays", app.plans->get(org.plan).retentionDays);

  Poco::JSON::Array::Ptr environments = new Poco::JSON::Array;
  for (const auto& e : app.environments->list(ctx.orgId)) {
    JsonObject env = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
    env->set("id", http::idString(e.id));
    env->set("slug", e.slug);
    env->set("name", e.name);
    environments->add(env);
  }
  out->set("environments", environments);

  Poco::JSON::Array::Ptr apps = new Poco::JSON::Array;
  const auto appList = app.apps->list(ctx.orgId);
  for (std::size_t i = 0; i < appList.size() && i < kContextApps; ++i) {
    auto full = app.apps->get(ctx.orgId, appList[i].id);
    JsonObject a = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
    a->set("appId", http::idString(full.app.id));
    a->set("name", full.app.name);
    Poco::JSON::Array::Ptr channels = new Poco::JSON::Array;
    for (std::size_t j = 0; j < full.channels.size() && j < kContextChannelsPerApp; ++j) {
      JsonObject ch = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
      ch->set("channelId", http::idString(full.channels[j].id));
      ch->set("name", full.channels[j].name);
      channels->add(ch);
    }
    a->set("channels", channels);
    a->set("channelCount", static_cast<Poco::UInt64>(full.channels.size()));
    apps->add(a);
  }
  out->set("apps", apps);
  out->set("appCount", static_cast<Poco::UInt64>(appList.size()));
  out->set("dimensions", http::stringArray(app.analytics->dimensionNames()));
  out->set("analyticsFilters", http::stringArray(analytics::AnalyticsService::filterNames()));
  out->set("metrics", http::stringArray(analytics::AnalyticsService::metrics()));
  JsonObject limits = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  limits->set("maxOutputChars", static_cast<Poco::UInt64>(ctx.options.maxOutputChars));
  limits->set("callsPerMinute", ctx.options.callsPerMinute);
  out->set("limits", limits);
  out->set(
      "hint",
      "Times are RFC 3339 UTC or relative (15m, 24h, 7d). Start with list_traces (agentId, window) or search_events, "
      "then get_trace_summary and get_trace_events; analytics_breakdown by model shows cost; spend_status the "
      "budgets. Lists page with nextCursor.");
  return finishObject(out, std::nullopt);
}

ToolOutput listChannels(const ToolContext& ctx, const Arguments& args) {
  const auto cursor = cursorOf(ctx, args);
  const auto start = pageStart(args, cursor);
  const auto appId = args.id("appId");
  const auto nameContains = args.text("nameContains");
  std::vector<JsonObject> rows;
  auto& apps = *ctx.app.apps;
  std::vector<store::AppRecord> appList;
  if (appId)
    appList.push_back(apps.get(ctx.orgId, *appId).app);
  else
    appList = apps.list(ctx.orgId);
  std::int64_t index = 0;
  bool more = false;
  for (const auto& a : appList) {
    for (const auto& ch : apps.get(ctx.orgId, a.id).channels) {
      if (nameContains && ch.name.find(*nameContains) == std::string::npos) continue;
      if (index++ < start.offset) continue;
      if (static_cast<std::int64_t>(rows.size()) == start.limit) {
        more = true;
        break;
      }
      auto row = http::channelJson(ctx.baseUrl, ch, false);
      row->set("appName", a.name);
      rows.push_back(row);
    }
    if (more) break;
  }
  JsonObject out = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  return finishListing(ctx, args, out, "channels", std::move(rows), start, more, std::nullopt);
}

}  // namespace

void addContextTools(ToolRegistry& r) {
  r.add({"get_context",
         "Context",
         "Call first. The organization this API key reads, the server's current time (resolve relative dates "
         "against it), retention, environments, apps with their channel ids, analytics dimension and filter names, "
         "metrics, and the output limits.",
         {},
         outputSchema({{"organization", "object"},
                       {"apiKey", "object"},
                       {"now", "string"},
                       {"retentionDays", "integer"},
                       {"environments", "array"},
                       {"apps", "array"},
                       {"dimensions", "array"}},
                      false, false),
         getContext});
  r.add(
      {"list_channels",
       "Channels",
       "Channels (where events are published) with their app, in app order. Filter by appId or a name substring.",
       {Param::text("appId", "only this app's channels (an appId from get_context)"),
        Param::text("nameContains", "only channels whose name contains this text"), limitParam(50, 200), cursorParam()},
       outputSchema({{"channels", "array"}}, true, false),
       listChannels});
}

}  // namespace aev::mcp
