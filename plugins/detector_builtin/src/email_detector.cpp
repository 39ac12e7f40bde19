// pii.email: local@domain.tld, found by expanding around each '@'. A byte is visited at
// most twice (once leftwards from the next '@', once rightwards), so scans are linear.
#include <cstring>

#include "detectors.h"
#include "text_scan.h"

namespace builtin {

namespace {

constexpr std::size_t kMaxLocal = 64;
constexpr std::size_t kMaxDomain = 253;

bool isLocalChar(char c) { return isAlnum(c) || (c != '\0' && std::strchr("._%+-'", c)); }
bool isLabelChar(char c) { return isAlnum(c) || c == '-'; }

// Length of a valid domain starting at i (labels joined by dots, alphabetic TLD of 2+),
// or 0.
std::size_t domainLength(std::string_view s, std::size_t i) {
  std::size_t pos = i, labels = 0, lastLabelStart = i, end = i;
  while (pos - i <= kMaxDomain) {
    std::size_t start = pos;
    while (pos < s.size() && isLabelChar(s[pos])) ++pos;
    if (pos == start || s[start] == '-' || s[pos - 1] == '-' || pos - start > 63) break;
    ++labels;
    lastLabelStart = start;
    end = pos;
    if (at(s, pos) == '.' && isLabelChar(at(s, pos + 1))) {
      ++pos;
      continue;
    }
    break;
  }
  if (labels < 2 || end - i > kMaxDomain) return 0;
  std::size_t tldLen = end - lastLabelStart;
  if (tldLen < 2) return 0;
  for (std::size_t k = lastLabelStart; k < end; ++k)
    if (!isAlpha(s[k])) return 0;
  return end - i;
}

}  // namespace

EmailDetector::EmailDetector(const aev::Host&, std::string_view config) : minScore_(readMinScore(config, 0.0)) {}

std::vector<aev::Match> EmailDetector::scan(const aev::ScanInput& in) const {
  std::vector<aev::Match> out;
  std::string_view s = in.text;
  std::size_t resumeAt = 0;  // no overlapping matches
  for (std::size_t at_ = s.find('@'); at_ != std::string_view::npos; at_ = s.find('@', at_ + 1)) {
    if (at_ < resumeAt) continue;
    std::size_t start = at_;
    while (start > resumeAt && at_ - start < kMaxLocal + 1 && isLocalChar(s[start - 1])) --start;
    while (start < at_ && (s[start] == '.' || s[start] == '\'')) ++start;  // not at the start of a local part
    if (start == at_ || at_ - start > kMaxLocal || s[at_ - 1] == '.') continue;
    if (s.substr(start, at_ - start).find("..") != std::string_view::npos) continue;
    std::size_t dlen = domainLength(s, at_ + 1);
    if (dlen == 0) continue;
    std::size_t end = at_ + 1 + dlen;
    constexpr double score = 0.95;
    if (score >= minScore_) out.push_back({start, end, score, "email"});
    resumeAt = end;
  }
  return out;
}

}  // namespace builtin
