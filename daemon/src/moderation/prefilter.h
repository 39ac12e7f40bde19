#pragma once
// One RE2::Set over the regex and keyword rules of a target: a single pass over a string
// says which of those rules can match it at all, so an event that matches none (the
// usual case) costs one search per string instead of one per rule. Built with the rule
// set (once per rule change); the rules themselves still find the matches to redact.
#include <re2/set.h>

#include <memory>
#include <string_view>
#include <vector>

#include "moderation/compiled_rule.h"

namespace aev::moderation {

// The set's budget: beyond it (or when RE2 cannot build it) there is no prefilter and
// every rule scans on its own, as without one.
inline constexpr std::int64_t kPrefilterMaxMem = 16 << 20;

class Prefilter {
 public:
  // Null when none of the rules is a regex or keyword rule, or the set does not compile.
  static std::shared_ptr<const Prefilter> build(const std::vector<std::shared_ptr<const CompiledRule>>& rules);

  // The set member of the rule at `position` in the list it was built from, or -1.
  int memberOf(std::size_t position) const { return position < members_.size() ? members_[position] : -1; }
  std::size_t size() const { return size_; }
  // possible[k] = 1 when member k matches somewhere in text. False when the set ran out
  // of memory on this text: the caller must then treat every member as possible.
  bool match(std::string_view text, std::vector<char>& possible) const;

 private:
  Prefilter() : set_(options(), re2::RE2::UNANCHORED) {}
  static re2::RE2::Options options();

  re2::RE2::Set set_;
  std::vector<int> members_;
  std::size_t size_ = 0;
};

}  // namespace aev::moderation
