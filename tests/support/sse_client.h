#pragma once
// A raw-socket Server-Sent Events client for black-box tests: it sends the GET itself,
// parses the response head and the event stream incrementally (WHATWG "event stream
// interpretation": lines end in CRLF, LF or CR; `:` starts a comment; a blank line
// dispatches), and keeps every body byte so a test can also assert the exact framing.
//
// Sockets are non-blocking. One SseStream can be driven on its own with bounded
// blocking waits (next(), take(), waitClosed(), ...), or thousands of them by one
// SsePool on one epoll, in one thread.
//
//   SseStream s("127.0.0.1", port);
//   s.start("/channel/7/subscribe", {{"Authorization", "Bearer " + token}});
//   ASSERT_TRUE(s.waitHead(5s)) << s.describe();
//   auto m = s.next(5s);          // std::nullopt on timeout or when the stream ended
#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/http_client.h"

namespace aev::testing {

// One dispatched message.
struct SseMessage {
  std::string event;               // the `event:` field, "" when absent (a "message")
  std::optional<std::string> id;   // the `id:` field of this message, if it had one
  std::string data;                // `data:` lines joined with "\n"
  std::size_t dataLines = 0;       // how many `data:` lines it had
  std::string raw;                 // its bytes as received, up to and including the blank line

  // id as a number; throws when absent or not decimal.
  std::int64_t numericId() const;
  // data parsed as a JSON object; throws (quoting data) otherwise.
  Poco::JSON::Object::Ptr json() const;
};

class SseParser {
 public:
  void feed(std::string_view bytes);

  std::deque<SseMessage> messages;    // dispatched, not yet taken by the reader
  std::size_t dispatched = 0;         // messages dispatched so far (taken or not)
  std::vector<std::string> comments;  // text after ':' of every comment line
  std::vector<std::string> retries;   // values of every `retry:` field
  std::string lastEventId;            // the stream's last-event-id buffer

 private:
  void line(const std::string& l);
  std::string line_;
  std::string raw_;  // raw bytes of the message being built
  bool afterCR_ = false;
  std::string event_;
  std::optional<std::string> id_;
  std::string data_;
  std::size_t dataLines_ = 0;
  bool hasData_ = false;
};

class SseStream {
 public:
  enum class State { Idle, Connecting, Head, Body, Closed };

  SseStream(std::string host, int port);
  ~SseStream();
  SseStream(const SseStream&) = delete;
  SseStream& operator=(const SseStream&) = delete;

  // Opens a non-blocking connection and queues "GET <path>" with these headers (Host is
  // added, and Accept: text/event-stream unless given; no body, no Content-Length).
  // receiveBuffer > 0 sets SO_RCVBUF before connecting (a small window makes a subscriber
  // that stops reading fill up quickly). `method` other than GET sends a bodiless request
  // of that method exactly as a browser does (e.g. a CORS preflight OPTIONS). Throws when
  // the socket cannot be made.
  void start(const std::string& path, const Headers& headers = {}, int receiveBuffer = 0,
             const std::string& method = "GET");

  // Bounded blocking waits (poll on this socket). All return as soon as they can.
  // true once the response head has arrived (false on timeout or when it closed first).
  bool waitHead(std::chrono::milliseconds timeout);
  // The next dispatched message; std::nullopt on timeout or when the stream ended.
  std::optional<SseMessage> next(std::chrono::milliseconds timeout);
  // Up to n messages (fewer on timeout / end); check the size.
  std::vector<SseMessage> take(std::size_t n, std::chrono::milliseconds timeout);
  // Reads (and parses) until the server closes; true when it did within the timeout.
  bool waitClosed(std::chrono::milliseconds timeout);
  // Reads until pred() holds (true) or the timeout / end of stream (false).
  bool waitUntil(const std::function<bool()>& pred, std::chrono::milliseconds timeout);
  // A non-200 answer: reads its body (Content-Length) and returns it as an HttpResult.
  HttpResult readResponse(std::chrono::milliseconds timeout);
  // Closes our side (an abrupt disconnect, as a browser tab going away).
  void close();

  // For multiplexing (SsePool): the socket, what to wait for, and the handlers. Each
  // handler does what it can without blocking; returns false once the stream is closed.
  int fd() const { return fd_; }
  bool wantsWrite() const { return state_ == State::Connecting || !pendingOut_.empty(); }
  bool onReadable();
  bool onWritable();

  State state() const { return state_; }
  bool headReceived() const { return state_ == State::Body || (state_ == State::Closed && headDone_); }
  bool closed() const { return state_ == State::Closed; }
  // Why it closed: "eof", an errno text, or "" while open.
  const std::string& closeReason() const { return closeReason_; }
  // Response head (status, reason, headers); status 0 before the head arrived.
  const HttpResult& response() const { return response_; }
  int status() const { return response_.status; }
  bool isEventStream() const;
  // Every body byte received so far (after the head).
  const std::string& body() const { return body_; }
  SseParser& parser() { return parser_; }
  const SseParser& parser() const { return parser_; }
  // Messages dispatched so far, including those already taken with next().
  std::size_t messageCount() const { return parser_.dispatched; }
  const std::string& path() const { return path_; }
  // "GET /path → 200, 3 messages, closed (eof), body: ..." for failure messages.
  std::string describe() const;

 private:
  bool waitIo(std::chrono::steady_clock::time_point deadline);
  void fail(const std::string& why);
  void parseHead();

  std::string host_;
  int port_;
  int fd_ = -1;
  State state_ = State::Idle;
  std::string path_;
  std::string pendingOut_;
  std::string headBuf_;
  bool headDone_ = false;
  std::string body_;
  std::optional<std::size_t> contentLength_;
  std::string closeReason_;
  HttpResult response_;
  SseParser parser_;
};

// Many SseStreams on one epoll in the calling thread.
class SsePool {
 public:
  SsePool(std::string host, int port) : host_(std::move(host)), port_(port) {}
  ~SsePool();

  // Opens `count` streams on `path`, at most `maxInFlight` whose head has not arrived
  // yet at a time, and waits until each has its head and its first `retry:` (so it is
  // registered with the server). Returns "" on success, else what went wrong.
  std::string open(std::size_t count, const std::string& path, const Headers& headers, std::size_t maxInFlight,
                   std::chrono::milliseconds timeout);
  // Drives every stream until done() holds (true) or the timeout passes (false).
  bool pumpUntil(const std::function<bool()>& done, std::chrono::milliseconds timeout);

  std::vector<std::unique_ptr<SseStream>>& streams() { return streams_; }
  std::size_t size() const { return streams_.size(); }

 private:
  void watch(SseStream& s, bool add);
  void pumpOnce(int waitMs);
  std::string host_;
  int port_;
  int epollFd_ = -1;
  std::vector<std::unique_ptr<SseStream>> streams_;
};

// Raises this process's RLIMIT_NOFILE soft limit to min(want, hard); children (the
// daemon) inherit it. Returns the soft limit in force afterwards.
rlim_t raiseFileLimit(rlim_t want);

}  // namespace aev::testing
