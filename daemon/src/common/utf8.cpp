#include "common/utf8.h"

namespace aev {

namespace {

// Bytes of the maximal ill-formed subpart at s[i] (at least 1): the lead byte and the
// continuation bytes that could still have begun a well-formed sequence.
std::size_t illFormedSubpartAt(std::string_view s, std::size_t i) {
  const auto lead = static_cast<unsigned char>(s[i]);
  std::size_t extra;
  unsigned char low = 0x80, high = 0xBF;  // allowed range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    extra = 1;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    extra = 2;
    if (lead == 0xE0) low = 0xA0;   // overlong
    if (lead == 0xED) high = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    extra = 3;
    if (lead == 0xF0) low = 0x90;   // overlong
    if (lead == 0xF4) high = 0x8F;  // above U+10FFFF
  } else {
    return 1;  // a continuation byte, C0, C1 or F5..FF: never part of a sequence
  }
  std::size_t n = 1;
  for (; n <= extra && i + n < s.size(); ++n) {
    const auto c = static_cast<unsigned char>(s[i + n]);
    const bool ok = n == 1 ? (c >= low && c <= high) : (c & 0xC0) == 0x80;
    if (!ok) break;
  }
  return n;
}

}  // namespace

std::size_t validUtf8SequenceAt(std::string_view s, std::size_t i) {
  const auto lead = static_cast<unsigned char>(s[i]);
  if (lead < 0x80) return 1;
  const std::size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
  const std::size_t got = illFormedSubpartAt(s, i);
  // The subpart walk stops at the first byte that cannot continue; it covers the whole
  // sequence exactly when the sequence is well formed.
  return lead >= 0xC2 && lead <= 0xF4 && got == need ? need : 0;
}

bool isValidUtf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    const auto n = validUtf8SequenceAt(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

void appendValidUtf8(std::string& out, std::string_view s) {
  std::size_t plain = 0;  // start of the run of well-formed bytes not yet appended
  std::size_t i = 0;
  while (i < s.size()) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    if (const auto n = validUtf8SequenceAt(s, i); n != 0) {
      i += n;
      continue;
    }
    out.append(s, plain, i - plain);
    out += kReplacementCharacter;
    i += illFormedSubpartAt(s, i);
    plain = i;
  }
  out.append(s, plain, s.size() - plain);
}

std::string validUtf8(std::string s) {
  if (isValidUtf8(s)) return s;
  std::string out;
  out.reserve(s.size() + 8);
  appendValidUtf8(out, s);
  return out;
}

}  // namespace aev
