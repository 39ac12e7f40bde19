#pragma once
// A validated JSON document as a flat index over its text: one vector of nodes, no value
// copied out, nothing allocated per value. It is read with the grammar of
// common/json_lexer.h, so it accepts and refuses exactly what parseJson does, with the
// same messages.
//
// Why: a publish reads a dozen fields of each event and stores its payload condensed.
// Building Poco objects for that (two std::deques and a map node per member, a heap
// holder per string) and freeing them again cost a third of a batch publish's CPU. The
// publish paths read events from this index instead, and hand anything unusual to
// parseJson for that value's text (toVar), so their answers stay those of the Poco path.
//
// Not thread-safe: condensing uses a scratch stack of the view's own.
#include <Poco/Dynamic/Var.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aev {

class JsonView {
 public:
  enum class Kind : std::uint8_t { Object, Array, String, Integer, Number, True, False, Null };
  // Integer: no fraction or exponent, and within Int64. Number: any other number.
  struct Node {
    Kind kind = Kind::Null;
    bool verbatim = false;    // a String whose text between the quotes is its value (no escapes)
    std::uint32_t begin = 0;  // the value's text, [begin, end); a String's with its quotes
    std::uint32_t end = 0;
    std::uint32_t next = 0;   // the node after this value and all it holds
    std::uint32_t count = 0;  // an Object's members, an Array's elements
  };
  static constexpr std::uint32_t kRoot = 0;

  // Throws JsonSyntaxError as parseJson(text, maxDepth) would. The text must outlive the view.
  explicit JsonView(std::string_view text, int maxDepth = 64);

  const Node& node(std::uint32_t i) const { return nodes_[i]; }
  Kind kind(std::uint32_t i) const { return nodes_[i].kind; }
  std::string_view text(std::uint32_t i) const {
    return text_.substr(nodes_[i].begin, nodes_[i].end - nodes_[i].begin);
  }

  // An Object's members: the key of member k is a String node, its value the node after it.
  // Iterate with firstChild / nextSibling: for (auto k = firstChild(o); k != endOf(o); k = nextSibling(value)).
  std::uint32_t firstChild(std::uint32_t container) const { return container + 1; }
  std::uint32_t endOf(std::uint32_t i) const { return nodes_[i].next; }
  std::uint32_t nextSibling(std::uint32_t i) const { return nodes_[i].next; }
  // The value of the last member named `name` (duplicates: the last wins, as in Poco).
  std::optional<std::uint32_t> member(std::uint32_t object, std::string_view name) const;

  // A String's value: its text between the quotes when verbatim, else decoded.
  std::string string(std::uint32_t i) const;
  std::string_view verbatimString(std::uint32_t i) const {  // only for verbatim Strings
    return text_.substr(nodes_[i].begin + 1, nodes_[i].end - nodes_[i].begin - 2);
  }
  std::int64_t int64(std::uint32_t i) const;  // only for Integers

  // The Poco value parseJson gives for this node's text.
  Poco::Dynamic::Var toVar(std::uint32_t i) const;
  // Appends exactly what appendCondensedJson(out, toVar(i)) would: members sorted by key,
  // the last of duplicates kept, strings escaped as Poco does.
  void appendCondensed(std::string& out, std::uint32_t i) const;

 private:
  class Builder;
  struct Member {
    std::string key;
    std::uint32_t value;
  };
  bool keyEquals(std::uint32_t key, std::string_view name) const;

  std::string_view text_;
  int maxDepth_;
  std::vector<Node> nodes_;
  mutable std::vector<Member> members_;  // appendCondensed's objects being written, innermost last
};

}  // namespace aev
