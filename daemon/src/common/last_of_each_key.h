#pragma once
// Members of an object being made from a list of (key, value) pairs, as Poco::JSON::Object::set
// would keep them: in key order (bytewise, as its map and string_view compare), one a key,
// of equal keys the last one set. `Member` has a `key` comparable as a std::string_view.
#include <algorithm>
#include <vector>

namespace aev {

template <typename Member>
void sortKeepingLastOfEachKey(std::vector<Member>& members) {
  const auto byKey = [](const Member& a, const Member& b) { return a.key < b.key; };
  // Stable: equal keys keep their order, so the last of them is the one set last. Members
  // already in order (a FlatMetadata's) need no sort.
  if (!std::is_sorted(members.begin(), members.end(), byKey)) std::stable_sort(members.begin(), members.end(), byKey);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < members.size(); ++i) {
    if (kept > 0 && members[kept - 1].key == members[i].key)
      members[kept - 1] = members[i];
    else
      members[kept++] = members[i];
  }
  members.resize(kept);
}

}  // namespace aev
