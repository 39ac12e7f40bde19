// Timestamps and trace/span ids: from the stored event's text forms to OTLP's numbers
// and raw bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace otlp {

// RFC 3339 ("2026-01-02T03:04:05.000006Z", "...+02:00") to Unix nanoseconds.
std::optional<std::uint64_t> parseRfc3339(std::string_view text);

// An id of `bytes` raw bytes: the hex text itself when it is 2*bytes hex digits
// (lower or upper case), else a stable hash of the text, so ids that agents invent
// ("run-42") still group into one trace. Never all zeros (invalid in OTLP).
std::string idBytes(std::string_view text, std::size_t bytes);

std::string toHex(std::string_view raw);

// The wall clock in Unix nanoseconds (observed times, a metric window's end).
std::uint64_t nowUnixNano();

}  // namespace otlp
