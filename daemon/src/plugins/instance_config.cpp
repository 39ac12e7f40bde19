#include "plugins/instance_config.h"

#include <Poco/JSON/Parser.h>

#include <sstream>

#include "webhooks/secret_box.h"

namespace aev::plugins {

namespace {

constexpr const char* kSealed = "$sealed";

Poco::JSON::Object::Ptr parseObject(const std::string& text) {
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

std::string stringify(const Poco::Dynamic::Var& v) {
  std::ostringstream out;
  Poco::JSON::Stringifier::stringify(v, out);
  return out.str();
}

}  // namespace

std::set<std::string> secretKeysOf(const std::string& schemaJson) {
  std::set<std::string> out;
  auto schema = parseObject(schemaJson);
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
  auto schema = parseObject(schemaJson);
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
    sealed->set(kSealed, box.seal(stringify(value)));
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
    auto text = box.open(value.extract<Poco::JSON::Object::Ptr>()->getValue<std::string>(kSealed));
    out->set(key, Poco::JSON::Parser().parse(text));
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
  for (const auto& [key, value] : *parseConfig(stored))
    if (isSealed(value)) out.push_back(key);
  return out;  // Poco::JSON::Object keeps its keys sorted
}

Poco::JSON::Object::Ptr parseConfig(const std::string& stored) {
  auto obj = parseObject(stored);
  return obj ? obj : Poco::JSON::Object::Ptr(new Poco::JSON::Object);
}

std::string toJson(const Poco::JSON::Object& object) {
  std::ostringstream out;
  object.stringify(out);
  return out.str();
}

}  // namespace aev::plugins
