#pragma once
// The message reader of telemetry/messages.h for attribute values that are text or
// scalars (every OTLP span's, as instrumentations write messages as JSON text): JSON text
// is read with the flat JsonView and the lists are built as structs, no Poco tree. It
// gives exactly the lists of the tree reader (messages_from_tree.h; a unit test holds the
// two together), and hands over to it, by throwing NeedsTree, whatever it leaves to
// Poco's conversions: an attribute that is itself an array or object, a role or part type
// that is null, an array or an object.
#include <Poco/JSON/Object.h>

#include <string>
#include <vector>

#include "telemetry/messages.h"

namespace aev::telemetry::from_text {

struct NeedsTree {};

// Both sides read from the metadata's message attributes, unbounded; `keys`, when given,
// gets every message key of the metadata (isMessageKey's, found in the same pass).
MessageLists readMessages(const Poco::JSON::Object& metadata, std::vector<std::string>* keys = nullptr);

}  // namespace aev::telemetry::from_text
