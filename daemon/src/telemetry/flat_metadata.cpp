#include "telemetry/flat_metadata.h"

#include <algorithm>

#include "common/json_condense.h"

namespace aev::telemetry {

namespace {

using conventions::FlatMember;

template <typename Members>
auto lowerBound(Members& members, std::string_view key) {
  return std::lower_bound(members.begin(), members.end(), key,
                          [](const FlatMember& m, std::string_view k) { return m.key < k; });
}

}  // namespace

FlatMetadata::FlatMetadata(std::vector<FlatMember> members, const FlatValueReader& reader,
                           std::shared_ptr<const void> owner)
    : members_(std::move(members)), reader_(reader), owner_(std::move(owner)) {}

conventions::Lookup FlatMetadata::lookup() const { return conventions::Lookup(members_, reader_.var); }

std::optional<Poco::Dynamic::Var> FlatMetadata::member(std::string_view key) const {
  const auto it = lowerBound(members_, key);
  if (it == members_.end() || it->key != key) return std::nullopt;
  return value(*it);
}

void FlatMetadata::set(std::string_view key, const void* value) {
  const auto it = lowerBound(members_, key);
  if (it != members_.end() && it->key == key)
    it->value = value;
  else
    members_.insert(it, {key, value});
}

void FlatMetadata::remove(const std::vector<std::string_view>& keys) {
  // Both in key order: one walk.
  auto key = keys.begin();
  std::size_t kept = 0;
  for (const auto& m : members_) {
    while (key != keys.end() && *key < m.key) ++key;
    if (key == keys.end() || *key != m.key) members_[kept++] = m;
  }
  members_.resize(kept);
}

Poco::JSON::Object::Ptr FlatMetadata::toObject() const {
  Poco::JSON::Object::Ptr object = new Poco::JSON::Object;
  for (const auto& m : members_) object->set(std::string(m.key), value(m));
  return object;
}

std::string FlatMetadata::text() const {
  std::string out;
  out.reserve(32 * members_.size() + 2);
  out += '{';
  for (std::size_t i = 0; i < members_.size(); ++i) {
    if (i) out += ',';
    appendPocoJsonString(out, members_[i].key);
    out += ':';
    reader_.appendJson(out, members_[i].value);
  }
  out += '}';
  return out;
}

}  // namespace aev::telemetry
