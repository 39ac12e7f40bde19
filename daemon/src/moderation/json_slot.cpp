#include "moderation/json_slot.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Stringifier.h>

#include <sstream>

namespace aev::moderation {

bool isObject(const Poco::Dynamic::Var& value) { return value.type() == typeid(Poco::JSON::Object::Ptr); }
bool isArray(const Poco::Dynamic::Var& value) { return value.type() == typeid(Poco::JSON::Array::Ptr); }

bool scalarText(const Poco::Dynamic::Var& value, std::string& out) {
  if (value.isEmpty()) {
    out = "null";
    return true;
  }
  if (isObject(value) || isArray(value)) return false;
  if (value.isString()) {
    out = value.extract<std::string>();
    return true;
  }
  if (value.isBoolean()) {
    out = value.convert<bool>() ? "true" : "false";
    return true;
  }
  std::ostringstream text;
  Poco::JSON::Stringifier::condense(value, text);
  out = text.str();
  return true;
}

void forEachChild(const JsonSlot& slot, const std::function<void(JsonSlot)>& fn) {
  if (isObject(slot.value)) {
    auto object = slot.value.extract<Poco::JSON::Object::Ptr>();
    if (!object) return;
    std::vector<std::string> names;
    for (const auto& member : *object) names.push_back(member.first);
    // Names first: a replace() during fn must not invalidate the iteration.
    for (const auto& name : names)
      fn(JsonSlot{slot.path + "." + name, object->get(name),
                  [object, name](const Poco::Dynamic::Var& v) mutable { object->set(name, v); }});
  } else if (isArray(slot.value)) {
    auto array = slot.value.extract<Poco::JSON::Array::Ptr>();
    if (!array) return;
    for (unsigned i = 0; i < array->size(); ++i)
      fn(JsonSlot{slot.path + "[" + std::to_string(i) + "]", array->get(i),
                  [array, i](const Poco::Dynamic::Var& v) mutable { array->set(i, v); }});
  }
}

bool memberSlot(const JsonSlot& slot, const std::string& name, JsonSlot& out) {
  if (!isObject(slot.value)) return false;
  auto object = slot.value.extract<Poco::JSON::Object::Ptr>();
  if (!object || !object->has(name)) return false;
  out = JsonSlot{slot.path + "." + name, object->get(name),
                 [object, name](const Poco::Dynamic::Var& v) mutable { object->set(name, v); }};
  return true;
}

bool elementSlot(const JsonSlot& slot, unsigned index, JsonSlot& out) {
  if (!isArray(slot.value)) return false;
  auto array = slot.value.extract<Poco::JSON::Array::Ptr>();
  if (!array || index >= array->size()) return false;
  out = JsonSlot{slot.path + "[" + std::to_string(index) + "]", array->get(index),
                 [array, index](const Poco::Dynamic::Var& v) mutable { array->set(index, v); }};
  return true;
}

}  // namespace aev::moderation
