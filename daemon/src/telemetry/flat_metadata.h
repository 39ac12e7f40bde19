#pragma once
// An event's metadata held as flat members, not as a Poco object: an OTLP span's attributes
// and the keys its mapping adds (otlp/span_metadata.h), each value where it already lives (the
// decoded request) and read only when a reader asks for it. The publish path reads it as it
// read the object: the convention table through a Lookup, the messages moved out of it, its
// text written from the members; the object itself is built only for a reader that needs
// one (an organization's moderation rules), with the members it has then.
#include <Poco/JSON/Object.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "telemetry/conventions.h"

namespace aev::telemetry {

// How the members' values are read (the values are the owner's type, opaque here).
struct FlatValueReader {
  conventions::Materialize var;  // the value as the object's member holds it
  // Its condensed JSON text: what condensedJson writes of var(value).
  void (*appendJson)(std::string& out, const void* value);
  // The text of a value var() makes a std::string of, read in place; else null.
  const std::string* (*string)(const void* value);
};

class FlatMetadata {
 public:
  // `members` in key order, one a key (the object's members, as its map holds them); the
  // keys and values must live as long as `owner` (or, when the caller keeps them, at least
  // as long as this).
  FlatMetadata(std::vector<conventions::FlatMember> members, const FlatValueReader& reader,
               std::shared_ptr<const void> owner);

  const std::vector<conventions::FlatMember>& members() const { return members_; }
  conventions::Lookup lookup() const;
  // A member's value as the object would hold it.
  Poco::Dynamic::Var value(const conventions::FlatMember& member) const { return reader_.var(member.value); }
  // A member's value as text, read in place, when the object would hold it as a std::string
  // made of the same text (null otherwise: read value()).
  const std::string* string(const conventions::FlatMember& member) const { return reader_.string(member.value); }
  // A member's value as the object would hold it, or none.
  std::optional<Poco::Dynamic::Var> member(std::string_view key) const;
  // Object::optValue: the member converted to T, else `otherwise`.
  template <typename T>
  T optValue(std::string_view key, const T& otherwise) const {
    auto v = member(key);
    if (!v || v->isEmpty()) return otherwise;
    try {
      return v->convert<T>();
    } catch (...) {
      return otherwise;
    }
  }
  // Adds or replaces a member (Object::set), whose key and value live as long as the others.
  void set(std::string_view key, const void* value);
  // Removes the members `keys` names (Object::remove of each); `keys` in key order.
  void remove(const std::vector<std::string_view>& keys);

  // The object the members make (a new one each call).
  Poco::JSON::Object::Ptr toObject() const;
  // condensedJson of that object, written from the members.
  std::string text() const;

 private:
  std::vector<conventions::FlatMember> members_;
  FlatValueReader reader_;
  std::shared_ptr<const void> owner_;
};

}  // namespace aev::telemetry
