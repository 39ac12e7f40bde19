#pragma once
// The one check every client-supplied text passes before a handler can store it: a
// percent-decoded path parameter or query value, a header value. PostgreSQL refuses a NUL
// in text (and \u0000 in jsonb) and ill-formed UTF-8 in a UTF-8 database, where SQLite
// would take either: refusing both here makes such a request the same 400 on every store,
// decided before any store is touched. (JSON bodies get the same rule from the JSON
// readers, OTLP protobuf strings from the protobuf reader.)
#include <string>
#include <string_view>

#include "common/errors.h"

namespace aev::http {

// No NUL, well-formed UTF-8.
bool isStorableText(std::string_view text);
// The 400 for a text that is not, naming `what` ("The query parameter limit").
ApiError unstorableText(std::string_view text, const std::string& what);

}  // namespace aev::http
