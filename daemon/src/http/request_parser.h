#pragma once
// Incremental HTTP/1.1 request parser (RFC 9112) for the epoll front end: it is fed the
// bytes a connection has received so far and says whether a whole request is there.
// Strict where laxness enables request smuggling (Content-Length together with
// Transfer-Encoding, differing Content-Lengths, obsolete line folding, whitespace before
// a header's colon), bounded everywhere (head size, header count, body size), and it
// reports a too-large declared body as soon as the head is in, before any body byte.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace aev::http {

struct ParserLimits {
  std::size_t maxHeadBytes = 64 * 1024;  // request line + header fields
  std::size_t maxHeaders = 100;
  std::size_t maxBodyBytes = 1 << 20;
};

// One request as it came off the wire.
struct WireRequest {
  std::string method;
  std::string target;                                        // as sent (origin-form or absolute-form)
  int versionMinor = 1;                                      // HTTP/1.<minor>
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased, in order
  std::string body;
  bool keepAlive = true;  // by version and Connection header
  bool expectContinue = false;
  bool hasBody = false;  // Content-Length or chunked was sent

  // The last value of a header (names are lower-cased), or empty.
  std::string_view header(std::string_view lowerName) const;
};

class RequestParser {
 public:
  enum class State { kIncomplete, kComplete, kError };

  explicit RequestParser(ParserLimits limits = {}) : limits_(limits) {}

  // Parses from data[pos..]; advances pos past the bytes consumed. kComplete: take()
  // the request (the parser is then ready for the next one). kError: errorStatus() and
  // errorDetail() say why; the connection must be closed after answering.
  State parse(std::string_view data, std::size_t& pos);
  WireRequest take();

  // The head of the current request is parsed (Expect: 100-continue can be answered).
  bool headComplete() const { return phase_ != Phase::kHead; }
  const WireRequest& current() const { return request_; }
  // Bytes of the current request received so far (0 before its first byte).
  bool started() const { return started_; }

  int errorStatus() const { return errorStatus_; }
  const std::string& errorDetail() const { return errorDetail_; }

 private:
  enum class Phase { kHead, kFixedBody, kChunkSize, kChunkData, kChunkDataEnd, kTrailers, kDone };

  State fail(int status, std::string detail);
  State parseHead(std::string_view head);
  bool parseRequestLine(std::string_view line);
  State parseChunked(std::string_view data, std::size_t& pos);
  // Appends what has arrived of the remaining_ body bytes; true once all of them are in.
  bool takeBodyBytes(std::string_view data, std::size_t& pos);

  ParserLimits limits_;
  Phase phase_ = Phase::kHead;
  WireRequest request_;
  std::size_t headScanned_ = 0;  // bytes of the head already searched for its end
  std::size_t remaining_ = 0;    // body bytes still expected (fixed length or current chunk)
  std::size_t trailerLines_ = 0;  // trailer fields seen after the last chunk (capped by maxHeaders)
  bool started_ = false;
  int errorStatus_ = 0;
  std::string errorDetail_;
};

}  // namespace aev::http
