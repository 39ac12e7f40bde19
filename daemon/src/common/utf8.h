#pragma once
// UTF-8 well-formedness (RFC 3629: shortest form, no surrogates, nothing above U+10FFFF)
// and its repair. Every JSON text the daemon writes must be valid UTF-8 whatever bytes a
// client sent: the JSON writers pass strings through appendValidUtf8, which replaces each
// maximal ill-formed subpart with U+FFFD (the Unicode "substitution of maximal subparts"
// practice, what browsers' TextDecoder does), so a stray byte costs one replacement
// character and never the rest of the string.
#include <cstddef>
#include <string>
#include <string_view>

namespace aev {

// The length of the well-formed sequence that starts s[i] (1 for ASCII, 2-4 otherwise),
// or 0 when none does.
std::size_t validUtf8SequenceAt(std::string_view s, std::size_t i);

bool isValidUtf8(std::string_view s);

// Appends s with each maximal ill-formed subpart replaced by U+FFFD.
void appendValidUtf8(std::string& out, std::string_view s);
// s itself when it is valid (no copy), else its repaired copy.
std::string validUtf8(std::string s);

inline constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";  // U+FFFD

}  // namespace aev
