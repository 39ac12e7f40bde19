// pii.ssn: US Social Security numbers written as 123-45-6789 or 123 45 6789, or as nine
// bare digits when "SSN" / "social security" appears just before. Numbers the SSA never
// issues are skipped: area 000, 666 or 900-999, group 00, serial 0000, and the two
// famous sample numbers printed on wallet inserts and in advertising.
#include <string>

#include "detectors.h"
#include "text_scan.h"

namespace builtin {

namespace {

constexpr std::size_t kContextWindow = 32;

bool issuable(std::string_view d /* 9 digits */) {
  int area = std::stoi(std::string(d.substr(0, 3)));
  int group = std::stoi(std::string(d.substr(3, 2)));
  int serial = std::stoi(std::string(d.substr(5, 4)));
  if (area == 0 || area == 666 || area >= 900 || group == 0 || serial == 0) return false;
  std::string all(d);
  return all != "078051120" && all != "219099999";
}

bool contextBefore(std::string_view s, std::size_t i) {
  std::size_t from = i > kContextWindow ? i - kContextWindow : 0;
  for (std::size_t k = from; k < i; ++k)
    if (startsWithNoCase(s, k, "ssn") || startsWithNoCase(s, k, "social security") || startsWithNoCase(s, k, "ss#"))
      return true;
  return false;
}

}  // namespace

SsnDetector::SsnDetector(const aev::Host&, std::string_view config) : minScore_(readMinScore(config, 0.0)) {}

std::vector<aev::Match> SsnDetector::scan(const aev::ScanInput& in) const {
  std::vector<aev::Match> out;
  std::string_view s = in.text;
  std::size_t i = 0;
  while (i < s.size()) {
    char prev = before(s, i);
    if (!isDigit(s[i]) || isAlnum(prev) || prev == '-' || prev == '.' || prev == '+' || prev == '/') {
      ++i;
      continue;
    }
    std::size_t run = i;
    while (run < s.size() && isDigit(s[run])) ++run;
    std::size_t end = 0;
    std::string digits;
    double score = 0;
    if (run - i == 3 && (at(s, run) == '-' || at(s, run) == ' ')) {
      char sep = s[run];
      // ddd?dd?dddd with the same separator
      std::size_t p = run + 1;
      bool ok = isDigit(at(s, p)) && isDigit(at(s, p + 1)) && at(s, p + 2) == sep;
      for (std::size_t k = p + 3; ok && k < p + 7; ++k) ok = isDigit(at(s, k));
      if (ok) {
        end = p + 7;
        digits = std::string(s.substr(i, 3)) + std::string(s.substr(p, 2)) + std::string(s.substr(p + 3, 4));
        score = sep == '-' ? 0.85 : 0.7;
      }
    } else if (run - i == 9 && contextBefore(s, i)) {
      end = run;
      digits = std::string(s.substr(i, 9));
      score = 0.7;
    }
    if (end) {
      char after = at(s, end);
      bool boundary = !isAlnum(after) && !((after == '-' || after == '.' || after == ' ') && isDigit(at(s, end + 1)));
      if (boundary && issuable(digits) && score >= minScore_) {
        out.push_back({i, end, score, "ssn"});
        i = end;
        continue;
      }
    }
    i = run > i ? run : i + 1;
  }
  return out;
}

}  // namespace builtin
