#pragma once
// Time is stored as microseconds since the Unix epoch (BIGINT in both dialects, so the
// same SQL sorts and buckets it) and shown as RFC 3339 UTC with microseconds.
#include <cstdint>
#include <optional>
#include <string>

namespace aev::clock {

using Micros = std::int64_t;

Micros nowMicros();
std::string toRfc3339(Micros micros);
// Accepts RFC 3339 / ISO 8601 with a zone; std::nullopt when it does not parse.
std::optional<Micros> parseRfc3339(const std::string& text);

constexpr Micros kSecond = 1'000'000;
constexpr Micros kMinute = 60 * kSecond;
constexpr Micros kHour = 60 * kMinute;
constexpr Micros kDay = 24 * kHour;

}  // namespace aev::clock
