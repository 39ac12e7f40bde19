#pragma once
// The credentials of a request, in every form auth/credential_forms.h accepts.
#include "auth/credential_forms.h"
#include "auth/principal.h"
#include "http/request.h"

namespace aev::http {

inline auth::Credentials credentialsOf(const Request& r, auth::KeyForms forms = auth::KeyForms::Standard) {
  return auth::credentialsFrom(
      {r.header("authorization"), r.header("x-api-key"), r.header("x-axonpush-api-key"), r.header("x-tenant-id")},
      forms);
}

}  // namespace aev::http
