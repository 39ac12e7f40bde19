// auth/credential_forms.h: every form a client sends its credentials in, read into one
// Credentials value.
#include <gtest/gtest.h>

#include "auth/credential_forms.h"
#include "common/encoding.h"
#include "common/errors.h"

namespace aev::auth {
namespace {

const std::string kKey = "aes_" + std::string(43, 'k');

Credentials read(PresentedHeaders h, KeyForms forms = KeyForms::Standard) { return credentialsFrom(h, forms); }

TEST(CredentialForms, AnApiKeyInEachForm) {
  for (const auto& authorization : {"Bearer " + kKey, "bearer " + kKey, "BEARER  " + kKey + " "}) {
    auto c = read({authorization, "", "", ""});
    EXPECT_EQ(c.apiKey, kKey) << authorization;
    EXPECT_TRUE(c.authorization.empty()) << authorization;
  }
  EXPECT_EQ(read({"", kKey, "", ""}).apiKey, kKey);
  EXPECT_EQ(read({"", "", kKey, "7"}).apiKey, kKey);
  EXPECT_EQ(read({"", "", kKey, "7"}).tenantId, "7");
  // The same key in several forms is one key.
  EXPECT_EQ(read({"Bearer " + kKey, kKey, kKey, ""}).apiKey, kKey);
}

TEST(CredentialForms, AJwtStaysAUserSession) {
  auto c = read({"Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig", "", "", ""});
  EXPECT_EQ(c.authorization, "Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig");
  EXPECT_TRUE(c.apiKey.empty());
  // With a key beside it: both kept, the session wins in the authenticator as before.
  auto both = read({"Bearer eyJ.x.y", kKey, "", ""});
  EXPECT_EQ(both.authorization, "Bearer eyJ.x.y");
  EXPECT_EQ(both.apiKey, kKey);
}

TEST(CredentialForms, BasicOnlyWhereTheRouteTakesIt) {
  const auto basic = "Basic " + base64Encode("pk-lf-1234:" + kKey);
  auto otlp = read({basic, "", "", ""}, KeyForms::WithBasic);
  EXPECT_EQ(otlp.apiKey, kKey);
  EXPECT_TRUE(otlp.basicAccepted);
  // The public key may itself hold no colon-free text; only the first colon splits.
  EXPECT_EQ(read({"Basic " + base64Encode(":" + kKey), "", "", ""}, KeyForms::WithBasic).apiKey, kKey);
  // Elsewhere Basic is left for the authenticator to refuse.
  auto rest = read({basic, "", "", ""});
  EXPECT_EQ(rest.authorization, basic);
  EXPECT_TRUE(rest.apiKey.empty());
  EXPECT_FALSE(rest.basicAccepted);
  // Not base64, or no colon: kept whole, so the key reads as invalid (401), not absent.
  EXPECT_EQ(read({"Basic %%%", "", "", ""}, KeyForms::WithBasic).apiKey, "%%%");
  EXPECT_EQ(read({"Basic " + base64Encode(kKey), "", "", ""}, KeyForms::WithBasic).apiKey, kKey);
}

TEST(CredentialForms, TwoDifferentKeysAreRefused) {
  const auto other = "aes_" + std::string(43, 'o');
  for (const auto& h : {PresentedHeaders{"Bearer " + kKey, other, "", ""}, PresentedHeaders{"", kKey, other, ""},
                        PresentedHeaders{"Bearer " + other, "", kKey, ""}}) {
    try {
      read(h);
      ADD_FAILURE() << "accepted two keys";
    } catch (const ApiError& e) {
      EXPECT_EQ(e.status(), 400);
    }
  }
}

TEST(CredentialForms, TheAcceptedFormsAreNamed) {
  const auto rest = acceptedCredentialForms(true, false);
  for (const char* form :
       {"Authorization: Bearer <access token>", "Authorization: Bearer aes_", "X-API-Key", "x-axonpush-api-key"})
    EXPECT_NE(rest.find(form), std::string::npos) << form;
  EXPECT_EQ(rest.find("Basic"), std::string::npos);
  EXPECT_NE(acceptedCredentialForms(true, true).find("Authorization: Basic base64(<any>:aes_"), std::string::npos);
  EXPECT_EQ(acceptedCredentialForms(false, false).find("access token"), std::string::npos);
}

}  // namespace
}  // namespace aev::auth
