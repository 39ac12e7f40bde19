#pragma once
// Extracts the telemetry fields of docs/features.md#telemetry-fields from an event at ingest, once, into
// NewEvent::telemetry (stored in columns; analytics never parses JSON).
//
// The rules are those of the dimension_standard plugin (plugins/dimension_standard):
// metadata keys are tried in order and the first present wins; a key is looked up flat
// first ("gen_ai.request.model") and then as a dotted path ("usage.input_tokens").
// The daemon applies them in-core because running 16 plugin calls, each parsing the
// event, on every publish would cost more than the publish; a unit test holds the two
// implementations to the same answers.
#include <Poco/JSON/Object.h>

#include <vector>

#include "common/errors.h"
#include "store/event_records.h"
#include "telemetry/flat_metadata.h"
#include "telemetry/messages.h"
#include "telemetry/prices.h"

namespace aev::telemetry {

// Custom attributes (metadata.tags) accepted per event, and their sizes.
constexpr std::size_t kMaxAttributes = 64;
constexpr std::size_t kMaxAttributeKey = 128;
constexpr std::size_t kMaxAttributeValue = 512;

// Characters of message text an event keeps by default (telemetry.max_message_chars).
constexpr std::size_t kDefaultMaxMessageChars = 32768;

class Extractor {
 public:
  explicit Extractor(PriceTable prices, std::size_t maxMessageChars = kDefaultMaxMessageChars)
      : prices_(std::move(prices)), maxMessageChars_(maxMessageChars) {}

  // Whether normalizeMessages() has anything to do for this event (no parsing: a look at
  // the metadata's keys).
  static bool carriesMessages(const store::NewEvent& e, const Poco::JSON::Object::Ptr& metadata);
  static bool carriesMessages(const store::NewEvent& e, const FlatMetadata& metadata);
  // Moves the prompt and completion of an LLM call, from any convention's metadata keys,
  // into payload.messages (telemetry/messages.h), rewriting e.payloadJson and
  // e.metadataJson; false when there was nothing to move (payload may not be null).
  bool normalizeMessages(store::NewEvent& e, const Poco::JSON::Object::Ptr& payload,
                         const Poco::JSON::Object::Ptr& metadata) const;

  // Fills e.telemetry (and e.isError) from the event's fields, payload and metadata
  // (either may be null). Returns problems with metadata.tags (location-prefixed), which
  // the caller reports as a 422; nothing else about metadata is an error.
  std::vector<FieldError> apply(store::NewEvent& e, const Poco::JSON::Object::Ptr& payload,
                                const Poco::JSON::Object::Ptr& metadata, const std::string& location) const;
  // The same for an event whose messages were just moved out of its metadata as text
  // (normalizeMessagesIntoText): apply() reads the tool the model asked for from `messages`
  // rather than from a payload object.
  std::vector<FieldError> apply(store::NewEvent& e, const MessageLists& messages,
                                const Poco::JSON::Object::Ptr& metadata, const std::string& location) const;
  // The same two for metadata held flat (an OTLP span's): read as the object it makes.
  std::vector<FieldError> apply(store::NewEvent& e, const Poco::JSON::Object::Ptr& payload,
                                const FlatMetadata& metadata, const std::string& location) const;
  std::vector<FieldError> apply(store::NewEvent& e, const MessageLists& messages, const FlatMetadata& metadata,
                                const std::string& location) const;

  // The same for a payload held as text only (an OTLP span's, events::Submission::
  // payloadInTextOrder): the messages are appended to e.payloadJson as its last member, as
  // setting them on the object would place them, and e.metadataJson written; the messages,
  // or none when there was nothing to move (then nothing changed).
  std::optional<MessageLists> normalizeMessagesIntoText(store::NewEvent& e,
                                                        const Poco::JSON::Object::Ptr& metadata) const;
  std::optional<MessageLists> normalizeMessagesIntoText(store::NewEvent& e, FlatMetadata& metadata) const;

  // Whether apply() may read e's payload (the tool of a tool call): a publish path that
  // holds the payload as text builds its object only then.
  static bool readsPayload(const store::NewEvent& e);

  const PriceTable& prices() const { return prices_; }

 private:
  // `metadata`: a Lookup of the event's metadata, read for every field, the tags included.
  std::vector<FieldError> applyWith(store::NewEvent& e, const Poco::JSON::Object::Ptr& payload,
                                    const MessageLists* messages, const conventions::Lookup& metadata,
                                    const std::string& location) const;

  PriceTable prices_;
  std::size_t maxMessageChars_;
};

}  // namespace aev::telemetry
