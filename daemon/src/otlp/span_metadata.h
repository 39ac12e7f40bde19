#pragma once
// A span's metadata (otlp/span_events.h says which keys it holds) as flat members over the
// decoded request, not as a Poco object: the attributes where the decoder left them, the
// keys the mapping adds (the short aliases, the span's facts) as values it owns. The
// publish path reads it as it read the object (telemetry/flat_metadata.h), and builds the
// object only for a reader that needs one.
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "otlp/trace_model.h"
#include "telemetry/conventions.h"
#include "telemetry/flat_metadata.h"

namespace aev::otlp {

// Values a batch's metadata reads besides the request's: the aliases and span facts the
// mapping adds, and each resource's attributes as one kvlist value ("resource"). A deque,
// so a value stays where it is as more are added. Shared by a batch's events.
using AddedValues = std::deque<AnyValue>;

// The convention table's view of a span's metadata before its aliases: its attributes and
// the first exception event's exception.type / exception.message where the span has none
// (the keys spanMetadata adds before it reads an alias; the resource and service.name are
// the prefix of no row it reads). The span must outlive it.
telemetry::conventions::Lookup attributeView(const Span& span);
telemetry::conventions::Lookup resourceView(const std::vector<KeyValue>& resource);

// A non-empty string attribute of the flat view, or none.
std::optional<std::string> attributeString(const telemetry::conventions::Lookup& attributes, const char* key);

// The span's metadata: its attributes (a duplicate key: the last value), then, where the span
// did not set the key itself, the resource (`resourceValue`: its attributes as a kvlist, or
// null when it has none), service.name, the first exception event's exception.*, and the
// aliases read through the convention table from `lookup` (attributeView(span)) and
// `resourceLookup`; then the span's facts duration_ms and status, which override attributes.
// Keys and values live in the request and in `added`, which the metadata keeps alive (the
// request is the caller's to keep).
telemetry::FlatMetadata spanMetadata(const Span& span, const std::vector<KeyValue>& resource,
                                     const AnyValue* resourceValue, const telemetry::conventions::Lookup& lookup,
                                     const telemetry::conventions::Lookup& resourceLookup,
                                     telemetry::conventions::Kind kind, const std::shared_ptr<AddedValues>& added);

// Sets `key` (a string that outlives the metadata) to the text `value`, kept in `added`.
void setText(telemetry::FlatMetadata& metadata, std::string_view key, std::string value, AddedValues& added);

}  // namespace aev::otlp
