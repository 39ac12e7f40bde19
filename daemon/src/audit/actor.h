#pragma once
// Who made a change and from where: what every audit entry records besides the change
// itself (docs/features.md#audit-log). Built by the http module from the authenticated principal and
// the request; services take it as a parameter so the entry is written in the same
// transaction as the change.
#include <Poco/JSON/Object.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>

namespace aev::audit {

struct Actor {
  std::string source;      // dashboard (Bearer) | apikey | mcp
  std::string actorId;     // user id, or API key id when source is apikey
  std::string actorEmail;  // "" for API keys
  std::string ipAddress;
  std::string requestId;
};

// One change of state: `action` is `<resourceType>.<verb>` (app.create, apikey.revoke,
// member.role_change, ...), resourceType the singular resource name.
struct Change {
  std::string action;
  std::string resourceType;
  std::string resourceId;
  Poco::JSON::Object::Ptr metadata;  // may be null

  static Change of(std::string resourceType, const std::string& verb, std::int64_t resourceId,
                   Poco::JSON::Object::Ptr metadata = nullptr) {
    auto action = resourceType + "." + verb;
    return {std::move(action), std::move(resourceType), std::to_string(resourceId), std::move(metadata)};
  }
};

// Metadata of an entry: {"name": "prod", "appId": "4"}.
inline Poco::JSON::Object::Ptr metadata(std::initializer_list<std::pair<std::string, Poco::Dynamic::Var>> fields) {
  Poco::JSON::Object::Ptr obj = new Poco::JSON::Object;
  for (const auto& [key, value] : fields) obj->set(key, value);
  return obj;
}

// {"from": ..., "to": ...}: one changed field.
inline Poco::JSON::Object::Ptr changed(const Poco::Dynamic::Var& from, const Poco::Dynamic::Var& to) {
  return metadata({{"from", from}, {"to", to}});
}

}  // namespace aev::audit
