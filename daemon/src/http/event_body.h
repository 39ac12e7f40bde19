#pragma once
// Reading one published event (POST /event's body, or an element of POST /events/batch)
// into a NewEvent: fields validated (every problem in one 422), telemetry extracted,
// moderation applied (redactions and flags, or a 422 when a rule blocks it; `screening`
// keeps the verdict for recording once the event is stored).
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
#include "events/event.h"
#include "http/context.h"
#include "moderation/violation_service.h"

namespace aev::http {

// `object` is a node of kind Object in `body`; `location` prefixes error locations
// ("body", "body.events[3]"); `source` is stored with the event (api, batch).
events::NewEvent readEvent(const AppContext& ctx, const JsonView& body, std::uint32_t object,
                           const std::string& location, const auth::Principal& publisher, const std::string& source,
                           moderation::Screening& screening);

// The Poco path readEvent falls back to, for an event given as an object. Public so that
// a test can hold the two to the same answers.
events::NewEvent parseEventObject(const AppContext& ctx, const Poco::JSON::Object::Ptr& object,
                                  const std::string& location, const auth::Principal& publisher,
                                  const std::string& source, moderation::Screening& screening);

}  // namespace aev::http
