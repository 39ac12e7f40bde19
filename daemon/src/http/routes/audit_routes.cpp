// The audit log (docs/features.md#audit-log): the newest-first list with its
// filters, and verification of the hash chain against the signed checkpoints. Both are
// for organization admins.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>

#include <map>

#include "audit/audit_log.h"
#include "audit/chain.h"
#include "auth/api_key_service.h"
#include "auth/authenticator.h"
#include "http/body.h"
#include "http/context.h"
#include "http/credentials.h"
#include "http/render.h"
#include "http/router.h"

namespace aev::http {

namespace {

std::int64_t adminOrg(AppContext& ctx, const Request& req) {
  auto p = ctx.authenticator->user(credentialsOf(req));
  p.requireOrgAdmin();
  return *p.orgId;
}

// Who acted, by name: an API key's name (for entries made with a key: source apikey or
// mcp, actorId = the key's id), else the user's e-mail.
using KeyNames = std::map<std::string, std::string>;

JsonObject entryJson(const store::AuditRecord& e, const KeyNames& keyNames) {
  auto obj = newObject();
  obj->set("id", idString(e.id));
  obj->set("organizationId", idString(e.orgId));
  obj->set("seq", e.seq);
  obj->set("actorId", e.actorId);
  obj->set("actorEmail", e.actorEmail);
  const bool byKey = e.source == "apikey" || e.source == "mcp";
  obj->set("actorType", byKey ? "api_key" : "user");
  const auto key = byKey ? keyNames.find(e.actorId) : keyNames.end();
  obj->set("actorName", key != keyNames.end() ? key->second : e.actorEmail);
  obj->set("action", e.action);
  obj->set("resourceType", e.resourceType);
  obj->set("resourceId", e.resourceId);
  obj->set("source", e.source);
  obj->set("ipAddress", e.ipAddress);
  obj->set("requestId", e.requestId);
  obj->set("metadata", e.metadata ? Poco::JSON::Parser().parse(*e.metadata) : Poco::Dynamic::Var());
  setTimestamp(obj, "createdAt", e.createdAt);
  obj->set("prevHash", e.prevHash);
  obj->set("entryHash", e.entryHash);
  return obj;
}

Poco::Dynamic::Var checkpointJson(const std::optional<store::AuditCheckpointRecord>& cp,
                                  const audit::CheckpointSigner* signer) {
  if (!cp) return {};
  auto obj = newObject();
  obj->set("organizationId", idString(cp->orgId));
  obj->set("seq", cp->seq);
  obj->set("entryHash", cp->entryHash);
  setTimestamp(obj, "signedAt", cp->signedAt);
  obj->set("keyId", cp->keyId);
  obj->set("signature", cp->signature);
  obj->set("signedText", audit::checkpointText(*cp));
  obj->set("publicKey", signer ? signer->publicKeyBase64() : std::string());
  return obj;
}

}  // namespace

void registerAuditRoutes(Router& router, AppContext& ctx) {
  router.add(
      "GET", "/audit-logs",
      [&ctx](Request& req) {
        const auto orgId = adminOrg(ctx, req);
        audit::AuditQuery q;
        q.action = req.queryFilter("action");
        q.resourceType = req.queryFilter("resourceType");
        q.source = req.queryFilter("source");
        q.before = queryTime(req.queryParam("before"), "before");
        if (req.queryParam("beforeSeq"))
          q.beforeSeq = queryInt(req.queryParam("beforeSeq"), "beforeSeq", 1, 1, INT64_MAX);
        if (req.queryParam("afterSeq")) q.afterSeq = queryInt(req.queryParam("afterSeq"), "afterSeq", 0, 0, INT64_MAX);
        if (req.queryParam("limit")) q.limit = queryInt(req.queryParam("limit"), "limit", 50, 1, 200);
        auto obj = withSchema(req.baseUrl, "AuditLogList");
        Poco::JSON::Array::Ptr data = new Poco::JSON::Array;
        KeyNames keyNames;
        for (const auto& k : ctx.apiKeys->list(orgId)) keyNames[std::to_string(k.id)] = k.name;
        for (const auto& e : ctx.audit->list(orgId, q)) data->add(entryJson(e, keyNames));
        obj->set("data", data);
        return Response::json(200, obj);
      },
      "The organization's audit log, newest first (organization admins).", "audit");
  router.document(
      "GET", "/audit-logs",
      {{"action", "string", "only this action, e.g. app.create", {}, false},
       {"resourceType", "string", "only this resource type, e.g. app", {}, false},
       {"source", "string", "only this origin", {"dashboard", "apikey", "mcp"}, false},
       {"before", "string", "RFC 3339, exclusive upper bound (default: now)", {}, false},
       {"beforeSeq", "integer", "exclusive: only entries older than this seq (the next page)", {}, false},
       {"afterSeq", "integer", "exclusive: entries just newer than this seq (the previous page)", {}, false},
       {"limit", "integer", "1 to 200, default 50", {}, false}},
      "AuditLogList");

  router.add(
      "GET", "/audit-logs/verify",
      [&ctx](Request& req) {
        const auto orgId = adminOrg(ctx, req);
        const auto report = ctx.audit->verify(orgId);
        auto obj = withSchema(req.baseUrl, "AuditLogVerification");
        obj->set("ok", report.ok);
        obj->set("checked", report.checked);
        obj->set("brokenAtSeq", report.brokenAtSeq ? Poco::Dynamic::Var(*report.brokenAtSeq) : Poco::Dynamic::Var());
        obj->set("reason", report.ok ? Poco::Dynamic::Var() : Poco::Dynamic::Var(report.reason));
        obj->set("headSeq", report.head ? report.head->seq : 0);
        obj->set("headHash", report.head ? Poco::Dynamic::Var(report.head->entryHash) : Poco::Dynamic::Var());
        obj->set("checkpointsVerified", report.checkpointsVerified);
        obj->set("checkpointsUnverifiable", report.checkpointsUnverifiable);
        obj->set("checkpoint", checkpointJson(report.latestCheckpoint, ctx.audit->signer()));
        return Response::json(200, obj);
      },
      "Recomputes the organization's audit chain and checks it against the signed checkpoints; signs a checkpoint of "
      "the head when the chain holds (organization admins).",
      "audit");
  router.document("GET", "/audit-logs/verify", {}, "AuditLogVerification");
}

}  // namespace aev::http
