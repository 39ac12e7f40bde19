#pragma once
// What an update changed, for an audit entry's metadata: the fields whose values differ
// between two snapshots of a resource, each as {"from": ..., "to": ...}.
#include <Poco/JSON/Object.h>

namespace aev::audit {

Poco::JSON::Object::Ptr changes(const Poco::JSON::Object& before, const Poco::JSON::Object& after);

}  // namespace aev::audit
