#include "time_and_ids.h"

#include <chrono>

namespace otlp {

namespace {

bool digits(std::string_view s, std::size_t pos, std::size_t n, int& out) {
  if (pos + n > s.size()) return false;
  out = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    out = out * 10 + (s[i] - '0');
  }
  return true;
}

// Days since 1970-01-01 of a civil date (H. Hinnant's algorithm).
std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::uint64_t fnv1a(std::string_view s, std::uint64_t seed) {
  std::uint64_t h = seed;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace

std::optional<std::uint64_t> parseRfc3339(std::string_view s) {
  int y, mo, d, h, mi, sec;
  if (!digits(s, 0, 4, y) || s.size() < 19 || s[4] != '-' || !digits(s, 5, 2, mo) || s[7] != '-' ||
      !digits(s, 8, 2, d) || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') || !digits(s, 11, 2, h) || s[13] != ':' ||
      !digits(s, 14, 2, mi) || s[16] != ':' || !digits(s, 17, 2, sec))
    return std::nullopt;
  if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60) return std::nullopt;
  std::size_t pos = 19;
  std::uint64_t nanos = 0;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    std::uint64_t scale = 100000000;
    std::size_t start = pos;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      nanos += static_cast<std::uint64_t>(s[pos] - '0') * scale;
      scale /= 10;
      ++pos;
    }
    if (pos == start) return std::nullopt;
  }
  std::int64_t offset = 0;
  if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    int oh, om;
    if (!digits(s, pos + 1, 2, oh) || pos + 3 >= s.size() || s[pos + 3] != ':' || !digits(s, pos + 4, 2, om)) return std::nullopt;
    offset = (s[pos] == '-' ? -1 : 1) * (oh * 3600 + om * 60);
    pos += 6;
  } else {
    return std::nullopt;
  }
  if (pos != s.size()) return std::nullopt;
  std::int64_t seconds = daysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d)) * 86400 + h * 3600 +
                         mi * 60 + sec - offset;
  if (seconds < 0) return std::nullopt;
  return static_cast<std::uint64_t>(seconds) * 1000000000ull + nanos;
}

std::string idBytes(std::string_view text, std::size_t bytes) {
  std::string out;
  if (text.size() == bytes * 2) {
    bool hex = true;
    for (std::size_t i = 0; i < bytes && hex; ++i) {
      int hi = hexValue(text[2 * i]), lo = hexValue(text[2 * i + 1]);
      if (hi < 0 || lo < 0) hex = false;
      else out.push_back(static_cast<char>(hi * 16 + lo));
    }
    if (hex && out.find_first_not_of('\0') != std::string::npos) return out;
  }
  out.clear();
  for (std::uint64_t seed = 14695981039346656037ull; out.size() < bytes; seed += 0x9e3779b97f4a7c15ull) {
    std::uint64_t h = fnv1a(text, seed);
    for (int k = 0; k < 8 && out.size() < bytes; ++k) out.push_back(static_cast<char>((h >> (8 * k)) & 0xff));
  }
  if (out.find_first_not_of('\0') == std::string::npos) out[0] = 1;
  return out;
}

std::string toHex(std::string_view raw) {
  static const char* digitsHex = "0123456789abcdef";
  std::string out;
  out.reserve(raw.size() * 2);
  for (unsigned char c : raw) {
    out.push_back(digitsHex[c >> 4]);
    out.push_back(digitsHex[c & 15]);
  }
  return out;
}

std::uint64_t nowUnixNano() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}

}  // namespace otlp
