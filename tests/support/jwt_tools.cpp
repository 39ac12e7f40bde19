#include "support/jwt_tools.h"

#include <Poco/HMACEngine.h>
#include <Poco/JSON/Parser.h>
#include <Poco/JSON/Stringifier.h>
#include <Poco/SHA2Engine.h>

#include <sstream>
#include <stdexcept>

namespace aev::testing {

namespace {
constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string compact(const Poco::JSON::Object::Ptr& o) {
  std::ostringstream out;
  Poco::JSON::Stringifier::condense(o, out);
  return out.str();
}

Poco::JSON::Object::Ptr parseObject(const std::string& json) {
  Poco::JSON::Parser parser;
  auto v = parser.parse(json);
  if (v.type() != typeid(Poco::JSON::Object::Ptr)) throw std::invalid_argument("JWT part is not a JSON object");
  return v.extract<Poco::JSON::Object::Ptr>();
}

template <class Engine>
std::string hmac(const std::string& secret, const std::string& data) {
  Poco::HMACEngine<Engine> engine(secret);
  engine.update(data);
  const auto& d = engine.digest();
  return std::string(d.begin(), d.end());
}

// Poco's SHA2Engine takes its variant in the constructor; HMACEngine default-constructs
// its engine, so wrap each variant.
struct Sha256 : Poco::SHA2Engine {
  enum { BLOCK_SIZE = 64, DIGEST_SIZE = 32 };
  Sha256() : Poco::SHA2Engine(SHA_256) {}
};
struct Sha384 : Poco::SHA2Engine {
  enum { BLOCK_SIZE = 128, DIGEST_SIZE = 48 };
  Sha384() : Poco::SHA2Engine(SHA_384) {}
};
struct Sha512 : Poco::SHA2Engine {
  enum { BLOCK_SIZE = 128, DIGEST_SIZE = 64 };
  Sha512() : Poco::SHA2Engine(SHA_512) {}
};
}  // namespace

std::string base64UrlEncode(const std::string& bytes) {
  std::string out;
  std::size_t i = 0;
  const auto* b = reinterpret_cast<const unsigned char*>(bytes.data());
  for (; i + 2 < bytes.size(); i += 3) {
    unsigned v = (b[i] << 16) | (b[i + 1] << 8) | b[i + 2];
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  if (bytes.size() - i == 1) {
    unsigned v = b[i] << 16;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
  } else if (bytes.size() - i == 2) {
    unsigned v = (b[i] << 16) | (b[i + 1] << 8);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
  }
  return out;
}

std::string base64UrlDecode(const std::string& text) {
  std::string out;
  unsigned buffer = 0;
  int bits = 0;
  for (char c : text) {
    if (c == '=') break;
    const char* p = std::char_traits<char>::find(kAlphabet, 64, c);
    if (!p) {
      if (c == '+') p = kAlphabet + 62;
      else if (c == '/') p = kAlphabet + 63;
      else throw std::invalid_argument("not base64url: " + text);
    }
    buffer = (buffer << 6) | static_cast<unsigned>(p - kAlphabet);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((buffer >> bits) & 0xFF);
    }
  }
  return out;
}

JwtParts decodeJwt(const std::string& token) {
  auto d1 = token.find('.');
  auto d2 = d1 == std::string::npos ? std::string::npos : token.find('.', d1 + 1);
  if (d2 == std::string::npos || token.find('.', d2 + 1) != std::string::npos)
    throw std::invalid_argument("not a compact JWT: " + token);
  JwtParts parts;
  parts.headerB64 = token.substr(0, d1);
  parts.payloadB64 = token.substr(d1 + 1, d2 - d1 - 1);
  parts.signatureB64 = token.substr(d2 + 1);
  parts.header = parseObject(base64UrlDecode(parts.headerB64));
  parts.payload = parseObject(base64UrlDecode(parts.payloadB64));
  return parts;
}

std::string signJwt(Poco::JSON::Object::Ptr header, const Poco::JSON::Object::Ptr& payload, const std::string& secret,
                    const std::string& alg, bool setAlg) {
  if (setAlg) header->set("alg", alg);
  const std::string input = base64UrlEncode(compact(header)) + "." + base64UrlEncode(compact(payload));
  std::string mac;
  if (alg == "HS256") mac = hmac<Sha256>(secret, input);
  else if (alg == "HS384") mac = hmac<Sha384>(secret, input);
  else if (alg == "HS512") mac = hmac<Sha512>(secret, input);
  else throw std::invalid_argument("signJwt: unsupported alg " + alg);
  return input + "." + base64UrlEncode(mac);
}

std::string unsignedJwt(const Poco::JSON::Object::Ptr& payload) {
  Poco::JSON::Object::Ptr header = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  header->set("alg", "none");
  header->set("typ", "JWT");
  return base64UrlEncode(compact(header)) + "." + base64UrlEncode(compact(payload)) + ".";
}

std::string tamperSignature(const std::string& token) {
  auto dot = token.rfind('.');
  if (dot == std::string::npos || dot + 1 >= token.size()) throw std::invalid_argument("token has no signature");
  std::string out = token;
  // Change the first signature character (all of its 6 bits are significant).
  char& c = out[dot + 1];
  c = c == 'A' ? 'B' : 'A';
  return out;
}

std::string tamperPayload(const std::string& token, const std::string& key, const Poco::Dynamic::Var& value) {
  auto parts = decodeJwt(token);
  parts.payload->set(key, value);
  return parts.headerB64 + "." + base64UrlEncode(compact(parts.payload)) + "." + parts.signatureB64;
}

}  // namespace aev::testing
