#pragma once
// Opaque page cursors: where a listing continues (its row offset and page size), the
// window it was answered over (pinned, so rows arriving later do not shift the pages),
// and which call it belongs to (tool and arguments). A cursor of another call is refused.
#include <cstdint>
#include <optional>
#include <string>

namespace aev::mcp {

struct Cursor {
  std::string tool;
  std::uint64_t argsHash = 0;
  std::int64_t offset = 0;
  std::int64_t limit = 0;
  std::optional<std::int64_t> since, until;  // µs: the resolved window, when the tool has one
};

std::string encodeCursor(const Cursor& c);
// std::nullopt when `text` is no cursor of ours.
std::optional<Cursor> decodeCursor(const std::string& text);
// FNV-1a: the same on every node and every build, unlike std::hash.
std::uint64_t stableHash(const std::string& text);

}  // namespace aev::mcp
