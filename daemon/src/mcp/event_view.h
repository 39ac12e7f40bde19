#pragma once
// An event as the tools show it: the REST rendering (events::toJson), with its payload
// kept when it fits maxPayloadChars, else replaced by a cut `payloadPreview`; or, for
// trace skeletons, without payload at all.
#include "mcp/tool.h"
#include "store/event_records.h"

namespace aev::mcp {

enum class PayloadMode { Omit, Bounded };

JsonObject eventView(const store::StoredEvent& e, PayloadMode mode, std::size_t maxPayloadChars);

}  // namespace aev::mcp
