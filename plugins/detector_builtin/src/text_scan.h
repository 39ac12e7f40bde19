// Byte-level helpers shared by the built-in detectors. Every detector scans in linear
// time (no backtracking regex engine), so hostile text cannot make a scan slow.
#pragma once

#include <cstddef>
#include <string_view>

namespace builtin {

inline bool isDigit(char c) { return c >= '0' && c <= '9'; }
inline bool isUpper(char c) { return c >= 'A' && c <= 'Z'; }
inline bool isLower(char c) { return c >= 'a' && c <= 'z'; }
inline bool isAlpha(char c) { return isUpper(c) || isLower(c); }
inline bool isAlnum(char c) { return isAlpha(c) || isDigit(c); }
inline char toLower(char c) { return isUpper(c) ? static_cast<char>(c - 'A' + 'a') : c; }

inline char at(std::string_view s, std::size_t i) { return i < s.size() ? s[i] : '\0'; }
// The byte before i, or '\0' at the start.
inline char before(std::string_view s, std::size_t i) { return i > 0 && i <= s.size() ? s[i - 1] : '\0'; }

// Case-insensitive ASCII comparison of s at position i with word.
inline bool startsWithNoCase(std::string_view s, std::size_t i, std::string_view word) {
  if (i > s.size() || s.size() - i < word.size()) return false;
  for (std::size_t k = 0; k < word.size(); ++k)
    if (toLower(s[i + k]) != toLower(word[k])) return false;
  return true;
}

// Luhn checksum over the digits of s (other bytes ignored).
inline bool luhnValid(std::string_view digits) {
  int sum = 0;
  bool dbl = false;
  for (std::size_t i = digits.size(); i-- > 0;) {
    int d = digits[i] - '0';
    if (d < 0 || d > 9) return false;
    if (dbl) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    dbl = !dbl;
  }
  return !digits.empty() && sum % 10 == 0;
}

}  // namespace builtin
