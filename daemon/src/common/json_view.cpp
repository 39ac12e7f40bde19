#include "common/json_view.h"

#include <charconv>
#include <limits>

#include "common/json_condense.h"
#include "common/json_lexer.h"

namespace aev {

// Reads the text into nodes, in document order (JsonGrammar's handler): a container's
// node comes before what it holds, and its `next` is set once they are read.
class JsonView::Builder {
 public:
  using Value = std::uint32_t;  // the node

  Builder(JsonView& view, JsonLexer& lex) : view_(view), lex_(lex) {}

  std::uint32_t string() {
    const auto i = open(Kind::String);
    JsonLexer::Discard discard;
    view_.nodes_[i].verbatim = lex_.string(discard);
    return close(i);
  }

  std::uint32_t literal(JsonLexer::Literal which) {
    const auto i = open(which == JsonLexer::Literal::True    ? Kind::True
                        : which == JsonLexer::Literal::False ? Kind::False
                                                             : Kind::Null);
    lex_.expectLiteral(which);
    return close(i);
  }

  std::uint32_t number() {
    const auto i = open(Kind::Number);
    const auto n = lex_.numberText();
    std::int64_t integer = 0;
    std::uint64_t magnitude = 0;
    if (JsonLexer::int64Value(n, integer))
      view_.nodes_[i].kind = Kind::Integer;
    else if (n.fractional || !JsonLexer::magnitude(n, magnitude))
      lex_.toDouble(n);  // refuses what a double cannot hold, as parseJson does
    return close(i);
  }

  std::uint32_t openObject() { return open(Kind::Object); }
  void key(std::uint32_t) { string(); }
  void member(std::uint32_t object, std::uint32_t) { ++view_.nodes_[object].count; }
  std::uint32_t closeObject(std::uint32_t object) { return close(object); }

  std::uint32_t openArray() { return open(Kind::Array); }
  void element(std::uint32_t array, std::uint32_t) { ++view_.nodes_[array].count; }
  std::uint32_t closeArray(std::uint32_t array) { return close(array); }

 private:
  std::uint32_t open(Kind kind) {
    view_.nodes_.push_back({kind, false, offset(), 0, 0, 0});
    return static_cast<std::uint32_t>(view_.nodes_.size() - 1);
  }
  std::uint32_t close(std::uint32_t i) {
    auto& n = view_.nodes_[i];
    n.end = offset();
    n.next = static_cast<std::uint32_t>(view_.nodes_.size());
    return i;
  }
  std::uint32_t offset() const { return static_cast<std::uint32_t>(lex_.offset()); }

  JsonView& view_;
  JsonLexer& lex_;
};

JsonView::JsonView(std::string_view text, int maxDepth) : text_(text), maxDepth_(maxDepth) {
  if (text.size() >= std::numeric_limits<std::uint32_t>::max())
    throw JsonSyntaxError("document too large", 0);  // offsets are 32-bit; bodies are far smaller
  nodes_.reserve(16 + text.size() / 16);
  JsonLexer lex(text);
  Builder builder(*this, lex);
  JsonGrammar<Builder>(lex, builder, maxDepth).document();
}

bool JsonView::keyEquals(std::uint32_t key, std::string_view name) const {
  return nodes_[key].verbatim ? verbatimString(key) == name : string(key) == name;
}

std::optional<std::uint32_t> JsonView::member(std::uint32_t object, std::string_view name) const {
  std::optional<std::uint32_t> found;
  for (auto k = firstChild(object); k != endOf(object); k = nextSibling(k + 1))
    if (keyEquals(k, name)) found = k + 1;
  return found;
}

std::string JsonView::string(std::uint32_t i) const {
  if (nodes_[i].verbatim) return std::string(verbatimString(i));
  std::string out;
  JsonLexer lex(text(i));
  lex.string(out);
  return out;
}

std::int64_t JsonView::int64(std::uint32_t i) const {
  const auto t = text(i);
  std::int64_t v = 0;
  std::from_chars(t.data(), t.data() + t.size(), v);
  return v;
}

Poco::Dynamic::Var JsonView::toVar(std::uint32_t i) const { return parseJson(text(i), maxDepth_); }

void JsonView::appendCondensed(std::string& out, std::uint32_t i) const {
  const Node& n = nodes_[i];
  switch (n.kind) {
    case Kind::Object: {
      // Members in key order, the last of duplicates kept: gathered on the scratch stack
      // (a nested object's above this one's), sorted stably, written.
      const std::size_t base = members_.size();
      for (auto k = firstChild(i); k != endOf(i); k = nextSibling(k + 1)) members_.push_back({string(k), k + 1});
      const auto first = members_.begin() + static_cast<std::ptrdiff_t>(base);
      sortMembersByKey(first, members_.end());
      out += '{';
      bool any = false;
      for (std::size_t m = base; m < members_.size(); ++m) {
        if (m + 1 < members_.size() && members_[m + 1].key == members_[m].key) continue;
        if (any) out += ',';
        any = true;
        appendPocoJsonString(out, members_[m].key);
        out += ':';
        appendCondensed(out, members_[m].value);  // may grow members_: index, not iterator
      }
      out += '}';
      members_.resize(base);
      return;
    }
    case Kind::Array: {
      out += '[';
      for (auto e = firstChild(i); e != endOf(i); e = nextSibling(e)) {
        if (e != firstChild(i)) out += ',';
        appendCondensed(out, e);
      }
      out += ']';
      return;
    }
    case Kind::String:
      if (n.verbatim) return appendPocoJsonString(out, verbatimString(i));
      return appendPocoJsonString(out, string(i));
    case Kind::Integer:
      out += std::to_string(int64(i));
      return;
    case Kind::True:
      out += "true";
      return;
    case Kind::False:
      out += "false";
      return;
    case Kind::Null:
      out += "null";
      return;
    case Kind::Number:
      return appendCondensedJson(out, toVar(i));  // doubles and UInt64s: Poco's own text
  }
}

}  // namespace aev
