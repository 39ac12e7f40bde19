#include "auth/jwt.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>
#include <Poco/JWT/Signer.h>
#include <Poco/JWT/Token.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/clock.h"
#include "common/crypto.h"
#include "common/encoding.h"

namespace aev::auth {

JwtCodec::JwtCodec(JwtOptions options) : options_(std::move(options)) {
  if (options_.secret.size() < 32) throw std::invalid_argument("auth.jwt_secret must be at least 32 bytes");
}

std::string JwtCodec::issue(AccessClaims& claims) const {
  // JWT times are whole seconds. Counted from the second the token was issued in, a token
  // issued at 10.99 s would live only ttl - 0.99 s (with a 1 s TTL, a few milliseconds),
  // so both times count from the next whole second: every token lives at least its TTL
  // (and less than TTL + 1 s), exp - iat is still the TTL, and iat is never more than a
  // second ahead (verify() allows 60).
  const auto nextSecond = (clock::nowMicros() + clock::kSecond - 1) / clock::kSecond;
  claims.issuedAt = nextSecond;
  claims.expiresAt = nextSecond + options_.ttlSeconds;
  claims.jti = base64UrlEncode(crypto::randomBytes(16));

  Poco::JWT::Token token;
  token.setType("JWT");
  token.setIssuer(options_.issuer);
  token.setAudience(options_.audience);
  token.setSubject(std::to_string(claims.userId));
  token.setIssuedAt(Poco::Timestamp::fromEpochTime(claims.issuedAt));
  token.setExpiration(Poco::Timestamp::fromEpochTime(claims.expiresAt));
  token.setId(claims.jti);
  if (claims.orgId) token.payload().set("org", *claims.orgId);
  Poco::JSON::Array::Ptr roles = new Poco::JSON::Array;
  for (const auto& r : claims.roles) roles->add(r);
  token.payload().set("roles", roles);

  Poco::JWT::Signer signer(options_.secret);
  return signer.sign(token, Poco::JWT::Signer::ALGO_HS256);
}

std::optional<AccessClaims> JwtCodec::verify(const std::string& compact) const {
  if (compact.size() > 4096) return std::nullopt;
  try {
    Poco::JWT::Signer signer(options_.secret);  // allows HS256 only by default
    signer.setAlgorithms({Poco::JWT::Signer::ALGO_HS256});
    Poco::JWT::Token token;
    if (!signer.tryVerify(compact, token)) return std::nullopt;
    if (token.getAlgorithm() != Poco::JWT::Signer::ALGO_HS256) return std::nullopt;
    if (token.getIssuer() != options_.issuer) return std::nullopt;
    auto aud = token.getAudience();
    if (aud.size() != 1 || aud.front() != options_.audience) return std::nullopt;
    const auto& payload = token.payload();
    if (!payload.has("exp") || !payload.has("sub")) return std::nullopt;
    const auto now = clock::nowMicros() / clock::kSecond;
    AccessClaims c;
    c.expiresAt = payload.getValue<Poco::Int64>("exp");
    c.issuedAt = payload.has("iat") ? payload.getValue<Poco::Int64>("iat") : 0;
    if (c.expiresAt <= now) return std::nullopt;
    if (c.issuedAt > now + 60) return std::nullopt;  // issued in the future: clock abuse
    c.userId = std::stoll(token.getSubject());
    if (payload.has("org") && !payload.isNull("org")) c.orgId = payload.getValue<Poco::Int64>("org");
    if (auto roles = payload.getArray("roles"))
      for (std::size_t i = 0; i < roles->size(); ++i) c.roles.push_back(roles->getElement<std::string>(i));
    c.jti = token.getId();
    return c;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::string loadOrCreateSecret(const std::string& dataDir) {
  std::filesystem::create_directories(dataDir);
  const auto path = std::filesystem::path(dataDir) / "jwt.secret";
  if (std::filesystem::exists(path)) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    auto secret = ss.str();
    while (!secret.empty() && (secret.back() == '\n' || secret.back() == '\r')) secret.pop_back();
    if (secret.size() < 32) throw std::runtime_error(path.string() + " holds a secret shorter than 32 bytes");
    return secret;
  }
  const auto secret = base64UrlEncode(crypto::randomBytes(48));
  const auto tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << secret << '\n';
    if (!out) throw std::runtime_error("cannot write " + tmp);
  }
  ::chmod(tmp.c_str(), 0600);
  std::filesystem::rename(tmp, path);
  return secret;
}

}  // namespace aev::auth
