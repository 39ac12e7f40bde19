#pragma once
// Checks shared by the fuzz targets. A failed check aborts, which libFuzzer reports as a
// crash with the input that caused it.
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "otlp/trace_model.h"

namespace aev::fuzz {

// Several strings from one input: the parts between NUL bytes (always at least one).
inline std::vector<std::string> nulSeparatedFields(const std::string& input) {
  std::vector<std::string> out;
  std::size_t from = 0;
  for (;;) {
    auto nul = input.find('\0', from);
    out.push_back(input.substr(from, nul - from));
    if (nul == std::string::npos) return out;
    from = nul + 1;
  }
}

// RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF.
inline bool validUtf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    unsigned cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    }
    if ((c & 0xE0) == 0xC0)
      n = 1, cp = c & 0x1F;
    else if ((c & 0xF0) == 0xE0)
      n = 2, cp = c & 0x0F;
    else if ((c & 0xF8) == 0xF0)
      n = 3, cp = c & 0x07;
    else
      return false;
    if (i + n >= s.size()) return false;  // truncated sequence
    for (std::size_t k = 1; k <= n; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000)) return false;
    if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return false;
    i += n + 1;
  }
  return true;
}

inline void require(bool condition) {
  if (!condition) std::abort();
}

inline void checkAnyValue(const otlp::AnyValue& v);

inline void checkKeyValues(const std::vector<otlp::KeyValue>& kvs) {
  for (const auto& kv : kvs) {
    require(validUtf8(kv.key));
    checkAnyValue(kv.value);
  }
}

inline void checkAnyValue(const otlp::AnyValue& v) {
  if (v.kind == otlp::AnyValue::Kind::String) require(validUtf8(v.text));
  for (const auto& e : v.array) checkAnyValue(e);
  checkKeyValues(v.kvlist);
}

inline void checkTraceRequest(const otlp::TraceRequest& r) {
  std::size_t spans = 0;
  for (const auto& rs : r.resourceSpans) {
    checkKeyValues(rs.resourceAttributes);
    for (const auto& ss : rs.scopeSpans) {
      require(validUtf8(ss.scopeName) && validUtf8(ss.scopeVersion));
      for (const auto& s : ss.spans) {
        require(validUtf8(s.name) && validUtf8(s.statusMessage) && validUtf8(s.traceState));
        checkKeyValues(s.attributes);
        for (const auto& e : s.events) {
          require(validUtf8(e.name));
          checkKeyValues(e.attributes);
        }
        ++spans;
      }
    }
  }
  require(spans == r.spanCount());
}

}  // namespace aev::fuzz
