#pragma once
// Reading one published event (POST /event's body, or an element of POST /events/batch)
// into the Submission that events::Publisher takes down the publish path: fields read and
// checked (the problems kept for the publisher's one 422), the payload's object left to be
// built from the view only if a step needs it.
//
// The event is read straight from the request's JsonView: its fields out of the text, its
// payload and metadata condensed from it, Poco objects built only where a consumer needs
// one (metadata for telemetry; the payload when the organization has moderation rules or
// the event is a tool call). An event that is not plainly valid (a field of the wrong
// type or size, a missing one, a bad tag, an escaped member name) is read again the Poco
// way by parseEventObject, the code that writes the 422, from the object parseJson makes
// of its text: so stored text, answers and errors are those of the Poco path, which
// costs about a third more CPU per event.
#include <Poco/JSON/Object.h>

#include <cstdint>
#include <string>

#include "auth/principal.h"
#include "common/json_view.h"
#include "events/submission.h"

namespace aev::http {

// `object` is a node of kind Object in `body`, which must outlive the publisher's
// publish() of the result; `location` prefixes error locations ("body",
// "body.events[3]"); `source` is stored with the event (api, batch).
events::Submission readEvent(const JsonView& body, std::uint32_t object, const std::string& location,
                             const auth::Principal& publisher, const std::string& source);

// The Poco path readEvent falls back to, for an event given as an object. Public so that
// a test can hold the two to the same answers.
events::Submission parseEventObject(const Poco::JSON::Object::Ptr& object, const std::string& location,
                                    const auth::Principal& publisher, const std::string& source);

}  // namespace aev::http
