#include "apps/app_service.h"

#include "common/clock.h"
#include "common/errors.h"
#include "common/text.h"

namespace aev::apps {

void AppService::validateName(const std::string& name) {
  const auto len = utf8Length(name);
  if (len < 1 || len > 120) throw errors::invalidField("body.name", "must be 1 to 120 characters", name.substr(0, 200));
}

store::AppRecord AppService::create(std::int64_t orgId, std::optional<std::int64_t> userId, const std::string& name) {
  validateName(name);
  store::AppRecord app{0, orgId, name, userId, clock::nowMicros(), 0};
  app.updatedAt = app.createdAt;
  auto c = db_.acquire();
  app.id = apps_.insert(*c, app);
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

store::AppRecord AppService::rename(std::int64_t orgId, std::int64_t appId, const std::string& name) {
  validateName(name);
  return db_.transaction([&](store::Connection& c) {
    auto app = apps_.byId(c, orgId, appId);
    if (!app) throw errors::notFound("App");
    app->name = name;
    app->updatedAt = clock::nowMicros();
    apps_.rename(c, orgId, appId, name, app->updatedAt);
    return *app;
  });
}

void AppService::remove(std::int64_t orgId, std::int64_t appId) {
  std::vector<std::int64_t> removed;
  db_.transaction([&](store::Connection& c) {
    if (!apps_.byId(c, orgId, appId)) throw errors::notFound("App");
    for (const auto& ch : channels_.ofApp(c, orgId, appId)) removed.push_back(ch.id);
    const auto traceIds = traces_.idsInChannels(c, orgId, removed);
    apps_.remove(c, orgId, appId);  // channels and their events cascade
    traces_.rebuild(c, orgId, traceIds);
  });
  if (channelsDeleted_ && !removed.empty()) channelsDeleted_(removed);
}

store::ChannelRecord AppService::createChannel(std::int64_t orgId, std::int64_t appId, const std::string& name) {
  validateName(name);
  return db_.transaction([&](store::Connection& c) {
    if (!apps_.byId(c, orgId, appId)) throw errors::notFound("App");
    store::ChannelRecord ch{0, orgId, appId, name, 0, clock::nowMicros(), 0};
    ch.updatedAt = ch.createdAt;
    ch.id = channels_.insert(c, ch);
    return ch;
  });
}

store::ChannelRecord AppService::channel(std::int64_t orgId, std::int64_t channelId) {
  auto c = db_.acquire();
  auto ch = channels_.byId(*c, orgId, channelId);
  if (!ch) throw errors::notFound("Channel");
  return *ch;
}

void AppService::removeChannel(std::int64_t orgId, std::int64_t channelId) {
  db_.transaction([&](store::Connection& c) {
    if (!channels_.byId(c, orgId, channelId)) throw errors::notFound("Channel");
    const auto traceIds = traces_.idsInChannels(c, orgId, {channelId});
    channels_.remove(c, orgId, channelId);  // events cascade
    traces_.rebuild(c, orgId, traceIds);
  });
  if (channelsDeleted_) channelsDeleted_({channelId});
}

}  // namespace aev::apps
