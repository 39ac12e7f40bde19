// /api-keys: create (full key shown once), list (truncated), update (name, default channel),
// revoke (immediate).
#include <Poco/JSON/Array.h>

#include "auth/api_key_service.h"
#include "auth/authenticator.h"
#include "http/audit_actor.h"
#include "http/body.h"
#include "http/context.h"
#include "http/credentials.h"
#include "http/render.h"
#include "http/router.h"

namespace aev::http {

namespace {
JsonObject apiKeyJson(const store::ApiKeyRecord& k, const std::string& key) {
  auto obj = newObject();
  obj->set("id", k.id);
  obj->set("name", k.name);
  obj->set("key", key);
  Poco::JSON::Array::Ptr scopes = new Poco::JSON::Array;
  for (const auto& s : k.scopes) scopes->add(s);
  obj->set("scopes", scopes);
  obj->set("organizationId", k.orgId);
  if (k.defaultChannelId)
    obj->set("defaultChannelId", *k.defaultChannelId);
  else
    obj->set("defaultChannelId", Poco::Dynamic::Var());
  setTimestamp(obj, "createdAt", k.createdAt);
  return obj;
}

// defaultChannelId as sent: absent (nullopt), null (clear: an inner nullopt), or an id.
std::optional<std::optional<std::int64_t>> defaultChannelOf(BodyReader& body) {
  if (!body.object() || !body.object()->has("defaultChannelId")) return std::nullopt;
  if (body.object()->isNull("defaultChannelId")) return std::optional<std::int64_t>();
  return body.id("defaultChannelId", false);
}
}  // namespace

void registerApiKeyRoutes(Router& router, AppContext& ctx) {
  router.add(
      "POST", "/api-keys",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->user(credentialsOf(req));
        const auto orgId = p.requireOrg();
        BodyReader body(req.jsonBody());
        auto name = body.string("name", true, 1, 120);
        auto scopes = body.stringArray("scopes", true);
        const auto defaultChannel = defaultChannelOf(body);
        body.done();
        auto created = ctx.apiKeys->create(orgId, p.userId, *name, *scopes, defaultChannel.value_or(std::nullopt),
                                           actorOf(p, req));
        return Response::json(201, apiKeyJson(created.record, created.fullKey));
      },
      "Create an API key for the active organization; the full key is returned only here.", "api-keys");

  router.add(
      "GET", "/api-keys",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->user(credentialsOf(req));
        Poco::JSON::Array::Ptr list = new Poco::JSON::Array;
        for (const auto& k : ctx.apiKeys->list(p.requireOrg()))
          list->add(apiKeyJson(k, k.keyPrefix + "\xE2\x80\xA6"));
        return Response::json(200, list);
      },
      "API keys of the active organization, keys truncated.", "api-keys");

  router.add(
      "PATCH", "/api-keys/:id",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->user(credentialsOf(req));
        const auto orgId = p.requireOrg();
        const auto id = pathId(req.param("id"), "API key");
        BodyReader body(req.jsonBody());
        auth::ApiKeyService::Update change;
        change.name = body.string("name", false, 1, 120);
        change.defaultChannelId = defaultChannelOf(body);
        body.done();
        auto updated = ctx.apiKeys->update(orgId, id, change, actorOf(p, req));
        return Response::json(200, apiKeyJson(updated, updated.keyPrefix + "\xE2\x80\xA6"));
      },
      "Rename an API key or set its default channel (null clears it).", "api-keys");

  router.add(
      "DELETE", "/api-keys/:id",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->user(credentialsOf(req));
        ctx.apiKeys->revoke(p.requireOrg(), pathId(req.param("id"), "API key"), actorOf(p, req));
        return Response::noContent();
      },
      "Revoke an API key; effective on the next request.", "api-keys");
}

}  // namespace aev::http
