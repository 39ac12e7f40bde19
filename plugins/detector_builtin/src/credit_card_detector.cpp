// pii.credit_card: 13-19 digit card numbers, optionally grouped by spaces or dashes,
// that pass the Luhn check and start with an issuer prefix of a card network (Visa,
// Mastercard, American Express, Discover, JCB, Diners Club, UnionPay, Maestro).
// The prefix check keeps Luhn-valid order numbers and IDs (1 in 10 random numbers
// passes Luhn) from being reported.
#include <string>

#include "detectors.h"
#include "text_scan.h"

namespace builtin {

namespace {

int prefix(const std::string& d, std::size_t n) { return std::stoi(d.substr(0, n)); }

bool knownIssuer(const std::string& d) {
  std::size_t n = d.size();
  int p1 = prefix(d, 1), p2 = prefix(d, 2), p3 = prefix(d, 3), p4 = prefix(d, 4), p6 = prefix(d, 6);
  if (p1 == 4) return n == 13 || n == 16 || n == 19;                                  // Visa
  if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return n == 16;          // Mastercard
  if (p2 == 34 || p2 == 37) return n == 15;                                           // American Express
  if (p4 == 6011 || p2 == 65 || (p3 >= 644 && p3 <= 649) || (p6 >= 622126 && p6 <= 622925))
    return n >= 16 && n <= 19;                                                        // Discover
  if (p4 >= 3528 && p4 <= 3589) return n >= 16 && n <= 19;                            // JCB
  if ((p3 >= 300 && p3 <= 305) || p2 == 36 || p2 == 38 || p2 == 39) return n >= 14 && n <= 19;  // Diners
  if (p2 == 62) return n >= 16 && n <= 19;                                            // UnionPay
  if (p2 == 50 || (p2 >= 56 && p2 <= 69)) return n >= 12 && n <= 19;                 // Maestro
  return false;
}

}  // namespace

CreditCardDetector::CreditCardDetector(const aev::Host&, std::string_view config)
    : minScore_(readMinScore(config, 0.0)) {}

std::vector<aev::Match> CreditCardDetector::scan(const aev::ScanInput& in) const {
  std::vector<aev::Match> out;
  std::string_view s = in.text;
  std::size_t i = 0;
  while (i < s.size()) {
    if (!isDigit(s[i]) || isAlnum(before(s, i)) || before(s, i) == '-' || before(s, i) == '.') {
      ++i;
      continue;
    }
    // A run of digits with single separators between groups; at most 19 digits counted.
    std::string digits;
    char sep = 0;
    bool mixed = false;
    std::size_t pos = i;
    while (pos < s.size()) {
      if (isDigit(s[pos])) {
        digits += s[pos++];
        if (digits.size() > 19) break;
        continue;
      }
      if ((s[pos] == ' ' || s[pos] == '-') && isDigit(at(s, pos + 1)) && isDigit(before(s, pos))) {
        if (sep && sep != s[pos]) mixed = true;
        sep = s[pos++];
        continue;
      }
      break;
    }
    while (pos < s.size() && isDigit(s[pos])) ++pos;  // the rest of an over-long number
    char after = at(s, pos);
    bool boundary = !isAlnum(after) && !((after == '.' || after == '-') && isDigit(at(s, pos + 1)));
    if (boundary && !mixed && digits.size() >= 13 && digits.size() <= 19 && luhnValid(digits) && knownIssuer(digits)) {
      constexpr double score = 0.95;
      if (score >= minScore_) out.push_back({i, pos, score, "credit_card"});
    }
    i = pos > i ? pos : i + 1;
  }
  return out;
}

}  // namespace builtin
