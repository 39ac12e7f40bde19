#include "spend/window.h"

#include <ctime>

namespace aev::spend {

namespace {

Micros floorTo(Micros t, Micros unit) { return t - (t % unit + unit) % unit; }

Micros startOfMonth(Micros t, int addMonths) {
  std::time_t secs = static_cast<std::time_t>(floorTo(t, clock::kSecond) / clock::kSecond);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  tm.tm_mday = 1;
  tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
  tm.tm_mon += addMonths;  // timegm normalises month 12 into the next year
  return static_cast<Micros>(timegm(&tm)) * clock::kSecond;
}

Micros startOfWeek(Micros t) {
  const Micros day = floorTo(t, clock::kDay);
  const Micros days = day / clock::kDay;
  const Micros sinceMonday = ((days + 3) % 7 + 7) % 7;  // 1970-01-01 was a Thursday
  return day - sinceMonday * clock::kDay;
}

}  // namespace

const std::vector<std::string>& windowTypeNames() {
  static const std::vector<std::string> names = {"hour", "day", "week", "month", "rolling_24h"};
  return names;
}

std::optional<WindowType> windowTypeOf(const std::string& name) {
  if (name == "hour") return WindowType::Hour;
  if (name == "day") return WindowType::Day;
  if (name == "week") return WindowType::Week;
  if (name == "month") return WindowType::Month;
  if (name == "rolling_24h") return WindowType::Rolling24h;
  return std::nullopt;
}

Window windowAt(WindowType type, Micros now) {
  switch (type) {
    case WindowType::Hour: {
      const auto start = floorTo(now, clock::kHour);
      return {start, start + clock::kHour};
    }
    case WindowType::Day: {
      const auto start = floorTo(now, clock::kDay);
      return {start, start + clock::kDay};
    }
    case WindowType::Week: {
      const auto start = startOfWeek(now);
      return {start, start + 7 * clock::kDay};
    }
    case WindowType::Month: return {startOfMonth(now, 0), startOfMonth(now, 1)};
    case WindowType::Rolling24h:
      return {floorTo(now, clock::kMinute) - clock::kDay + clock::kMinute, std::nullopt};
  }
  return {now, std::nullopt};
}

Micros bucketOf(WindowType type, Micros t) {
  return type == WindowType::Rolling24h ? floorTo(t, clock::kMinute) : windowAt(type, t).start;
}

Micros crossingWindowOf(WindowType type, Micros now) {
  return type == WindowType::Rolling24h ? floorTo(now, clock::kDay) : windowAt(type, now).start;
}

Micros bucketExpiry(WindowType type, Micros bucketStart) {
  if (type == WindowType::Rolling24h) return bucketStart + clock::kDay;
  return *windowAt(type, bucketStart).end;
}

}  // namespace aev::spend
