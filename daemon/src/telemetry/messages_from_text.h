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
#include <string_view>
#include <vector>

#include "telemetry/messages.h"

namespace aev::telemetry::from_text {

struct NeedsTree {};

// Both sides read from the metadata's message attributes, unbounded; `keys` gets every
// message key of the metadata (isMessageKey's, found in the same pass), viewing its keys.
MessageLists readMessages(const Poco::JSON::Object& metadata, std::vector<std::string_view>& keys);
MessageLists readMessages(const FlatMetadata& metadata, std::vector<std::string_view>& keys);
// The same, the keys copied when asked for.
MessageLists readMessages(const Poco::JSON::Object& metadata, std::vector<std::string>* keys = nullptr);

}  // namespace aev::telemetry::from_text
