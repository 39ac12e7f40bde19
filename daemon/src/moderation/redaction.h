#pragma once
// Redaction (docs/features.md#moderation): each match becomes "[REDACTED:<detector>]". Overlapping
// matches (a plugin may report nested findings) are merged first, so no original byte
// survives between two markers.
#include <string>
#include <string_view>
#include <vector>

#include "moderation/pattern.h"

namespace aev::moderation {

std::string redactionMarker(const std::string& detector);

// text with every range replaced by marker; ranges outside text are clipped.
std::string redact(std::string_view text, std::vector<Range> ranges, const std::string& marker);

}  // namespace aev::moderation
