#pragma once
#include <cstddef>
#include <string>

namespace aev {

// Number of UTF-8 code points (length limits in the spec count characters, not bytes).
inline std::size_t utf8Length(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

}  // namespace aev
