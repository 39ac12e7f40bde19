// prompt_injection: heuristics for text that tries to take over an agent: overriding
// earlier instructions, jailbreak personas, asking for the system prompt, switching off
// safety rules, and chat-template control tokens smuggled into content.
//
// Text is split into lowercase ASCII word tokens (with byte offsets); each phrase is a
// sequence of slots, a slot a set of alternatives (one or more words), optionally
// skippable. Phrases must be contiguous, so "ignore the noise in the previous chapter"
// does not match "ignore ... previous instructions". Work per token is bounded by the
// phrase table, so a scan is linear in the text.
#include <string>

#include "detectors.h"
#include "text_scan.h"

namespace builtin {

namespace {

struct Token {
  std::size_t start, end;
  std::string word;
};

std::vector<Token> tokenize(std::string_view s) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < s.size()) {
    if (!isAlnum(s[i])) {
      ++i;
      continue;
    }
    std::size_t start = i;
    std::string w;
    while (i < s.size() && (isAlnum(s[i]) || (s[i] == '\'' && isAlpha(at(s, i + 1))))) w += toLower(s[i++]);
    out.push_back({start, i, std::move(w)});
  }
  return out;
}

// A phrase as text: slots separated by spaces, alternatives by '|', words of a
// multi-word alternative by '+', and a trailing '?' marks an optional slot.
struct Slot {
  std::vector<std::vector<std::string>> alternatives;
  bool optional = false;
};

struct Phrase {
  const char* label;
  double weight;
  std::vector<Slot> slots;
};

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      if (i > start) out.emplace_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

Phrase compile(const char* label, double weight, std::string_view pattern) {
  Phrase p{label, weight, {}};
  for (auto& slotText : split(pattern, ' ')) {
    Slot slot;
    if (slotText.back() == '?') {
      slot.optional = true;
      slotText.pop_back();
    }
    for (const auto& alt : split(slotText, '|')) slot.alternatives.push_back(split(alt, '+'));
    p.slots.push_back(std::move(slot));
  }
  return p;
}

const std::vector<Phrase>& phrases() {
  static const std::vector<Phrase> table = [] {
    const std::string override = "ignore|disregard|forget|skip|bypass|override|discard|drop";
    const std::string earlier = "previous|prior|above|earlier|preceding|former|initial|original|system|developer|old";
    const std::string instructions =
        "instructions|instruction|prompts|prompt|rules|directions|directives|guidelines|messages|context|orders|"
        "commands|programming";
    std::vector<Phrase> t;
    t.push_back(compile("instruction_override", 0.9,
                        override + " all|any|every? of? the|your|my|these|those? " + earlier + " " + instructions));
    t.push_back(compile("instruction_override", 0.75,
                        "forget|disregard|ignore everything|anything you+were+told|above|before|i+said|so+far"));
    t.push_back(compile("instruction_override", 0.6,
                        "new|updated|real|actual instructions|directives are|follow"));
    t.push_back(compile("persona_jailbreak", 0.85,
                        "you+are|you're|you+will+be|you+must+be now? a|an|in|the? "
                        "dan|jailbroken|unrestricted|unfiltered|uncensored|evil|rogue|amoral"));
    t.push_back(compile("persona_jailbreak", 0.85, "do anything now"));
    t.push_back(compile("persona_jailbreak", 0.8,
                        "enable|enter|activate|switch+to|turn+on developer|dan|god|jailbreak|unrestricted mode"));
    t.push_back(compile("persona_jailbreak", 0.8,
                        "pretend|act|imagine|behave as|like|that? if? you are|have|were? "
                        "no|without|free+of|not+bound+by any? restrictions|rules|limits|limitations|guidelines|"
                        "filters|boundaries|policies|constraints"));
    t.push_back(compile("prompt_leak", 0.85,
                        "reveal|show|print|display|output|repeat|leak|dump|tell+me|give+me|share|write+out me? "
                        "your|the full|entire|complete|original|hidden|secret|initial|exact? "
                        "system|hidden|initial|original|developer|secret prompt|prompts|instructions|message"));
    t.push_back(compile("prompt_leak", 0.7,
                        "what is|are|was|were your system|initial|original|hidden|secret prompt|instructions"));
    t.push_back(compile("safety_bypass", 0.85,
                        "override|bypass|disable|ignore|circumvent|turn+off|deactivate your|the|all|any? "
                        "safety|content|security|moderation|ethical|ethics filters|filter|guidelines|policies|"
                        "policy|restrictions|rules|settings|protocols|guardrails"));
    return t;
  }();
  return table;
}

// Chat-template control tokens have no business inside user or tool content.
constexpr std::string_view kMarkers[] = {"<|im_start|>", "<|im_end|>", "<|system|>", "<|endoftext|>",
                                         "[inst]",        "<<sys>>",    "### system:", "### instruction:"};

// Matches slots[k..] at token t; returns the index one past the last token, or 0.
std::size_t matchFrom(const std::vector<Token>& tokens, std::size_t t, const std::vector<Slot>& slots, std::size_t k) {
  if (k == slots.size()) return t;
  const Slot& slot = slots[k];
  for (const auto& alt : slot.alternatives) {
    if (t + alt.size() > tokens.size()) continue;
    bool ok = true;
    for (std::size_t w = 0; w < alt.size() && ok; ++w) ok = tokens[t + w].word == alt[w];
    if (!ok) continue;
    if (std::size_t end = matchFrom(tokens, t + alt.size(), slots, k + 1)) return end;
  }
  if (slot.optional) return matchFrom(tokens, t, slots, k + 1);
  return 0;
}

}  // namespace

// Default minScore 0.65: the weakest phrase ("new instructions are", 0.6) is reported only
// when a rule asks for it with a lower minScore.
PromptInjectionDetector::PromptInjectionDetector(const aev::Host&, std::string_view config)
    : minScore_(readMinScore(config, 0.65)) {}

std::vector<aev::Match> PromptInjectionDetector::scan(const aev::ScanInput& in) const {
  std::vector<aev::Match> out;
  std::string_view s = in.text;
  auto tokens = tokenize(s);
  std::size_t t = 0;
  while (t < tokens.size()) {
    std::size_t best = 0;
    const Phrase* found = nullptr;
    for (const auto& p : phrases()) {
      if (p.weight < minScore_) continue;
      std::size_t end = matchFrom(tokens, t, p.slots, 0);
      if (end > t && (!found || p.weight > found->weight || (p.weight == found->weight && end > best))) {
        best = end;
        found = &p;
      }
    }
    if (found) {
      out.push_back({tokens[t].start, tokens[best - 1].end, found->weight, found->label});
      t = best;
    } else {
      ++t;
    }
  }
  constexpr double markerWeight = 0.7;
  if (markerWeight >= minScore_) {
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] != '<' && s[i] != '[' && s[i] != '#') continue;
      for (auto m : kMarkers) {
        if (startsWithNoCase(s, i, m)) {
          out.push_back({i, i + m.size(), markerWeight, "chat_template_token"});
          i += m.size() - 1;
          break;
        }
      }
    }
  }
  return out;
}

}  // namespace builtin
