#pragma once
// Building and taking apart JWTs in tests: decode a token the daemon issued, sign
// forged ones (a chosen algorithm, expired claims, `alg: none`), tamper with one.
#include <Poco/JSON/Object.h>

#include <string>

namespace aev::testing {

std::string base64UrlEncode(const std::string& bytes);
std::string base64UrlDecode(const std::string& text);  // throws std::invalid_argument

struct JwtParts {
  Poco::JSON::Object::Ptr header;
  Poco::JSON::Object::Ptr payload;
  std::string headerB64, payloadB64, signatureB64;
};
// Throws std::invalid_argument when the token is not three base64url JSON parts.
JwtParts decodeJwt(const std::string& token);

// header.payload signed with HMAC-SHA256 / -SHA384 / -SHA512 (alg = HS256 | HS384 | HS512;
// the header's alg is set to `alg` unless setAlg is false).
std::string signJwt(Poco::JSON::Object::Ptr header, const Poco::JSON::Object::Ptr& payload, const std::string& secret,
                    const std::string& alg = "HS256", bool setAlg = true);
// {"alg":"none","typ":"JWT"}.payload. (empty signature)
std::string unsignedJwt(const Poco::JSON::Object::Ptr& payload);
// The same token with one character of the signature changed.
std::string tamperSignature(const std::string& token);
// The same token with its payload re-encoded after `edit`, signature kept.
std::string tamperPayload(const std::string& token, const std::string& key, const Poco::Dynamic::Var& value);

}  // namespace aev::testing
