#include "common/clock.h"

#include <Poco/DateTimeFormat.h>
#include <Poco/DateTimeParser.h>
#include <Poco/Exception.h>
#include <Poco/Timestamp.h>

#include <chrono>
#include <cstdio>
#include <ctime>

namespace aev::clock {

Micros nowMicros() {
  using namespace std::chrono;
  return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count();
}

std::string toRfc3339(Micros micros) {
  std::time_t secs = static_cast<std::time_t>(micros / kSecond);
  long frac = static_cast<long>(micros % kSecond);
  if (frac < 0) {
    frac += kSecond;
    secs -= 1;
  }
  std::tm tm{};
  gmtime_r(&secs, &tm);
  const int year = tm.tm_year + 1900;
  if (year < 0 || year > 9999) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%06ldZ", year, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                  tm.tm_min, tm.tm_sec, frac);
    return buf;
  }
  // Every stored event is serialized with two of these: written digit by digit, not
  // through snprintf's format parsing.
  std::string out = "0000-00-00T00:00:00.000000Z";
  auto put = [&out](std::size_t end, long value, int width) {
    for (int i = 0; i < width; ++i, value /= 10) out[end - static_cast<std::size_t>(i)] = static_cast<char>('0' + value % 10);
  };
  put(3, year, 4);
  put(6, tm.tm_mon + 1, 2);
  put(9, tm.tm_mday, 2);
  put(12, tm.tm_hour, 2);
  put(15, tm.tm_min, 2);
  put(18, tm.tm_sec, 2);
  put(25, frac, 6);
  return out;
}

namespace {
// YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM): Poco's parser alone is lenient enough to
// read "yesterday" as year 0.
bool isRfc3339Shape(const std::string& t) {
  auto digits = [&](std::size_t pos, std::size_t n) {
    if (pos + n > t.size()) return false;
    for (std::size_t i = pos; i < pos + n; ++i)
      if (t[i] < '0' || t[i] > '9') return false;
    return true;
  };
  if (!(digits(0, 4) && t.size() > 19 && t[4] == '-' && digits(5, 2) && t[7] == '-' && digits(8, 2) &&
        (t[10] == 'T' || t[10] == 't' || t[10] == ' ') && digits(11, 2) && t[13] == ':' && digits(14, 2) &&
        t[16] == ':' && digits(17, 2)))
    return false;
  std::size_t pos = 19;
  if (t[pos] == '.') {
    std::size_t start = ++pos;
    while (pos < t.size() && t[pos] >= '0' && t[pos] <= '9') ++pos;
    if (pos == start || pos - start > 9) return false;
  }
  if (pos < t.size() && (t[pos] == 'Z' || t[pos] == 'z')) return pos + 1 == t.size();
  return pos + 6 == t.size() && (t[pos] == '+' || t[pos] == '-') && digits(pos + 1, 2) && t[pos + 3] == ':' &&
         digits(pos + 4, 2);
}
}  // namespace

std::optional<Micros> parseRfc3339(const std::string& text) {
  if (text.size() < 20 || text.size() > 40 || !isRfc3339Shape(text)) return std::nullopt;
  try {
    int tzd = 0;
    Poco::DateTime dt;
    if (!Poco::DateTimeParser::tryParse(Poco::DateTimeFormat::ISO8601_FRAC_FORMAT, text, dt, tzd) &&
        !Poco::DateTimeParser::tryParse(Poco::DateTimeFormat::ISO8601_FORMAT, text, dt, tzd))
      return std::nullopt;
    dt.makeUTC(tzd);
    return static_cast<Micros>(dt.timestamp().epochMicroseconds());
  } catch (const Poco::Exception&) {
    return std::nullopt;
  }
}

}  // namespace aev::clock
