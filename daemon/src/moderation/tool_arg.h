#pragma once
// The `tool_arg` detector's pattern: a JSON-path style expression over a tool call,
// validated and compiled when the rule is created or changed.
//
//   expression := path [ ws* condition ]
//   path       := "$" step*  |  first step*          ("$." may be left out)
//   first      := key | "*"
//   step       := "." key | ".*" | "[" index "]" | "[*]" | "[" quoted "]"
//   key        := 1*( A-Z a-z 0-9 "_" "-" )
//   quoted     := a JSON string ("..."), for keys with other characters ("gen_ai.x")
//   condition  := "~" ws* "/" regex "/" [ "i" ]      RE2 syntax, "\/" for a slash; i = ignore case
//               | "=" ws* ( quoted | bare text )      equal to the value's text
//   (no condition: the path exists with a non-null value)
//
// "$" is the tool call {"tool": <tool name>, "args": <its arguments>}, so `$.args.path`,
// `args.path ~ /^\/etc\//`, `args.cmd = "rm -rf /"`, `args.*.url ~ /internal/i` and
// `$.tool = shell` are all expressions. `*` is any member of an object or element of an
// array. Numbers and booleans compare by their JSON text (`args.retries = 3`).
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "moderation/json_slot.h"
#include "moderation/pattern.h"

namespace aev::moderation {

inline constexpr std::size_t kMaxToolArgSteps = 32;

class ToolArgExpression {
 public:
  // The expression, or a message for the 422 saying where it went wrong.
  static std::variant<ToolArgExpression, std::string> parse(const std::string& text);

  // A value the expression selected and its condition accepted. `ranges` are the regex's
  // matches inside a string value; empty means the whole value matched.
  struct Hit {
    JsonSlot slot;
    std::vector<Range> ranges;
  };
  std::vector<Hit> evaluate(const JsonSlot& toolCall) const;

 private:
  struct Step {
    enum Kind { Key, Index, Any } kind = Key;
    std::string key;
    unsigned index = 0;
  };
  enum class Condition { Exists, Equals, Regex };

  std::vector<Step> steps_;
  Condition condition_ = Condition::Exists;
  std::string operand_;
  CompiledPattern regex_;
};

}  // namespace aev::moderation
