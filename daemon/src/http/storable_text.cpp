#include "http/storable_text.h"

#include "common/utf8.h"

namespace aev::http {

bool isStorableText(std::string_view text) { return text.find('\0') == std::string_view::npos && isValidUtf8(text); }

ApiError unstorableText(std::string_view text, const std::string& what) {
  if (text.find('\0') != std::string_view::npos)
    return errors::badRequest(what + " holds a NUL character (%00), which no store accepts.");
  return errors::badRequest(what + " is not valid UTF-8 text.");
}

}  // namespace aev::http
