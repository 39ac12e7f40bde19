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
#include <unordered_map>

#include "detectors.h"
#include "text_scan.h"

namespace builtin {

namespace {

// Phrase words are interned to small integers once, so matching compares integers and
// tokens that cannot start a phrase are skipped at once.
struct Vocabulary {
  std::unordered_map<std::string, int> ids;
  int id(const std::string& word) {
    auto [it, inserted] = ids.emplace(word, static_cast<int>(ids.size()));
    return it->second;
  }
  int find(const std::string& word) const {
    auto it = ids.find(word);
    return it == ids.end() ? -1 : it->second;
  }
};

struct Token {
  std::size_t start, end;
  int word;  // vocabulary id, -1 for words no phrase uses
};

// A phrase as text: slots separated by spaces, alternatives by '|', words of a
// multi-word alternative by '+', and a trailing '?' marks an optional slot.
struct Slot {
  std::vector<std::vector<int>> alternatives;
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

Phrase compile(Vocabulary& vocabulary, const char* label, double weight, std::string_view pattern) {
  Phrase p{label, weight, {}};
  for (auto& slotText : split(pattern, ' ')) {
    Slot slot;
    if (slotText.back() == '?') {
      slot.optional = true;
      slotText.pop_back();
    }
    for (const auto& alt : split(slotText, '|')) {
      std::vector<int> words;
      for (const auto& w : split(alt, '+')) words.push_back(vocabulary.id(w));
      slot.alternatives.push_back(std::move(words));
    }
    p.slots.push_back(std::move(slot));
  }
  return p;
}

struct PhraseTable {
  Vocabulary vocabulary;
  std::vector<Phrase> phrases;
  std::vector<bool> startsPhrase;  // by word id
};

const PhraseTable& table() {
  static const PhraseTable t = [] {
    PhraseTable t;
    auto add = [&t](const char* label, double weight, const std::string& pattern) {
      t.phrases.push_back(compile(t.vocabulary, label, weight, pattern));
    };
    const std::string override = "ignore|disregard|forget|skip|bypass|override|discard|drop";
    const std::string earlier = "previous|prior|above|earlier|preceding|former|initial|original|system|developer|old";
    const std::string instructions =
        "instructions|instruction|prompts|prompt|rules|directions|directives|guidelines|messages|context|orders|"
        "commands|programming";
    add("instruction_override", 0.9,
        override + " all|any|every? of? the|your|my|these|those? " + earlier + " " + instructions);
    add("instruction_override", 0.75, "forget|disregard|ignore everything|anything you+were+told|above|before|i+said|so+far");
    add("instruction_override", 0.6, "new|updated|real|actual instructions|directives are|follow");
    add("persona_jailbreak", 0.85,
        "you+are|you're|you+will+be|you+must+be now? a|an|in|the? "
        "dan|jailbroken|unrestricted|unfiltered|uncensored|evil|rogue|amoral");
    add("persona_jailbreak", 0.85, "do anything now");
    add("persona_jailbreak", 0.8, "enable|enter|activate|switch+to|turn+on developer|dan|god|jailbreak|unrestricted mode");
    add("persona_jailbreak", 0.8,
        "pretend|act|imagine|behave as|like|that? if? you are|have|were? "
        "no|without|free+of|not+bound+by any? restrictions|rules|limits|limitations|guidelines|"
        "filters|boundaries|policies|constraints");
    add("prompt_leak", 0.85,
        "reveal|show|print|display|output|repeat|leak|dump|tell+me|give+me|share|write+out me? "
        "your|the full|entire|complete|original|hidden|secret|initial|exact? "
        "system|hidden|initial|original|developer|secret prompt|prompts|instructions|message");
    add("prompt_leak", 0.7, "what is|are|was|were your system|initial|original|hidden|secret prompt|instructions");
    add("safety_bypass", 0.85,
        "override|bypass|disable|ignore|circumvent|turn+off|deactivate your|the|all|any? "
        "safety|content|security|moderation|ethical|ethics filters|filter|guidelines|policies|"
        "policy|restrictions|rules|settings|protocols|guardrails");
    t.startsPhrase.assign(t.vocabulary.ids.size(), false);
    for (const auto& p : t.phrases)
      for (const auto& alt : p.slots.front().alternatives) t.startsPhrase[static_cast<std::size_t>(alt.front())] = true;
    return t;
  }();
  return t;
}

std::vector<Token> tokenize(std::string_view s, const Vocabulary& vocabulary) {
  std::vector<Token> out;
  std::string word;
  std::size_t i = 0;
  while (i < s.size()) {
    if (!isAlnum(s[i])) {
      ++i;
      continue;
    }
    std::size_t start = i;
    word.clear();
    while (i < s.size() && (isAlnum(s[i]) || (s[i] == '\'' && isAlpha(at(s, i + 1))))) {
      if (word.size() < 32) word += toLower(s[i]);
      ++i;
    }
    out.push_back({start, i, word.size() < 32 ? vocabulary.find(word) : -1});
  }
  return out;
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
    for (std::size_t w = 0; w < alt.size() && ok; ++w) ok = tokens[t + w].word == alt[w];  // ids
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
  const auto& phrases = table();
  auto tokens = tokenize(s, phrases.vocabulary);
  std::size_t t = 0;
  while (t < tokens.size()) {
    if (tokens[t].word < 0 || !phrases.startsPhrase[static_cast<std::size_t>(tokens[t].word)]) {
      ++t;
      continue;
    }
    std::size_t best = 0;
    const Phrase* found = nullptr;
    for (const auto& p : phrases.phrases) {
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
