#pragma once
// Runs an organization's rules over one event (docs/features.md#moderation): per target, enabled rules
// in creation order; `allow` stops that target's evaluation, `block` stops everything,
// `redact` masks the matches in the event's trees at once (later rules see the masked
// text), `flag` is noted. Nothing here touches the store or logs the event's text.
#include <Poco/JSON/Array.h>

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "moderation/compiled_rule.h"
#include "moderation/event_view.h"
#include "moderation/prefilter.h"

namespace aev::moderation {

// The enabled rules of one organization by target, each list in creation order, and
// each list's prefilter (none until prepare(); evaluation is the same either way).
struct RuleSet {
  std::array<std::vector<std::shared_ptr<const CompiledRule>>, 3> byTarget;
  std::array<std::shared_ptr<const Prefilter>, 3> prefilters;
  const std::vector<std::shared_ptr<const CompiledRule>>& of(Target t) const {
    return byTarget[static_cast<std::size_t>(t)];
  }
  const Prefilter* prefilterOf(Target t) const { return prefilters[static_cast<std::size_t>(t)].get(); }
  bool empty() const { return byTarget[0].empty() && byTarget[1].empty() && byTarget[2].empty(); }
  // Builds the prefilters once the lists are complete.
  void prepare() {
    for (std::size_t t = 0; t < byTarget.size(); ++t) prefilters[t] = Prefilter::build(byTarget[t]);
  }
};

// One finding of a rule: which detector, what it found (a plugin's label; empty for
// regex and keyword) and how sure it is (a plugin's score; 1 otherwise).
struct MatchDetail {
  std::string detector;
  std::string label;
  double score = 1.0;
};
inline constexpr std::size_t kMaxMatchDetails = 50;  // per rule and event; matchCount counts them all

// One rule that matched one event. Never holds the matched text, only where it was.
struct RuleMatch {
  std::int64_t ruleId = 0;
  std::string ruleName;
  std::string detector;
  Action action = Action::Flag;
  Target target = Target::Request;
  std::size_t matchCount = 0;
  double latencyMs = 0;             // time the rule took on this event's text
  std::vector<std::string> fields;  // "payload.content", "metadata.gen_ai.prompt", "$.args.path"
  std::vector<MatchDetail> details;  // the first kMaxMatchDetails findings
};

struct Verdict {
  std::vector<Target> targets;           // the event's targets (event_view.h), evaluated in this order
  std::vector<RuleMatch> matches;        // in evaluation order
  std::optional<std::size_t> blockedBy;  // index into matches
  bool redacted = false;
  bool flagged = false;
  bool blocked() const { return blockedBy.has_value(); }
  const RuleMatch* blockingMatch() const { return blockedBy ? &matches[*blockedBy] : nullptr; }
};

Verdict evaluate(const RuleSet& rules, EventDocument& event);

// [{"detector": ..., "label": ..., "score": ...}, ...]: what violations and evaluate show.
Poco::JSON::Array::Ptr matchDetailsJson(const std::vector<MatchDetail>& details);

// Sets metadata.moderation = {flags: [...], redactions: [...]} (creating metadata when
// the event has none) when the verdict flagged or redacted anything; a publisher's own
// metadata.moderation is replaced then, so flags cannot be forged alongside real ones.
void annotate(const Verdict& verdict, EventDocument& event);

}  // namespace aev::moderation
