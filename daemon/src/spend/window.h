#pragma once
// Spend windows (docs/features.md#spend-policies): calendar hour, day, week (starting Monday) and month in
// UTC, or the rolling last 24 hours. All times are µs since the epoch.
#include <optional>
#include <string>
#include <vector>

#include "common/clock.h"

namespace aev::spend {

using clock::Micros;

enum class WindowType { Hour, Day, Week, Month, Rolling24h };

const std::vector<std::string>& windowTypeNames();  // hour, day, week, month, rolling_24h
std::optional<WindowType> windowTypeOf(const std::string& name);

struct Window {
  Micros start = 0;           // spend from here on counts
  std::optional<Micros> end;  // when a calendar window resets (exclusive); none for rolling_24h
};

// The window that holds `now`. rolling_24h counts whole minutes: the current minute and
// the 1,439 before it.
Window windowAt(WindowType type, Micros now);
// The counter a spend at `t` adds to: the window's start, or the minute for rolling_24h.
Micros bucketOf(WindowType type, Micros t);
// The window a rung crossing at `now` is recorded once for: the window's start, or for
// rolling_24h (which never resets at a boundary) the UTC day.
Micros crossingWindowOf(WindowType type, Micros now);
// When spend recorded in the bucket starting at `bucketStart` stops counting.
Micros bucketExpiry(WindowType type, Micros bucketStart);

}  // namespace aev::spend
