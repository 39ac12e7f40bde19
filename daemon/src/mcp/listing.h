#pragma once
// What every answer states and how lists are bounded: the resolved window, limits and
// cursors, long strings cut with a visible marker, and the ~40,000-character cap on the
// text of a result, cut at a row boundary with a cursor that continues exactly there.
#include <Poco/JSON/Array.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mcp/cursor.h"
#include "mcp/tool.h"

namespace aev::mcp {

// `since`/`until` as RFC 3339 or relative to now (15m, 24h, 7d, 2w).
struct Window {
  std::int64_t since = 0, until = 0;  // µs
};
Param sinceParam();
Param untilParam();
Param cursorParam();
Param limitParam(std::int64_t defaultLimit, std::int64_t maxLimit);

// The window of a call: the cursor's when continuing, else since/until resolved against
// ctx.now (default: `defaultSpan` before until). ToolError when unreadable or reversed.
Window resolveWindow(const ToolContext& ctx, const Arguments& args, std::int64_t defaultSpan,
                     const std::optional<Cursor>& cursor);
// The cursor argument decoded and checked to belong to this tool and these arguments.
std::optional<Cursor> cursorOf(const ToolContext& ctx, const Arguments& args);

// Where a listing starts: the cursor's offset and page size, else 0 and `limit`.
struct PageStart {
  std::int64_t offset = 0;
  std::int64_t limit = 0;
};
PageStart pageStart(const Arguments& args, const std::optional<Cursor>& cursor);

// filterTagKey + filterTagValue, the REST lists' and analytics' tag filter: `what` with an
// event whose metadata.tags[filterTagKey] is filterTagValue. tagFilterOf: the pair, or none;
// ToolError when only one.
std::vector<Param> tagFilterParams(const std::string& what);
std::optional<std::pair<std::string, std::string>> tagFilterOf(const Arguments& args);

// A window list's parameters: since, until, `filters`, the tag filter of `what` (as
// above), sort over `sorts` (the first is the default), order, limit (10, at most 50), cursor.
std::vector<Param> windowListParams(std::vector<Param> filters, const std::string& what,
                                    const std::vector<std::string>& sorts);

// A list result: `result` holds the other fields; `items` are the rows from `start`
// onwards; `more` says whether rows follow them. Sets field, returned, truncated,
// nextCursor (and window when given), cutting rows off the end while the text exceeds
// ctx.options.maxOutputChars.
ToolOutput finishListing(const ToolContext& ctx, const Arguments& args, JsonObject result, const std::string& field,
                         std::vector<JsonObject> items, const PageStart& start, bool more,
                         const std::optional<Window>& window);
// A single-object result (bounded by construction): window when given, truncated false.
ToolOutput finishObject(JsonObject result, const std::optional<Window>& window);
void setWindow(JsonObject obj, const Window& w);

// `text` cut to maxChars code points with "…[+N chars]" appended when longer.
std::string cutText(const std::string& text, std::size_t maxChars);

}  // namespace aev::mcp
