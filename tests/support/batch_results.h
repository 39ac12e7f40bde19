#pragma once
// Reading POST /events/batch answers: each result is the stored event itself, or the
// problem+json object (type, title, status...) that refused it.
#include <Poco/JSON/Object.h>

#include <cstdint>

namespace aev::testing {

// Throws when the result is neither (no id and no problem type).
bool isStoredEvent(const Poco::JSON::Object::Ptr& result);
// 201 for a stored event, else the problem's status.
std::int64_t batchStatus(const Poco::JSON::Object::Ptr& result);

}  // namespace aev::testing
