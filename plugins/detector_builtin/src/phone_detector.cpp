// pii.phone: telephone numbers as people write them: "+1 (555) 123-4567",
// "+44 20 7946 0958", "555.123.4567", "5551234567". A candidate is a run of digits and
// separators between word boundaries; it is accepted by its shape (digit count, group
// sizes, consistent separators) and rejected when it looks like something else that is
// made of digits: an IP address, a date or time, a card number (Luhn-valid, 13+ digits).
#include <string>

#include "detectors.h"
#include "text_scan.h"

namespace builtin {

namespace {

constexpr std::size_t kMaxCandidate = 32;

bool isSeparator(char c) { return c == ' ' || c == '-' || c == '.'; }

struct Candidate {
  std::size_t start = 0, end = 0;
  std::string digits;
  std::vector<std::size_t> groups;  // digit count of each group
  std::string separators;           // the separator chars seen (between groups)
  bool plus = false, parens = false;
};

// Reads a candidate at i; returns false when the shape is not phone-like at all.
bool read(std::string_view s, std::size_t i, Candidate& c) {
  c = Candidate{};
  c.start = i;
  std::size_t pos = i;
  if (s[pos] == '+') {
    c.plus = true;
    ++pos;
  }
  bool open = false;
  std::size_t groupDigits = 0;
  auto closeGroup = [&] {
    if (groupDigits) c.groups.push_back(groupDigits);
    groupDigits = 0;
  };
  while (pos < s.size() && pos - i < kMaxCandidate) {
    char ch = s[pos];
    if (isDigit(ch)) {
      c.digits += ch;
      ++groupDigits;
      ++pos;
      continue;
    }
    if (ch == '(' && !open && !c.parens && groupDigits == 0 && isDigit(at(s, pos + 1))) {
      open = true;
      ++pos;
      continue;
    }
    if (ch == ')' && open) {
      if (groupDigits < 2 || groupDigits > 4) return false;
      open = false;
      c.parens = true;
      closeGroup();
      ++pos;
      if (at(s, pos) == ' ' || at(s, pos) == '-') ++pos;  // ") " or ")-"
      if (!isDigit(at(s, pos))) return false;
      continue;
    }
    // One separator between two digit groups (or before an area code in parentheses).
    if (isSeparator(ch) && groupDigits > 0 && (isDigit(at(s, pos + 1)) || (at(s, pos + 1) == '(' && !c.parens))) {
      closeGroup();
      c.separators += ch;
      ++pos;
      continue;
    }
    break;
  }
  if (open) return false;
  closeGroup();
  c.end = pos;
  return !c.digits.empty();
}

bool looksLikeDateOrTime(std::string_view s, const Candidate& c) {
  // 2024-01-15 ..., 15.01.2024 ..., or followed by ":30" (a time).
  if (at(s, c.end) == ':' && isDigit(at(s, c.end + 1))) return true;
  // Dates are written with '-' or '.', never after a '+'.
  if (c.groups.size() >= 3 && !c.plus && c.separators.find(' ') == std::string::npos) {
    auto g0 = c.groups[0], g1 = c.groups[1], g2 = c.groups[2];
    if (g0 == 4 && g1 <= 2 && g2 <= 2 && (c.digits.rfind("19", 0) == 0 || c.digits.rfind("20", 0) == 0)) return true;
    if (g0 <= 2 && g1 <= 2 && g2 == 4) return true;
  }
  return false;
}

}  // namespace

// Default minScore 0.6: a bare run of 10-15 digits (score 0.5) is more often an ID than a
// phone number, so it is reported only when a rule asks for it with a lower minScore.
PhoneDetector::PhoneDetector(const aev::Host&, std::string_view config) : minScore_(readMinScore(config, 0.6)) {}

std::vector<aev::Match> PhoneDetector::scan(const aev::ScanInput& in) const {
  std::vector<aev::Match> out;
  std::string_view s = in.text;
  std::size_t i = 0;
  Candidate c;
  while (i < s.size()) {
    char ch = s[i];
    char prev = before(s, i);
    bool canStart = (isDigit(ch) || ch == '+' || ch == '(') && !isAlnum(prev) && prev != '.' && prev != '-' &&
                    prev != '/' && prev != '_' && prev != '+' && prev != '@';
    if (!canStart || !read(s, i, c)) {
      ++i;
      continue;
    }
    // Skip the whole run either way, so a rejected long number is not re-read from its middle.
    std::size_t next = c.end > i ? c.end : i + 1;
    char after = at(s, c.end);
    bool boundaryAfter = !isAlnum(after) && after != '_' && after != '@' &&
                         !((after == '.' || after == '-' || after == '/') && isDigit(at(s, c.end + 1)));

    std::size_t n = c.digits.size();
    bool plausibleLength = c.plus ? (n >= 8 && n <= 15) : (n >= 10 && n <= 15);
    bool sameSeparators = c.separators.find_first_not_of(c.separators.empty() ? ' ' : c.separators[0]) ==
                          std::string::npos;
    bool dotted = c.separators.find('.') != std::string::npos;
    bool groupsOk = c.groups.size() <= 6 && c.groups.back() >= 2;
    for (std::size_t g = 2; g < c.groups.size() && groupsOk; ++g) groupsOk = c.groups[g] >= 2;
    bool ipLike = dotted && c.groups.size() == 4;
    bool nanp = c.groups.size() == 3 && c.groups[0] == 3 && c.groups[1] == 3 && c.groups[2] == 4 && !c.plus;
    bool cardLike = n >= 13 && !c.plus && luhnValid(c.digits);

    if (boundaryAfter && plausibleLength && groupsOk && !ipLike && !cardLike && !looksLikeDateOrTime(s, c) &&
        (!dotted || sameSeparators)) {
      double score;
      if (c.plus || c.parens || (nanp && sameSeparators)) score = 0.9;
      else if (c.groups.size() > 1) score = 0.75;
      else score = 0.5;  // a bare run of 10-15 digits may be any identifier
      if (score >= minScore_) out.push_back({c.start, c.end, score, "phone"});
    }
    i = next;
  }
  return out;
}

}  // namespace builtin
