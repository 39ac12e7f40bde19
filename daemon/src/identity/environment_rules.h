#pragma once
// Field rules of environments (docs/api.md), apart from the service so they are unit
// tested on their own: names are trimmed, slugs are URL- and filter-safe.
#include <cstddef>
#include <string>

namespace aev::identity {

inline constexpr std::size_t kEnvironmentNameMax = 120;  // UTF-8 code points
inline constexpr std::size_t kEnvironmentSlugMax = 64;

// Without leading and trailing ASCII whitespace.
std::string trimWhitespace(const std::string& text);
// 1..64 of [a-z0-9-], neither starting nor ending with '-'.
bool isValidEnvironmentSlug(const std::string& slug);
// The slug a name implies: ASCII lower-case, every run of other characters becomes one
// '-', no '-' at either end, at most 64 characters. "" when the name has no ASCII letter
// or digit (the caller must then ask for an explicit slug).
std::string environmentSlugFrom(const std::string& name);

}  // namespace aev::identity
