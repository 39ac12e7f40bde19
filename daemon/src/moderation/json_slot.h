#pragma once
// A value inside a parsed JSON document that moderation may read and replace in place
// (redaction writes the masked text back through `replace`, so the stored event is
// rendered from the changed tree).
#include <Poco/Dynamic/Var.h>

#include <functional>
#include <string>

namespace aev::moderation {

struct JsonSlot {
  std::string path;  // where it is, for findings and detectors: "payload.messages[0].content"
  Poco::Dynamic::Var value;
  std::function<void(const Poco::Dynamic::Var&)> replace;
};

// The text of a scalar as rules compare it: strings as they are, true/false, numbers in
// their JSON form, null as "null". False for objects and arrays, which have none.
bool scalarText(const Poco::Dynamic::Var& value, std::string& out);

bool isObject(const Poco::Dynamic::Var& value);
bool isArray(const Poco::Dynamic::Var& value);

// Calls fn with each member of an object slot or element of an array slot, each
// replaceable in its parent; nothing for scalars.
void forEachChild(const JsonSlot& slot, const std::function<void(JsonSlot)>& fn);
// One member of an object slot / element of an array slot; false when there is none.
bool memberSlot(const JsonSlot& slot, const std::string& name, JsonSlot& out);
bool elementSlot(const JsonSlot& slot, unsigned index, JsonSlot& out);

}  // namespace aev::moderation
