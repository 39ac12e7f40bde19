#pragma once
// The message reader of telemetry/messages.h over Poco values of any shape: what the flat
// reader (messages_from_text.h) hands over when an attribute is not text (a JSON array or
// object sent as the value itself) or a member has a type it leaves to Poco's conversions.
// It builds Poco trees for the messages; the flat reader gives the same lists without.
#include <Poco/JSON/Object.h>

#include "telemetry/messages.h"

namespace aev::telemetry::from_tree {

// Both sides read from the metadata's message attributes, unbounded. Throws a
// Poco::Exception for values it cannot read as messages (a null role, say).
MessageLists readMessages(const Poco::JSON::Object& metadata);

}  // namespace aev::telemetry::from_tree
