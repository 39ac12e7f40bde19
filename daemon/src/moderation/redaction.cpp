#include "moderation/redaction.h"

#include <algorithm>

namespace aev::moderation {

std::string redactionMarker(const std::string& detector) { return "[REDACTED:" + detector + "]"; }

std::string redact(std::string_view text, std::vector<Range> ranges, const std::string& marker) {
  std::sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) { return a.start < b.start; });
  std::string out;
  out.reserve(text.size());
  std::size_t copied = 0;  // text[0, copied) is already in out (or masked)
  for (const auto& r : ranges) {
    const auto start = std::min(r.start, text.size());
    const auto end = std::min(r.end, text.size());
    if (end <= start) continue;
    if (end <= copied) continue;  // inside the previous match
    if (start >= copied) {
      out.append(text.substr(copied, start - copied));
      out += marker;
    }  // else overlaps the previous match: that marker already covers its start
    copied = end;
  }
  out.append(text.substr(std::min(copied, text.size())));
  return out;
}

}  // namespace aev::moderation
