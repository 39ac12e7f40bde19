#pragma once
// The audit actor of a request: who (the principal), how (Bearer → dashboard, API key →
// apikey) and from where (client address, request id).
#include <cstdint>

#include "audit/actor.h"
#include "auth/principal.h"
#include "http/request.h"

namespace aev::http {

struct AppContext;

audit::Actor actorOf(const auth::Principal& p, const Request& req);

// A signed-in user acting on their active organization (403 without one), as the
// second-shape resource routes require, with the actor their changes are audited under.
struct ActingUser {
  std::int64_t orgId = 0;
  audit::Actor actor;
};
ActingUser actingUser(AppContext& ctx, const Request& req);

}  // namespace aev::http
