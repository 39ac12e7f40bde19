#include "auth/credential_forms.h"

#include <Poco/String.h>

#include "auth/api_key_service.h"
#include "common/encoding.h"
#include "common/errors.h"

namespace aev::auth {

namespace {

// The credentials after `scheme ` when the header uses that scheme (case-insensitive).
std::optional<std::string> afterScheme(const std::string& header, const std::string& scheme) {
  if (header.size() <= scheme.size() + 1) return std::nullopt;
  if (Poco::icompare(header.substr(0, scheme.size()), scheme) != 0 || header[scheme.size()] != ' ') return std::nullopt;
  return Poco::trim(header.substr(scheme.size() + 1));
}

bool isApiKey(const std::string& text) { return text.rfind(ApiKeyService::kPrefix, 0) == 0; }

// Basic credentials are base64("<user>:<password>"); the password is the key. A value that
// does not decode, or has no colon, is kept whole so the 401 says the key is invalid.
std::string keyOfBasic(const std::string& encoded) {
  auto decoded = base64Decode(encoded);
  if (!decoded) return encoded;
  const auto colon = decoded->find(':');
  return colon == std::string::npos ? *decoded : decoded->substr(colon + 1);
}

}  // namespace

Credentials credentialsFrom(const PresentedHeaders& h, KeyForms forms) {
  Credentials c;
  c.tenantId = h.tenantId;
  c.basicAccepted = forms == KeyForms::WithBasic;
  std::string fromAuthorization;
  if (auto bearer = afterScheme(h.authorization, "Bearer"); bearer && isApiKey(*bearer)) {
    fromAuthorization = *bearer;
  } else if (auto basic = afterScheme(h.authorization, "Basic"); basic && c.basicAccepted) {
    fromAuthorization = keyOfBasic(*basic);
    if (fromAuthorization.empty()) fromAuthorization = *basic;
  } else {
    c.authorization = h.authorization;  // a user session, or a form the authenticator refuses
  }
  for (const std::string* candidate :
       std::initializer_list<const std::string*>{&h.xApiKey, &h.axonpushApiKey, &fromAuthorization}) {
    if (candidate->empty()) continue;
    if (!c.apiKey.empty() && c.apiKey != *candidate)
      throw errors::badRequest(
          "Two different API keys were sent (Authorization, X-API-Key, x-axonpush-api-key): "
          "send one.");
    c.apiKey = *candidate;
  }
  return c;
}

std::string acceptedCredentialForms(bool userTokens, bool basic) {
  std::string out = userTokens ? "Authorization: Bearer <access token>, or an API key as " : "An API key as ";
  out += "Authorization: Bearer aes_…, X-API-Key: aes_…";
  out += basic ? ", x-axonpush-api-key: aes_… or Authorization: Basic base64(<any>:aes_…)"
               : " or x-axonpush-api-key: aes_…";
  return out;
}

}  // namespace aev::auth
