#pragma once
// The two pieces of the text/event-stream protocol that touch bytes from outside: the
// Last-Event-ID a reconnecting subscriber sends, and the frame each event is written as
// (its fields come from publishers). Both are fuzzed (tests/fuzz/sse_fuzzer.cpp).
#include <cstdint>
#include <optional>
#include <string_view>

namespace aev::stream {

// A Last-Event-ID value (header or ?last_event_id=): nullopt when empty (a fresh
// subscription), the id when it is a decimal event id (digits only, no sign or space,
// at most 18 digits), else -1: present but not an id of ours, answered with a reset.
std::optional<std::int64_t> parseLastEventId(std::string_view text);

}  // namespace aev::stream
