#pragma once
// Per-use configuration of a plugin component: a moderation rule's detectorConfig, an
// export destination's config, an alert rule's destinationConfig. A JSON object the
// plugin checks when the host opens an instance with it (create/open refusing it is a 422
// carrying the plugin's message).
//
// Secrets: a key whose property in the component's configuration schema says
// "writeOnly": true (JSON Schema's own keyword; "secret": true is read the same way) is
// stored sealed (libsodium secretbox, webhooks/secret_box.h) as {"$sealed": "sbx1:..."},
// opened only to hand the object to the plugin, and never shown: listings show the
// other keys plus the names of the secret keys that are set.
#include <Poco/JSON/Object.h>

#include <set>
#include <string>
#include <vector>

namespace aev::webhooks {
class SecretBox;
}

namespace aev::plugins {

// The secret keys a component's configuration schema declares (its top-level properties).
std::set<std::string> secretKeysOf(const std::string& schemaJson);

// The keys the schema's top-level "required" array names.
std::set<std::string> requiredKeysOf(const std::string& schemaJson);

// The stored text of `config`: each secret key's value sealed. Values that are sealed
// already (kept from the stored config) stay as they are.
std::string sealConfig(const Poco::JSON::Object& config, const std::set<std::string>& secretKeys,
                       const webhooks::SecretBox& box);

// What the plugin receives: the stored text with every sealed value opened. Throws
// std::runtime_error when a value does not open (the sealing key changed).
Poco::JSON::Object::Ptr openConfig(const std::string& stored, const webhooks::SecretBox& box);

// What the API shows: the stored object without its sealed values.
Poco::JSON::Object::Ptr publicConfig(const std::string& stored);

// The names of the stored object's sealed values, sorted.
std::vector<std::string> sealedKeys(const std::string& stored);

// Parses a stored config ("" reads as {}).
Poco::JSON::Object::Ptr parseConfig(const std::string& stored);

std::string toJson(const Poco::JSON::Object& object);

}  // namespace aev::plugins
