#include "plugins/instance_config.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>

#include <sstream>

#include "webhooks/secret_box.h"

namespace aev::plugins {

namespace {

constexpr const char* kSealed = "$sealed";

Poco::JSON::Object::Ptr parseConfigObject(const std::string& text) {
  if (text.empty()) return new Poco::JSON::Object;
  try {
    auto parsed = Poco::JSON::Parser().parse(text);
    if (auto obj = parsed.extract<Poco::JSON::Object::Ptr>()) return obj;
  } catch (const std::exception&) {
  }
  return nullptr;
}

bool isSealed(const Poco::Dynamic::Var& v) {
  if (v.type() != typeid(Poco::JSON::Object::Ptr)) return false;
  auto obj = v.extract<Poco::JSON::Object::Ptr>();
  return obj && obj->size() == 1 && obj->has(kSealed) && obj->get(kSealed).isString();
}

// A value as the text that is sealed: a one-element JSON array, which every JSON parser
// reads back (a bare string or number at the top level is not accepted by all).
std::string sealedText(const Poco::Dynamic::Var& v) {
  Poco::JSON::Array wrapper;
  wrapper.add(v);
  std::ostringstream out;
  wrapper.stringify(out);
  return out.str();
}

Poco::Dynamic::Var unsealedValue(const std::string& text) {
  auto wrapper = Poco::JSON::Parser().parse(text).extract<Poco::JSON::Array::Ptr>();
  if (!wrapper || wrapper->size() != 1) throw std::runtime_error("a sealed configuration value is malformed");
  return wrapper->get(0);
}

}  // namespace

std::set<std::string> secretKeysOf(const std::string& schemaJson) {
  std::set<std::string> out;
  auto schema = parseConfigObject(schemaJson);
  if (!schema) return out;
  auto properties = schema->getObject("properties");
  if (!properties) return out;
  for (const auto& [name, value] : *properties) {
    if (value.type() != typeid(Poco::JSON::Object::Ptr)) continue;
    auto property = value.extract<Poco::JSON::Object::Ptr>();
    if (property->optValue<bool>("writeOnly", false) || property->optValue<bool>("secret", false)) out.insert(name);
  }
  return out;
}

std::set<std::string> requiredKeysOf(const std::string& schemaJson) {
  std::set<std::string> out;
  auto schema = parseConfigObject(schemaJson);
  if (!schema) return out;
  if (auto required = schema->getArray("required"))
    for (const auto& v : *required)
      if (v.isString()) out.insert(v.convert<std::string>());
  return out;
}

std::string sealConfig(const Poco::JSON::Object& config, const std::set<std::string>& secretKeys,
                       const webhooks::SecretBox& box) {
  Poco::JSON::Object out;
  for (const auto& [key, value] : config) {
    if (!secretKeys.count(key) || isSealed(value)) {
      out.set(key, value);
      continue;
    }
    Poco::JSON::Object::Ptr sealed = new Poco::JSON::Object;
    sealed->set(kSealed, box.seal(sealedText(value)));
    out.set(key, sealed);
  }
  return toJson(out);
}

Poco::JSON::Object::Ptr openConfig(const std::string& stored, const webhooks::SecretBox& box) {
  auto obj = parseConfig(stored);
  Poco::JSON::Object::Ptr out = new Poco::JSON::Object;
  for (const auto& [key, value] : *obj) {
    if (!isSealed(value)) {
      out->set(key, value);
      continue;
    }
    out->set(key, unsealedValue(box.open(value.extract<Poco::JSON::Object::Ptr>()->getValue<std::string>(kSealed))));
  }
  return out;
}

Poco::JSON::Object::Ptr publicConfig(const std::string& stored) {
  auto obj = parseConfig(stored);
  Poco::JSON::Object::Ptr out = new Poco::JSON::Object;
  for (const auto& [key, value] : *obj)
    if (!isSealed(value)) out->set(key, value);
  return out;
}

std::vector<std::string> sealedKeys(const std::string& stored) {
  std::vector<std::string> out;
  const auto obj = parseConfig(stored);  // kept alive for the loop
  for (const auto& [key, value] : *obj)
    if (isSealed(value)) out.push_back(key);
  return out;  // Poco::JSON::Object keeps its keys sorted
}

Poco::JSON::Object::Ptr parseConfig(const std::string& stored) {
  auto obj = parseConfigObject(stored);
  return obj ? obj : Poco::JSON::Object::Ptr(new Poco::JSON::Object);
}

std::string toJson(const Poco::JSON::Object& object) {
  std::ostringstream out;
  object.stringify(out);
  return out.str();
}

}  // namespace aev::plugins
