#include "mcp/event_view.h"

#include <Poco/JSON/Parser.h>

#include "common/text.h"
#include "events/event.h"
#include "mcp/listing.h"

namespace aev::mcp {

JsonObject eventView(const store::StoredEvent& e, PayloadMode mode, std::size_t maxPayloadChars) {
  auto obj = Poco::JSON::Parser().parse(events::toJson(e)).extract<Poco::JSON::Object::Ptr>();
  if (mode == PayloadMode::Omit) {
    obj->remove("payload");
    obj->set("payloadChars", static_cast<Poco::UInt64>(utf8Length(e.payloadJson)));
  } else if (utf8Length(e.payloadJson) > maxPayloadChars) {
    obj->remove("payload");
    obj->set("payloadPreview", cutText(e.payloadJson, maxPayloadChars));
  }
  return obj;
}

}  // namespace aev::mcp
