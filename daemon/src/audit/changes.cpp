#include "audit/changes.h"

#include <set>

#include "audit/actor.h"
#include "audit/canonical_json.h"

namespace aev::audit {

Poco::JSON::Object::Ptr changes(const Poco::JSON::Object& before, const Poco::JSON::Object& after) {
  std::set<std::string> keys;
  for (const auto& [key, _] : before) keys.insert(key);
  for (const auto& [key, _] : after) keys.insert(key);
  Poco::JSON::Object::Ptr out = new Poco::JSON::Object;
  for (const auto& key : keys) {
    const auto from = before.has(key) ? before.get(key) : Poco::Dynamic::Var();
    const auto to = after.has(key) ? after.get(key) : Poco::Dynamic::Var();
    // Compared as canonical text: 1 and 1.0, or key order inside objects, are no change.
    if (canonicalJson(from) != canonicalJson(to)) out->set(key, changed(from, to));
  }
  return out;
}

}  // namespace aev::audit
