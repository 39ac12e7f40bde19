#include "common/json_text.h"

#include "common/encoding.h"
#include "common/utf8.h"

namespace aev {

void appendJsonString(std::string& out, std::string_view s) {
  out += '"';
  std::size_t plain = 0;  // start of the run of bytes that need no escape
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const auto byte = static_cast<unsigned char>(c);
    if (c != '"' && c != '\\' && byte >= 0x20 && byte < 0x80) continue;
    if (byte >= 0x80) {
      // Well-formed UTF-8 passes as it is; ill-formed bytes become U+FFFD (common/utf8.h).
      if (const auto n = validUtf8SequenceAt(s, i); n != 0) {
        i += n - 1;
        continue;
      }
      out.append(s, plain, i - plain);
      std::size_t end = i + 1;
      while (end < s.size() && static_cast<unsigned char>(s[end]) >= 0x80 && validUtf8SequenceAt(s, end) == 0) ++end;
      appendValidUtf8(out, s.substr(i, end - i));
      plain = end;
      i = end - 1;
      continue;
    }
    out.append(s, plain, i - plain);
    plain = i + 1;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        out += "\\u00";
        out += kLowerHexDigits[(c >> 4) & 0xF];
        out += kLowerHexDigits[c & 0xF];
    }
  }
  out.append(s, plain, s.size() - plain);
  out += '"';
}

}  // namespace aev
