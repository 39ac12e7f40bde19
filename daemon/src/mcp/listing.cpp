#include "mcp/listing.h"

#include <cctype>

#include "common/clock.h"
#include "common/text.h"
#include "http/request.h"

namespace aev::mcp {

namespace {

constexpr const char* kTimeHelp =
    "RFC 3339 (2026-01-31T12:00:00Z) or relative to now: a number and s, m, h, d or w (15m, 24h, 7d)";

// "24h" → 24 hours in µs; std::nullopt when `text` is not a relative span.
std::optional<std::int64_t> relativeSpan(const std::string& text) {
  if (text.size() < 2 || text.size() > 8) return std::nullopt;
  const char unit = text.back();
  auto n = parseInt64(std::string_view(text).substr(0, text.size() - 1));
  if (!n || *n < 0 || !std::isdigit(static_cast<unsigned char>(text[0]))) return std::nullopt;
  std::int64_t per = 0;
  switch (unit) {
    case 's':
      per = clock::kSecond;
      break;
    case 'm':
      per = clock::kMinute;
      break;
    case 'h':
      per = clock::kHour;
      break;
    case 'd':
      per = clock::kDay;
      break;
    case 'w':
      per = 7 * clock::kDay;
      break;
    default:
      return std::nullopt;
  }
  if (*n > 3650 * clock::kDay / per) return std::nullopt;  // ten years is enough
  return *n * per;
}

std::optional<std::int64_t> timeArgument(const Arguments& args, const std::string& name, std::int64_t now) {
  auto text = args.text(name);
  if (!text) return std::nullopt;
  if (auto span = relativeSpan(*text)) return now - *span;
  if (auto t = clock::parseRfc3339(*text)) return t;
  throw ToolError("'" + name + "' must be " + kTimeHelp + ", not \"" + text->substr(0, 80) + "\".");
}

std::size_t textLength(const JsonObject& obj) { return utf8Length(http::stringify(obj)); }

}  // namespace

Param sinceParam() { return Param::text("since", std::string("window start: ") + kTimeHelp + "; default 24h"); }
Param untilParam() { return Param::text("until", std::string("window end: ") + kTimeHelp + "; default now"); }
Param cursorParam() {
  return Param::text("cursor", "nextCursor of the previous answer, to continue it (send the same other arguments)");
}
Param limitParam(std::int64_t defaultLimit, std::int64_t maxLimit) {
  return Param::integer("limit", "rows per answer", 1, maxLimit, defaultLimit);
}

std::optional<Cursor> cursorOf(const ToolContext& ctx, const Arguments& args) {
  auto text = args.text("cursor");
  if (!text) return std::nullopt;
  auto c = decodeCursor(*text);
  if (!c || c->tool != ctx.tool || c->argsHash != stableHash(args.fingerprint()))
    throw ToolError(
        "'cursor' is not a nextCursor of this tool for these arguments: send the same arguments as the "
        "call that returned it, or call without cursor to start over.");
  return c;
}

Window resolveWindow(const ToolContext& ctx, const Arguments& args, std::int64_t defaultSpan,
                     const std::optional<Cursor>& cursor) {
  if (cursor && cursor->since && cursor->until) return {*cursor->since, *cursor->until};
  Window w;
  w.until = timeArgument(args, "until", ctx.now).value_or(ctx.now);
  w.since = timeArgument(args, "since", ctx.now).value_or(w.until - defaultSpan);
  if (w.since > w.until)
    throw ToolError("'since' (" + clock::toRfc3339(w.since) + ") is after 'until' (" + clock::toRfc3339(w.until) +
                    "): swap them or widen the window.");
  return w;
}

std::optional<std::pair<std::string, std::string>> tagFilterOf(const Arguments& args) {
  auto key = args.text("filterTagKey");
  auto value = args.text("filterTagValue");
  if (key.has_value() != value.has_value())
    throw ToolError("'filterTagKey' and 'filterTagValue' are used as a pair: add '" +
                    std::string(key ? "filterTagValue" : "filterTagKey") + "'.");
  if (!key) return std::nullopt;
  return std::make_pair(std::move(*key), std::move(*value));
}

std::vector<Param> tagFilterParams(const std::string& what) {
  return {Param::text("filterTagKey", "custom attribute key (analytics_dimensions); with filterTagValue"),
          Param::text("filterTagValue", "only " + what + " whose tag filterTagKey has this value")};
}

std::vector<Param> windowListParams(std::vector<Param> filters, const std::string& what,
                                    const std::vector<std::string>& sorts) {
  std::vector<Param> params = {sinceParam(), untilParam()};
  for (auto& p : filters) params.push_back(std::move(p));
  for (auto& p : tagFilterParams(what)) params.push_back(std::move(p));
  params.push_back(Param::oneOf("sort", "the order (default " + sorts.front() + ")", sorts));
  params.push_back(Param::oneOf("order", "desc (default) or asc", {"desc", "asc"}));
  params.push_back(limitParam(10, 50));
  params.push_back(cursorParam());
  return params;
}

PageStart pageStart(const Arguments& args, const std::optional<Cursor>& cursor) {
  if (cursor) return {cursor->offset, cursor->limit};
  return {0, args.integer("limit")};
}

void setWindow(JsonObject obj, const Window& w) {
  Poco::JSON::Object::Ptr window = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  window->set("since", clock::toRfc3339(w.since));
  window->set("until", clock::toRfc3339(w.until));
  obj->set("window", window);
}

ToolOutput finishListing(const ToolContext& ctx, const Arguments& args, JsonObject result, const std::string& field,
                         std::vector<JsonObject> items, const PageStart& start, bool more,
                         const std::optional<Window>& window) {
  if (window) setWindow(result, *window);
  auto cursorAt = [&](std::int64_t offset) {
    Cursor c{ctx.tool, stableHash(args.fingerprint()), offset, start.limit, std::nullopt, std::nullopt};
    if (window) {
      c.since = window->since;
      c.until = window->until;
    }
    return encodeCursor(c);
  };
  auto fill = [&](std::size_t shown, bool truncated) {
    Poco::JSON::Array::Ptr list = new Poco::JSON::Array;
    for (std::size_t i = 0; i < shown; ++i) list->add(items[i]);
    result->set(field, list);
    result->set("returned", static_cast<Poco::UInt64>(shown));
    result->set("truncated", truncated);
    const bool follows = truncated || more;
    result->set("nextCursor", follows ? Poco::Dynamic::Var(cursorAt(start.offset + static_cast<std::int64_t>(shown)))
                                      : Poco::Dynamic::Var());
  };
  fill(items.size(), false);
  if (items.size() <= 1 || textLength(result) <= ctx.options.maxOutputChars) return {result, items.size(), false};
  // The most rows that fit (at least one, so a cursor always moves on).
  std::size_t lo = 1, hi = items.size() - 1;
  while (lo < hi) {
    const auto mid = (lo + hi + 1) / 2;
    fill(mid, true);
    if (textLength(result) <= ctx.options.maxOutputChars)
      lo = mid;
    else
      hi = mid - 1;
  }
  fill(lo, true);
  return {result, lo, true};
}

ToolOutput finishObject(JsonObject result, const std::optional<Window>& window) {
  if (window) setWindow(result, *window);
  result->set("truncated", false);
  return {result, 1, false};
}

std::string cutText(const std::string& text, std::size_t maxChars) {
  const auto length = utf8Length(text);
  if (length <= maxChars) return text;
  std::size_t chars = 0, i = 0;
  for (; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      if (chars == maxChars) break;
      ++chars;
    }
  }
  return text.substr(0, i) + "…[+" + std::to_string(length - maxChars) + " chars]";
}

}  // namespace aev::mcp
