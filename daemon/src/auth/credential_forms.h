#pragma once
// The forms in which clients send credentials (docs/api.md#authentication), read into one
// Credentials value so every route treats them alike:
//
//   Authorization: Bearer <access token>       a user session (JWT)
//   Authorization: Bearer aes_…                an API key (told from a JWT by its prefix:
//                                               what MCP and most OTLP set-ups send)
//   X-API-Key: aes_…                           an API key
//   x-axonpush-api-key: aes_…                  the same, as the seed system's SDK names it
//   Authorization: Basic base64(<any>:aes_…)   an API key, on the OTLP routes only (the
//                                               Langfuse SDKs: public key ignored, secret
//                                               key = the API key)
//
// Two different API keys in one request are refused (400) rather than one picked.
#include <string>

#include "auth/principal.h"

namespace aev::auth {

// Which forms a route accepts: every route that takes an API key takes the standard
// forms; the OTLP routes also take Basic.
enum class KeyForms { Standard, WithBasic };

struct PresentedHeaders {
  std::string authorization;
  std::string xApiKey;
  std::string axonpushApiKey;
  std::string tenantId;
};

Credentials credentialsFrom(const PresentedHeaders& headers, KeyForms forms);

// "Authorization: Bearer <access token>, or an API key as …": the text a 401 ends with.
std::string acceptedCredentialForms(bool userTokens, bool basic);

}  // namespace aev::auth
