#include "http/audit_actor.h"

#include "auth/authenticator.h"
#include "http/context.h"
#include "http/credentials.h"

namespace aev::http {

audit::Actor actorOf(const auth::Principal& p, const Request& req) {
  audit::Actor a;
  if (p.isUser()) {
    a.source = "dashboard";
    a.actorId = std::to_string(p.userId);
    a.actorEmail = p.email;
  } else {
    a.source = "apikey";
    a.actorId = std::to_string(p.apiKeyId);
  }
  a.ipAddress = req.clientAddress;
  a.requestId = req.requestId;
  return a;
}

ActingUser actingUser(AppContext& ctx, const Request& req) {
  auto p = ctx.authenticator->user(credentialsOf(req));
  const auto orgId = p.requireOrg();
  return {orgId, actorOf(p, req)};
}

}  // namespace aev::http
