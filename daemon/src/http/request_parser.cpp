#include "http/request_parser.h"

#include <algorithm>
#include <cctype>

#include "common/text.h"

namespace aev::http {

namespace {

// Longest chunk-size line (with its extensions), chunk-data end or trailer line.
constexpr std::size_t kMaxChunkLine = 4096;

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

std::string lowerAscii(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// How many items of a comma-separated list are `token` (case-insensitive).
int listCount(std::string_view value, std::string_view token) {
  int n = 0;
  while (!value.empty()) {
    auto comma = value.find(',');
    if (iequals(trimOws(value.substr(0, comma)), token)) ++n;
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  return n;
}

// Does a comma-separated header value list hold `token` (case-insensitive)?
bool listHas(std::string_view value, std::string_view token) { return listCount(value, token) > 0; }

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

// RFC 9110 §7.2 / RFC 3986 §3.2.2: Host = uri-host [ ":" port ], where uri-host is an
// IP-literal ("[...]") or a reg-name (unreserved, sub-delims, pct-encoded). Empty is
// allowed (a target without an authority). Anything else (a space, '/', '@', a quote, a
// second host) is refused, so what the daemon may echo in a link is a host and a port.
bool isValidHost(std::string_view host) {
  if (host.empty()) return true;
  std::string_view name = host;
  if (host.front() == '[') {
    const auto close = host.find(']');
    if (close == std::string_view::npos || close < 2) return false;
    const auto literal = host.substr(1, close - 1);
    if (!std::all_of(literal.begin(), literal.end(),
                     [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) || c == ':' || c == '.'; }))
      return false;
    name = {};
    host.remove_prefix(close + 1);
  } else {
    const auto colon = host.find(':');
    name = host.substr(0, colon);
    host.remove_prefix(colon == std::string_view::npos ? host.size() : colon);
    if (name.empty()) return false;
  }
  if (!host.empty()) {  // ":" port
    if (host.front() != ':' || host.size() > 6) return false;
    if (!std::all_of(host.begin() + 1, host.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
  }
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (std::isalnum(static_cast<unsigned char>(c)) ||
        std::string_view("-._~!$&'()*+,;=").find(c) != std::string_view::npos)
      continue;
    if (c == '%' && i + 2 < name.size() && std::isxdigit(static_cast<unsigned char>(name[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(name[i + 2]))) {
      i += 2;
      continue;
    }
    return false;
  }
  return true;
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
  trailerLines_ = 0;
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
  // A request-target is ASCII (RFC 3986): controls, spaces and bytes >= 0x80 are refused
  // (llhttp and h11 refuse them too); anything else must be percent-encoded.
  if (std::any_of(target.begin(), target.end(),
                  [](char c) { return static_cast<unsigned char>(c) <= 32 || static_cast<unsigned char>(c) >= 127; }))
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
  int hosts = 0;
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
    auto name = lowerAscii(line.substr(0, colon));
    if (name == "content-length") {
      auto n = parseDecimal(value);
      // A repeated Content-Length is refused even with the same value (as llhttp does):
      // RFC 9110 §8.6 allows either, and the stricter answer leaves nothing to interpret.
      if (!n || contentLength) return fail(400, "The Content-Length header is invalid or repeated.");
      contentLength = n;
    } else if (name == "transfer-encoding") {
      // One field line naming exactly "chunked" (RFC 9112 §6.1): a second line, even a
      // second "chunked", is how one parser in a chain is made to frame the body
      // differently from the next (llhttp and Node refuse it too).
      if (transferEncoding) return fail(400, "Transfer-Encoding is sent more than once.");
      transferEncoding = true;
      // Without chunked as its final coding a request's body length cannot be known: 400
      // (RFC 9112 §6.3); chunked applied twice is forbidden (§6.1); a coding before it
      // is one we do not decode: 501.
      const auto comma = value.rfind(',');
      const auto last = trimOws(comma == std::string_view::npos ? value : value.substr(comma + 1));
      if (!iequals(last, "chunked") || listCount(value, "chunked") > 1)
        return fail(400, "The Transfer-Encoding header is invalid: chunked must be its final coding, once.");
      if (!iequals(value, "chunked")) return fail(501, "Only the chunked transfer coding is supported.");
      chunked = true;
    } else if (name == "host") {
      if (++hosts > 1) return fail(400, "The Host header is sent more than once.");
      if (!isValidHost(value)) return fail(400, "The Host header is not a valid host[:port].");
    }
    request_.headers.emplace_back(std::move(name), std::string(value));
  }
  // RFC 9112 §3.2: an HTTP/1.1 request without Host is a 400.
  if (request_.versionMinor >= 1 && hosts == 0) return fail(400, "An HTTP/1.1 request must carry a Host header.");
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
        // A chunk-size, chunk-data end or trailer line is at most kMaxChunkLine bytes
        // before its CRLF, however the bytes arrive: the same request is refused whole
        // or split at any point.
        auto nl = data.find('\n', pos);
        auto line = data.substr(pos, nl == std::string_view::npos ? data.size() - pos : nl - pos);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // (pending: a CR may precede the LF)
        if (line.size() > kMaxChunkLine) return fail(400, "A chunk line is too long.");
        if (nl == std::string_view::npos) return State::kIncomplete;
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
          // Trailer fields are read and dropped, but counted like header fields: without
          // a cap, one request could stream trailer lines until its deadline.
          if (++trailerLines_ > limits_.maxHeaders)
            return fail(431, "More than " + std::to_string(limits_.maxHeaders) + " trailer fields.");
          break;
        }
        // chunk-size [ ";" chunk-ext ]: hex digits from the first byte, then nothing or a
        // ';' (extensions are ignored). RFC 9112 §7.1.1 would allow whitespace before the
        // ';', but llhttp and h11 both refuse it: a size two parsers read alike.
        std::size_t digits = 0, n = 0;
        for (; digits < line.size(); ++digits) {
          const int d = hexDigitValue(line[digits]);
          if (d < 0) break;
          n = n * 16 + static_cast<std::size_t>(d);
        }
        if (digits == 0 || digits > 15 || (digits < line.size() && line[digits] != ';'))
          return fail(400, "A chunk size is invalid.");
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
