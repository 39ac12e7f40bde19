#include "apps/app_service.h"

#include "audit/audit_log.h"
#include "common/clock.h"
#include "common/errors.h"
#include "common/text.h"

namespace aev::apps {

void AppService::validateName(const std::string& name) {
  const auto len = utf8Length(name);
  if (len < 1 || len > 120) throw errors::invalidField("body.name", "must be 1 to 120 characters", name.substr(0, 200));
}

store::AppRecord AppService::create(std::int64_t orgId, std::optional<std::int64_t> userId, const std::string& name,
                                    const audit::Actor& actor) {
  validateName(name);
  store::AppRecord app{0, orgId, name, userId, clock::nowMicros(), 0};
  app.updatedAt = app.createdAt;
  db_.transaction([&](store::Connection& c) {
    app.id = apps_.insert(c, app);
    audit_.record(c, orgId, actor, audit::Change::of("app", "create", app.id, audit::metadata({{"name", name}})));
  });
  return app;
}

std::vector<store::AppRecord> AppService::list(std::int64_t orgId) {
  auto c = db_.acquire();
  return apps_.list(*c, orgId);
}

AppWithChannels AppService::get(std::int64_t orgId, std::int64_t appId) {
  auto c = db_.acquire();
  auto app = apps_.byId(*c, orgId, appId);
  if (!app) throw errors::notFound("App");
  return {*app, channels_.ofApp(*c, orgId, appId)};
}

store::AppRecord AppService::rename(std::int64_t orgId, std::int64_t appId, const std::string& name,
                                    const audit::Actor& actor) {
  validateName(name);
  return db_.transaction([&](store::Connection& c) {
    auto app = apps_.byId(c, orgId, appId);
    if (!app) throw errors::notFound("App");
    const auto before = app->name;
    app->name = name;
    app->updatedAt = clock::nowMicros();
    apps_.rename(c, orgId, appId, name, app->updatedAt);
    audit_.record(c, orgId, actor, audit::Change::of("app", "update", appId, audit::metadata({{"name", audit::changed(before, name)}})));
    return *app;
  });
}

void AppService::remove(std::int64_t orgId, std::int64_t appId, const audit::Actor& actor) {
  std::vector<std::int64_t> removed;
  db_.transaction([&](store::Connection& c) {
    auto app = apps_.byId(c, orgId, appId);
    if (!app) throw errors::notFound("App");
    for (const auto& ch : channels_.ofApp(c, orgId, appId)) removed.push_back(ch.id);
    const auto traceIds = traces_.idsInChannels(c, orgId, removed);
    apps_.remove(c, orgId, appId);  // channels and their events cascade
    traces_.rebuild(c, orgId, traceIds);
    audit_.record(c, orgId, actor,
                  audit::Change::of("app", "delete", appId,
                                    audit::metadata({{"name", app->name},
                                                     {"channelCount", static_cast<Poco::Int64>(removed.size())}})));
  });
  if (channelsDeleted_ && !removed.empty()) channelsDeleted_(removed);
}

store::ChannelRecord AppService::createChannel(std::int64_t orgId, std::int64_t appId, const std::string& name,
                                               const audit::Actor& actor) {
  validateName(name);
  return db_.transaction([&](store::Connection& c) {
    if (!apps_.byId(c, orgId, appId)) throw errors::notFound("App");
    store::ChannelRecord ch{0, orgId, appId, name, 0, clock::nowMicros(), 0};
    ch.updatedAt = ch.createdAt;
    ch.id = channels_.insert(c, ch);
    audit_.record(c, orgId, actor,
                  audit::Change::of("channel", "create", ch.id,
                                    audit::metadata({{"name", name}, {"appId", std::to_string(appId)}})));
    return ch;
  });
}

store::ChannelRecord AppService::channel(std::int64_t orgId, std::int64_t channelId) {
  auto c = db_.acquire();
  auto ch = channels_.byId(*c, orgId, channelId);
  if (!ch) throw errors::notFound("Channel");
  return *ch;
}

void AppService::removeChannel(std::int64_t orgId, std::int64_t channelId, const audit::Actor& actor) {
  db_.transaction([&](store::Connection& c) {
    auto ch = channels_.byId(c, orgId, channelId);
    if (!ch) throw errors::notFound("Channel");
    const auto traceIds = traces_.idsInChannels(c, orgId, {channelId});
    channels_.remove(c, orgId, channelId);  // events cascade
    traces_.rebuild(c, orgId, traceIds);
    audit_.record(c, orgId, actor,
                  audit::Change::of("channel", "delete", channelId,
                                    audit::metadata({{"name", ch->name}, {"appId", std::to_string(ch->appId)}})));
  });
  if (channelsDeleted_) channelsDeleted_({channelId});
}

}  // namespace aev::apps
