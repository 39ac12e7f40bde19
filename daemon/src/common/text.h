#pragma once
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aev {

// Number of UTF-8 code points (length limits in the spec count characters, not bytes).
inline std::size_t utf8Length(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// The value of one hexadecimal digit (either case), or -1 for any other character.
inline int hexDigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The whole of `text` as a decimal Int64 (an optional '-', digits): nothing when it is
// empty, has anything else (a '+', spaces, a trailing character) or is out of range.
inline std::optional<std::int64_t> parseInt64(std::string_view text) {
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// "a, b, c": the allowed values an error message names.
inline std::string joinWithCommas(const std::vector<std::string>& values) {
  std::string out;
  for (const auto& v : values) out += (out.empty() ? "" : ", ") + v;
  return out;
}

}  // namespace aev
