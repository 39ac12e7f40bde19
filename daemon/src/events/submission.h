#pragma once
// An event as an entry point read it (a POST /event body, an element of POST
// /events/batch, an OTLP span), before events::Publisher takes it down the publish path:
// the fields the reader found, the problems it found, and where errors point.
#include <Poco/JSON/Object.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/errors.h"
#include "common/json_view.h"
#include "events/event.h"
#include "telemetry/flat_metadata.h"

namespace aev::events {

struct Submission {
  // Fields as read; payloadJson and metadataJson condensed; the publisher (organization,
  // user or API key) and source set.
  NewEvent event;
  // The parsed metadata, or null when there is none (telemetry reads it on every event).
  Poco::JSON::Object::Ptr metadata;
  // Or the metadata held flat (an OTLP span's, telemetry/flat_metadata.h), whose object is
  // built only when a reader needs one (metadataObject()); its values must outlive publish().
  std::optional<telemetry::FlatMetadata> flatMetadata;
  // The metadata as an object: `metadata`, else built from flatMetadata, which it then
  // replaces (so later readers and writers see the one object).
  const Poco::JSON::Object::Ptr& metadataObject();
  // Where errors point: "body", "body.events[3]", "span".
  std::string location;
  // What the reader refused. The publisher reports these together with the telemetry's
  // own problems (bad metadata.tags) in one 422, so a publisher sees every mistake at once.
  std::vector<FieldError> problems;

  // Where the parsed payload comes from. Most events never need it as an object (only a
  // tool call's telemetry and an organization's moderation rules read it), so a reader
  // says where to build it from, and it is built on the first payload() call.
  void payloadIs(Poco::JSON::Object::Ptr parsed);  // already parsed (null: not an object)
  // A node of the request's JsonView, which must outlive the publisher's publish() call.
  void payloadAt(const JsonView& view, std::uint32_t node);
  // Neither: parsed from event.payloadJson.
  const Poco::JSON::Object::Ptr& payload();

  // The reader left event.metadataJson unwritten (and event.payloadJson too, unless
  // payloadInTextOrder), holding the metadata as an object or flat (flatMetadata) and the
  // payload as an object (payloadIs): the publisher's extract step writes them once, after
  // the messages have moved into the payload (OTLP spans).
  bool textsFromObjects = false;
  // The payload is event.payloadJson only (an OTLP span's, written in its members' order):
  // payload() parses it keeping that order, so a payload moderation rewrites keeps it too,
  // and the extract step moves messages in by appending to the text.
  bool payloadInTextOrder = false;

 private:
  Poco::JSON::Object::Ptr payload_;
  bool built_ = false;
  const JsonView* view_ = nullptr;
  std::uint32_t node_ = 0;
};

}  // namespace aev::events
