#include "mcp/cursor.h"

#include <Poco/Base64Decoder.h>
#include <Poco/Base64Encoder.h>
#include <Poco/JSON/Parser.h>

#include <sstream>

#include "http/request.h"

namespace aev::mcp {

std::uint64_t stableHash(const std::string& text) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

std::string encodeCursor(const Cursor& c) {
  Poco::JSON::Object::Ptr obj = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  obj->set("t", c.tool);
  obj->set("h", std::to_string(c.argsHash));
  obj->set("o", c.offset);
  obj->set("l", c.limit);
  if (c.since) obj->set("s", *c.since);
  if (c.until) obj->set("u", *c.until);
  std::ostringstream out;
  Poco::Base64Encoder encoder(out, Poco::BASE64_URL_ENCODING | Poco::BASE64_NO_PADDING);
  encoder.rdbuf()->setLineLength(0);
  encoder << http::stringify(obj);
  encoder.close();
  return out.str();
}

std::optional<Cursor> decodeCursor(const std::string& text) {
  if (text.empty() || text.size() > 600) return std::nullopt;
  try {
    std::istringstream in(text);
    Poco::Base64Decoder decoder(in, Poco::BASE64_URL_ENCODING | Poco::BASE64_NO_PADDING);
    std::string json((std::istreambuf_iterator<char>(decoder)), std::istreambuf_iterator<char>());
    auto obj = Poco::JSON::Parser().parse(json).extract<Poco::JSON::Object::Ptr>();
    Cursor c;
    c.tool = obj->getValue<std::string>("t");
    c.argsHash = std::stoull(obj->getValue<std::string>("h"));
    c.offset = obj->getValue<std::int64_t>("o");
    c.limit = obj->getValue<std::int64_t>("l");
    if (obj->has("s")) c.since = obj->getValue<std::int64_t>("s");
    if (obj->has("u")) c.until = obj->getValue<std::int64_t>("u");
    if (c.offset < 0 || c.limit < 1) return std::nullopt;
    return c;
  } catch (...) {
    return std::nullopt;
  }
}

}  // namespace aev::mcp
