#include "stream/sse_frame.h"

#include <charconv>

#include "events/event.h"
#include "stream/hub.h"

namespace aev::stream {

std::optional<std::int64_t> parseLastEventId(std::string_view text) {
  if (text.empty()) return std::nullopt;
  constexpr std::size_t kMaxDigits = 18;  // every value fits an int64
  if (text.size() > kMaxDigits) return -1;
  for (char c : text)
    if (c < '0' || c > '9') return -1;
  std::int64_t id = 0;
  std::from_chars(text.data(), text.data() + text.size(), id);
  return id;
}

// One event as an SSE frame: its id (what Last-Event-ID echoes) and its JSON on a single
// data line. The JSON writer escapes every control character, so no byte of a publisher's
// strings can end the line or the frame early.
std::string Hub::frameOf(const store::StoredEvent& e) {
  std::string frame = "id: " + std::to_string(e.id) + "\ndata: ";
  frame += events::toJson(e);
  frame += "\n\n";
  return frame;
}

}  // namespace aev::stream
