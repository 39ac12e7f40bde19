#pragma once
// Checks on what a plugin hands the host. Plugin memory is untrusted: strings are read
// with a length cap, names must match the documented alphabet, text offsets must land
// on UTF-8 boundaries, keys must be valid UTF-8.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "common/utf8.h"  // aev::isValidUtf8, the daemon's one UTF-8 check, for plugin keys and labels

namespace aev::plugins {

// A NUL-terminated string from plugin memory, or nullopt when p is null or no NUL
// appears within maxLen bytes.
std::optional<std::string> boundedCString(const char* p, std::size_t maxLen);

// Plugin names: [a-z0-9_]+, at most 64 bytes (they become config keys and file names).
bool isValidPluginName(std::string_view name);
// Component names: [A-Za-z][A-Za-z0-9_.-]*, at most 64 bytes ("pii.email", "apiKey").
bool isValidComponentName(std::string_view name);
// Counter names: [a-z][a-z0-9_]*, at most 64 bytes.
bool isValidMetricName(std::string_view name);

// True when offset splits no UTF-8 sequence of text (0 and text.size() always do).
bool isUtf8Boundary(std::string_view text, std::size_t offset);

// Message text safe for one log line: control characters become spaces, capped.
std::string oneLine(std::string_view s, std::size_t maxLen = 4096);

}  // namespace aev::plugins
