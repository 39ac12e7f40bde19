#pragma once
#include "auth/principal.h"
#include "http/request.h"

namespace aev::http {

inline auth::Credentials credentialsOf(const Request& r) {
  return {r.header("authorization"), r.header("x-api-key"), r.header("x-tenant-id")};
}

}  // namespace aev::http
