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
  char buf[96];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%06ldZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, frac);
  return buf;
}

std::optional<Micros> parseRfc3339(const std::string& text) {
  if (text.size() < 10 || text.size() > 40) return std::nullopt;
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
