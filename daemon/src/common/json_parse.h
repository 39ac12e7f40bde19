#pragma once
// A strict RFC 8259 parser that builds the same Poco::JSON values as Poco::JSON::Parser
// with its default handler (objects with sorted keys, the last of duplicate keys wins;
// integers as Int64, or UInt64 above its range; other numbers as double; strings as
// std::string; null as an empty Var), in well under half of its time: request bodies are
// parsed on every publish, and Poco's tokenizer and handler copy each value twice more.
//
// What it refuses: anything but one JSON value with optional whitespace (space, tab,
// CR, LF) around it; malformed UTF-8 (overlong forms, surrogates, above U+10FFFF);
// unescaped control characters in strings; unpaired \u surrogates; \u0000 (a NUL that no
// PostgreSQL text or jsonb value can hold: refused for every store alike); numbers that
// are not finite doubles; nesting deeper than maxDepth arrays and objects. Unlike Poco's,
// it also takes a scalar at the top level and integers beyond 64 bits become doubles
// rather than wrapping.
#include <Poco/Dynamic/Var.h>

#include <cstddef>
#include <stdexcept>
#include <string_view>

namespace aev {

class JsonSyntaxError : public std::runtime_error {
 public:
  JsonSyntaxError(const std::string& what, std::size_t offset) : std::runtime_error(what), offset_(offset) {}
  std::size_t offset() const { return offset_; }  // byte where the text stopped being JSON

 private:
  std::size_t offset_;
};

Poco::Dynamic::Var parseJson(std::string_view text, int maxDepth = 64);

}  // namespace aev
