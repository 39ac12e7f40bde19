#include "http/request_parser.h"

#include <algorithm>
#include <cctype>

namespace aev::http {

namespace {

// RFC 9110 §5.6.2 tchar.
bool isTokenChar(unsigned char c) {
  if (std::isalnum(c)) return true;
  switch (c) {
    case '!':
    case '#':
    case '$':
    case '%':
    case '&':
    case '\'':
    case '*':
    case '+':  // clang-format off
    case '-': case '.': case '^': case '_': case '`': case '|': case '~':  // clang-format on
      return true;
    default:
      return false;
  }
}

bool isToken(std::string_view s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char c) { return isTokenChar(static_cast<unsigned char>(c)); });
}

std::string_view trimOws(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// Does a comma-separated header value list hold `token` (case-insensitive)?
bool listHas(std::string_view value, std::string_view token) {
  while (!value.empty()) {
    auto comma = value.find(',');
    auto item = trimOws(value.substr(0, comma));
    if (iequals(item, token)) return true;
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  return false;
}

// Finds the end of the head: the empty line. Lines may end in CRLF or a bare LF
// (RFC 9112 §2.2 lets a recipient accept LF). Returns the offset just past it.
std::optional<std::size_t> headEnd(std::string_view data, std::size_t from) {
  for (std::size_t i = from; i < data.size(); ++i) {
    if (data[i] != '\n') continue;
    if (i + 1 < data.size() && data[i + 1] == '\n') return i + 2;
    if (i + 2 < data.size() && data[i + 1] == '\r' && data[i + 2] == '\n') return i + 3;
  }
  return std::nullopt;
}

std::string_view chopLine(std::string_view& rest) {
  auto nl = rest.find('\n');
  auto line = rest.substr(0, nl);
  rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

std::optional<std::size_t> parseDecimal(std::string_view s) {
  if (s.empty() || s.size() > 18) return std::nullopt;
  std::size_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<std::size_t>(c - '0');
  }
  return v;
}

}  // namespace

std::string_view WireRequest::header(std::string_view lowerName) const {
  for (auto it = headers.rbegin(); it != headers.rend(); ++it)
    if (it->first == lowerName) return it->second;
  return {};
}

RequestParser::State RequestParser::fail(int status, std::string detail) {
  errorStatus_ = status;
  errorDetail_ = std::move(detail);
  return State::kError;
}

WireRequest RequestParser::take() {
  WireRequest out = std::move(request_);
  request_ = WireRequest{};
  phase_ = Phase::kHead;
  headScanned_ = 0;
  remaining_ = 0;
  started_ = false;
  return out;
}

bool RequestParser::takeBodyBytes(std::string_view data, std::size_t& pos) {
  const auto n = std::min(remaining_, data.size() - pos);
  request_.body.append(data.substr(pos, n));
  pos += n;
  remaining_ -= n;
  return remaining_ == 0;
}

RequestParser::State RequestParser::parse(std::string_view data, std::size_t& pos) {
  if (errorStatus_) return State::kError;
  if (phase_ == Phase::kHead) {
    // Empty lines before a request line are ignored (RFC 9112 §2.2).
    while (!started_ && pos < data.size() && (data[pos] == '\r' || data[pos] == '\n')) ++pos;
    if (pos < data.size()) started_ = true;
    auto view = data.substr(pos);
    auto end = headEnd(view, headScanned_ > 2 ? headScanned_ - 2 : 0);
    if (!end) {
      headScanned_ = view.size();
      if (view.size() > limits_.maxHeadBytes)
        return fail(431, "The request head exceeds " + std::to_string(limits_.maxHeadBytes) + " bytes.");
      return State::kIncomplete;
    }
    if (*end > limits_.maxHeadBytes)
      return fail(431, "The request head exceeds " + std::to_string(limits_.maxHeadBytes) + " bytes.");
    if (auto s = parseHead(view.substr(0, *end)); s == State::kError) return s;
    pos += *end;
  }
  if (phase_ == Phase::kFixedBody) {
    if (!takeBodyBytes(data, pos)) return State::kIncomplete;
    phase_ = Phase::kDone;
  }
  if (phase_ != Phase::kDone && phase_ != Phase::kHead) {
    if (auto s = parseChunked(data, pos); s != State::kComplete) return s;
  }
  return State::kComplete;
}

bool RequestParser::parseRequestLine(std::string_view line) {
  auto sp1 = line.find(' ');
  if (sp1 == std::string_view::npos) return false;
  auto sp2 = line.find(' ', sp1 + 1);
  if (sp2 == std::string_view::npos || line.find(' ', sp2 + 1) != std::string_view::npos) return false;
  auto method = line.substr(0, sp1);
  auto target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  auto version = line.substr(sp2 + 1);
  if (!isToken(method) || target.empty()) return false;
  if (std::any_of(target.begin(), target.end(), [](char c) { return static_cast<unsigned char>(c) <= 32 || c == 127; }))
    return false;
  if (version.size() != 8 || version.substr(0, 5) != "HTTP/" || version[6] != '.' || !std::isdigit(version[5]) ||
      !std::isdigit(version[7]))
    return false;
  request_.method = std::string(method);
  request_.target = std::string(target);
  request_.versionMinor = version[5] == '1' ? version[7] - '0' : -1;  // -1: not HTTP/1.x
  return true;
}

RequestParser::State RequestParser::parseHead(std::string_view head) {
  auto rest = head;
  if (!parseRequestLine(chopLine(rest))) return fail(400, "The request line is malformed.");
  if (request_.versionMinor < 0) return fail(505, "Only HTTP/1.0 and HTTP/1.1 are served.");
  std::optional<std::size_t> contentLength;
  bool chunked = false, transferEncoding = false;
  for (;;) {
    auto line = chopLine(rest);
    if (line.empty()) break;
    if (line.front() == ' ' || line.front() == '\t') return fail(400, "Obsolete header line folding is not accepted.");
    auto colon = line.find(':');
    if (colon == std::string_view::npos || !isToken(line.substr(0, colon)))
      return fail(400, "A header field is malformed.");
    auto value = trimOws(line.substr(colon + 1));
    if (std::any_of(value.begin(), value.end(),
                    [](char c) { return (static_cast<unsigned char>(c) < 32 && c != '\t') || c == 127; }))
      return fail(400, "A header field value holds a control character.");
    if (request_.headers.size() >= limits_.maxHeaders)
      return fail(431, "More than " + std::to_string(limits_.maxHeaders) + " header fields.");
    auto name = lower(line.substr(0, colon));
    if (name == "content-length") {
      auto n = parseDecimal(value);
      if (!n || (contentLength && *contentLength != *n)) return fail(400, "The Content-Length header is invalid.");
      contentLength = n;
    } else if (name == "transfer-encoding") {
      transferEncoding = true;
      // Only "chunked" as the final (here: only) coding is understood (RFC 9112 §6.1).
      if (!iequals(value, "chunked")) return fail(501, "Only the chunked transfer coding is supported.");
      chunked = true;
    }
    request_.headers.emplace_back(std::move(name), std::string(value));
  }
  // Both framings at once is the classic smuggling vector (RFC 9112 §6.3): refuse.
  if (transferEncoding && contentLength) return fail(400, "Content-Length and Transfer-Encoding are both present.");
  if (request_.versionMinor == 0 && chunked) return fail(400, "HTTP/1.0 has no chunked transfer coding.");
  auto connection = request_.header("connection");
  request_.keepAlive = request_.versionMinor >= 1 ? !listHas(connection, "close") : listHas(connection, "keep-alive");
  request_.expectContinue = request_.versionMinor >= 1 && iequals(request_.header("expect"), "100-continue");
  request_.hasBody = chunked || contentLength.has_value();
  if (contentLength && *contentLength > limits_.maxBodyBytes)
    return fail(413, "The body exceeds " + std::to_string(limits_.maxBodyBytes) + " bytes.");
  if (chunked) {
    phase_ = Phase::kChunkSize;
  } else if (contentLength && *contentLength > 0) {
    request_.body.reserve(*contentLength);
    remaining_ = *contentLength;
    phase_ = Phase::kFixedBody;
  } else {
    phase_ = Phase::kDone;
  }
  return State::kComplete;
}

RequestParser::State RequestParser::parseChunked(std::string_view data, std::size_t& pos) {
  for (;;) {
    switch (phase_) {
      case Phase::kChunkSize:
      case Phase::kTrailers:
      case Phase::kChunkDataEnd: {
        auto nl = data.find('\n', pos);
        if (nl == std::string_view::npos) {
          if (data.size() - pos > 4096) return fail(400, "A chunk line is too long.");
          return State::kIncomplete;
        }
        auto line = data.substr(pos, nl - pos);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        pos = nl + 1;
        if (phase_ == Phase::kChunkDataEnd) {
          if (!line.empty()) return fail(400, "A chunk is longer than its declared size.");
          phase_ = Phase::kChunkSize;
          break;
        }
        if (phase_ == Phase::kTrailers) {
          if (line.empty()) {
            phase_ = Phase::kDone;
            return State::kComplete;
          }
          break;  // trailer fields are read and dropped
        }
        auto size = line.substr(0, line.find(';'));  // chunk extensions are ignored
        size = trimOws(size);
        if (size.empty() || size.size() > 15) return fail(400, "A chunk size is invalid.");
        std::size_t n = 0;
        for (char c : size) {
          int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                  : (c >= 'a' && c <= 'f')                    ? c - 'a' + 10
                  : (c >= 'A' && c <= 'F')                    ? c - 'A' + 10
                                                              : -1;
          if (d < 0) return fail(400, "A chunk size is invalid.");
          n = n * 16 + static_cast<std::size_t>(d);
        }
        if (n == 0) {
          phase_ = Phase::kTrailers;
          break;
        }
        if (request_.body.size() + n > limits_.maxBodyBytes)
          return fail(413, "The body exceeds " + std::to_string(limits_.maxBodyBytes) + " bytes.");
        remaining_ = n;
        phase_ = Phase::kChunkData;
        break;
      }
      case Phase::kChunkData:
        if (!takeBodyBytes(data, pos)) return State::kIncomplete;
        phase_ = Phase::kChunkDataEnd;
        break;
      default:
        return State::kComplete;
    }
  }
}

}  // namespace aev::http
