#include "moderation/evaluator.h"

#include <Poco/JSON/Array.h>

#include <chrono>
#include <optional>
#include <unordered_map>

#include "moderation/redaction.h"

namespace aev::moderation {

namespace {

void setString(JsonSlot& slot, const std::string& text) {
  slot.value = text;
  slot.replace(slot.value);
}

// What scanning a view's strings has found so far, shared by its rules until a redaction
// changes the text: per string, which prefilter members can match, and the findings of
// each plugin detector (rules with the same detector find the same ranges).
class ScanState {
 public:
  explicit ScanState(const Prefilter* prefilter) : prefilter_(prefilter) {}
  void reset(std::size_t strings) {
    possible_.assign(strings, std::nullopt);
    plugins_.clear();
  }

  // False when the prefilter rules out `member` (-1: not in it) for string i.
  bool mayMatch(int member, std::size_t i, std::string_view text) {
    if (!prefilter_ || member < 0) return true;
    auto& possible = possible_[i];
    if (!possible) {
      possible.emplace();
      if (!prefilter_->match(text, *possible)) possible->assign(prefilter_->size(), 1);
    }
    return (*possible)[static_cast<std::size_t>(member)] != 0;
  }

  struct Found {
    std::vector<Range> ranges;
    double ms = 0;  // what the detector call took
  };
  // The plugin detector's findings in string i, scanning only the first time.
  const Found& plugin(const CompiledRule& rule, std::size_t i, const JsonSlot& slot, const std::string& eventType) {
    auto& perString = plugins_[rule.pluginKey()];
    perString.resize(possible_.size());
    auto& found = perString[i];
    if (!found) {
      const auto started = std::chrono::steady_clock::now();
      found.emplace();
      found->ranges = rule.scan(slot.value.extract<std::string>(), slot.path, eventType);
      found->ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    }
    return *found;
  }

 private:
  const Prefilter* prefilter_;
  std::vector<std::optional<std::vector<char>>> possible_;
  std::unordered_map<std::string, std::vector<std::optional<Found>>> plugins_;
};

// Scans each string of the view with a regex, keyword or plugin detector. A plugin
// detector's cost is credited to every rule that uses its findings.
void scanTexts(const CompiledRule& rule, int member, TargetView& view, ScanState& state, bool redactNow, RuleMatch& m) {
  auto& texts = view.texts();
  for (std::size_t i = 0; i < texts.size(); ++i) {
    auto& slot = texts[i];
    const auto& text = slot.value.extract<std::string>();
    if (!state.mayMatch(member, i, text)) continue;
    std::vector<Range> ranges;
    if (rule.usesPlugin()) {
      const auto& found = state.plugin(rule, i, slot, view.event().eventType);
      for (const auto& r : found.ranges)
        if (rule.counts(r.score)) ranges.push_back(r);  // the rule's minScore
      m.latencyMs += found.ms;
    } else {
      ranges = rule.scan(text, slot.path, view.event().eventType);
    }
    if (ranges.empty()) continue;
    m.matchCount += ranges.size();
    for (const auto& r : ranges)
      if (m.details.size() < kMaxMatchDetails) m.details.push_back({rule.rule().detector, r.label, r.score});
    m.fields.push_back(slot.path);
    if (redactNow) setString(slot, redact(text, std::move(ranges), redactionMarker(rule.rule().detector)));
  }
}

void matchToolName(const CompiledRule& rule, TargetView& view, bool redactNow, RuleMatch& m) {
  const auto& name = view.toolName();
  if (!name || *name != rule.rule().pattern.value_or("")) return;
  m.matchCount = 1;
  m.details.push_back({rule.rule().detector, "", 1.0});
  const auto marker = redactionMarker(rule.rule().detector);
  for (auto& slot : view.toolNameSlots()) {
    if (!slot.value.isString() || slot.value.extract<std::string>() != *name) continue;
    m.fields.push_back(slot.path);
    if (redactNow) setString(slot, marker);
  }
}

void matchToolArg(const CompiledRule& rule, TargetView& view, bool redactNow, RuleMatch& m) {
  auto hits = rule.toolArg()->evaluate(view.toolCall());
  if (hits.empty()) return;
  const auto marker = redactionMarker(rule.rule().detector);
  for (auto& hit : hits) {
    m.matchCount += hit.ranges.empty() ? 1 : hit.ranges.size();
    if (m.details.size() < kMaxMatchDetails) m.details.push_back({rule.rule().detector, "", 1.0});
    m.fields.push_back(hit.slot.path);
    if (!redactNow) continue;
    if (hit.ranges.empty() || !hit.slot.value.isString())
      setString(hit.slot, marker);
    else
      setString(hit.slot, redact(hit.slot.value.extract<std::string>(), std::move(hit.ranges), marker));
  }
  if (redactNow) view.sync();
}

Poco::JSON::Object::Ptr entryOf(const RuleMatch& m) {
  Poco::JSON::Object::Ptr entry = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  entry->set("ruleId", std::to_string(m.ruleId));
  entry->set("ruleName", m.ruleName);
  entry->set("detector", m.detector);
  entry->set("action", nameOf(m.action));
  entry->set("target", nameOf(m.target));
  entry->set("matchCount", static_cast<Poco::UInt64>(m.matchCount));
  Poco::JSON::Array::Ptr fields = new Poco::JSON::Array;
  for (const auto& f : m.fields) fields->add(f);
  entry->set("fields", fields);
  return entry;
}

}  // namespace

Poco::JSON::Array::Ptr matchDetailsJson(const std::vector<MatchDetail>& details) {
  Poco::JSON::Array::Ptr out = new Poco::JSON::Array;
  for (const auto& d : details) {
    Poco::JSON::Object::Ptr item = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
    item->set("detector", d.detector);
    item->set("label", d.label);
    item->set("score", d.score);
    out->add(item);
  }
  return out;
}

Verdict evaluate(const RuleSet& rules, EventDocument& event) {
  Verdict verdict;
  auto views = viewsOf(event);
  for (const auto& view : views) verdict.targets.push_back(view.target());
  bool first = true;
  for (auto& view : views) {
    if (!first) view.refresh();  // an earlier view may have redacted shared text
    first = false;
    const auto& list = rules.of(view.target());
    const auto* prefilter = rules.prefilterOf(view.target());
    ScanState state(prefilter);
    state.reset(view.texts().size());
    for (std::size_t position = 0; position < list.size(); ++position) {
      const auto& compiled = list[position];
      const auto& rule = compiled->rule();
      const bool redactNow = rule.action == Action::Redact;
      RuleMatch m;
      const auto started = std::chrono::steady_clock::now();
      if (compiled->scansText())
        scanTexts(*compiled, prefilter ? prefilter->memberOf(position) : -1, view, state, redactNow, m);
      else if (rule.detector == kToolName)
        matchToolName(*compiled, view, redactNow, m);
      else if (compiled->toolArg())
        matchToolArg(*compiled, view, redactNow, m);
      if (m.matchCount == 0) continue;
      m.latencyMs += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
      m.ruleId = rule.id;
      m.ruleName = rule.name;
      m.detector = rule.detector;
      m.action = rule.action;
      m.target = view.target();
      verdict.matches.push_back(std::move(m));
      if (rule.action == Action::Block) {
        verdict.blockedBy = verdict.matches.size() - 1;
        return verdict;
      }
      if (rule.action == Action::Allow) break;
      if (rule.action == Action::Flag) verdict.flagged = true;
      if (rule.action == Action::Redact) {
        verdict.redacted = true;
        view.refresh();
        state.reset(view.texts().size());  // the text changed: scan it again
      }
    }
  }
  return verdict;
}

void annotate(const Verdict& verdict, EventDocument& event) {
  if (!verdict.flagged && !verdict.redacted) return;
  Poco::JSON::Array::Ptr flags = new Poco::JSON::Array;
  Poco::JSON::Array::Ptr redactions = new Poco::JSON::Array;
  for (const auto& m : verdict.matches) {
    if (m.action == Action::Flag) flags->add(entryOf(m));
    if (m.action == Action::Redact) redactions->add(entryOf(m));
  }
  Poco::JSON::Object::Ptr moderation = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  moderation->set("flags", flags);
  moderation->set("redactions", redactions);
  if (!event.metadata) event.metadata = new Poco::JSON::Object;
  event.metadata->set("moderation", moderation);
}

}  // namespace aev::moderation
