// The front end's HTTP/1.1 request parser: framing, limits and the smuggling defences.
#include "http/request_parser.h"

#include <gtest/gtest.h>

#include <string>

using aev::http::ParserLimits;
using aev::http::RequestParser;
using aev::http::WireRequest;
using State = RequestParser::State;

namespace {

// Feeds the whole input at once; returns the final state.
State parseAll(RequestParser& p, const std::string& in, std::size_t& pos) { return p.parse(in, pos); }

// Feeds the input one byte at a time, as a slow client would send it.
State parseBytewise(RequestParser& p, const std::string& in) {
  std::string buffer;
  std::size_t pos = 0;
  State s = State::kIncomplete;
  for (char c : in) {
    buffer.push_back(c);
    s = p.parse(buffer, pos);
    if (s != State::kIncomplete) return s;
  }
  return s;
}

// The status a parser with these limits refuses the input with (0: not refused).
int refusal(const std::string& in, ParserLimits limits = {}) {
  RequestParser p(limits);
  std::size_t pos = 0;
  return p.parse(in, pos) == State::kError ? p.errorStatus() : 0;
}

ParserLimits withBodyLimit(std::size_t bytes) {
  ParserLimits limits;
  limits.maxBodyBytes = bytes;
  return limits;
}

}  // namespace

TEST(RequestParser, SimpleGet) {
  RequestParser p;
  std::string in = "GET /healthz?x=1 HTTP/1.1\r\nHost: a:1\r\nX-Request-Id: abc\r\n\r\n";
  std::size_t pos = 0;
  ASSERT_EQ(parseAll(p, in, pos), State::kComplete);
  EXPECT_EQ(pos, in.size());
  auto r = p.take();
  EXPECT_EQ(r.method, "GET");
  EXPECT_EQ(r.target, "/healthz?x=1");
  EXPECT_EQ(r.versionMinor, 1);
  EXPECT_EQ(r.header("host"), "a:1");
  EXPECT_EQ(r.header("x-request-id"), "abc");
  EXPECT_TRUE(r.keepAlive);
  EXPECT_FALSE(r.hasBody);
  EXPECT_TRUE(r.body.empty());
}

TEST(RequestParser, ContentLengthBodyArrivingInPieces) {
  RequestParser p;
  std::string body = R"({"a":1})";
  std::string in =
      "POST /event HTTP/1.1\r\nHost: h\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  ASSERT_EQ(parseBytewise(p, in), State::kComplete);
  auto r = p.take();
  EXPECT_EQ(r.body, body);
  EXPECT_TRUE(r.hasBody);
}

TEST(RequestParser, PipelinedRequestsAreParsedOneAfterAnother) {
  RequestParser p;
  std::string in =
      "POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabcGET /b HTTP/1.1\r\nHost: h\r\n\r\nGET /c "
      "HTTP/1.1\r\nHost: h\r\nConnection: "
      "close\r\n\r\n";
  std::size_t pos = 0;
  ASSERT_EQ(p.parse(in, pos), State::kComplete);
  EXPECT_EQ(p.take().body, "abc");
  ASSERT_EQ(p.parse(in, pos), State::kComplete);
  EXPECT_EQ(p.take().target, "/b");
  ASSERT_EQ(p.parse(in, pos), State::kComplete);
  auto last = p.take();
  EXPECT_EQ(last.target, "/c");
  EXPECT_FALSE(last.keepAlive);
  EXPECT_EQ(pos, in.size());
  EXPECT_EQ(p.parse(in, pos), State::kIncomplete);
}

TEST(RequestParser, ChunkedBodyWithExtensionsAndTrailers) {
  RequestParser p;
  std::string in =
      "POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
      "4;ext=1\r\nWiki\r\n5\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\nX-Trailer: y\r\n\r\nGET /next "
      "HTTP/1.1\r\nHost: h\r\n\r\n";
  std::size_t pos = 0;
  ASSERT_EQ(p.parse(in, pos), State::kComplete);
  EXPECT_EQ(p.take().body, "Wikipedia in\r\n\r\nchunks.");
  ASSERT_EQ(p.parse(in, pos), State::kComplete);
  EXPECT_EQ(p.take().target, "/next");
  RequestParser slow;
  std::string once = in.substr(0, in.find("GET /next"));
  ASSERT_EQ(parseBytewise(slow, once), State::kComplete);
  EXPECT_EQ(slow.take().body, "Wikipedia in\r\n\r\nchunks.");
}

TEST(RequestParser, BareLineFeedsAreAccepted) {
  RequestParser p;
  std::string in = "GET / HTTP/1.1\nHost: x\n\n";
  std::size_t pos = 0;
  ASSERT_EQ(p.parse(in, pos), State::kComplete);
  EXPECT_EQ(p.take().header("host"), "x");
}

TEST(RequestParser, Http10KeepsAliveOnlyWhenAsked) {
  RequestParser p;
  std::string in = "GET / HTTP/1.0\r\n\r\nGET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n";
  std::size_t pos = 0;
  ASSERT_EQ(p.parse(in, pos), State::kComplete);
  EXPECT_FALSE(p.take().keepAlive);
  ASSERT_EQ(p.parse(in, pos), State::kComplete);
  EXPECT_TRUE(p.take().keepAlive);
}

TEST(RequestParser, ExpectContinueIsVisibleOnceTheHeadIsIn) {
  RequestParser p;
  std::string in = "POST /x HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n";
  std::size_t pos = 0;
  EXPECT_EQ(p.parse(in, pos), State::kIncomplete);
  EXPECT_TRUE(p.headComplete());
  EXPECT_TRUE(p.current().expectContinue);
  in += "hello";
  ASSERT_EQ(p.parse(in, pos), State::kComplete);
  EXPECT_EQ(p.take().body, "hello");
}

TEST(RequestParser, DeclaredBodyOverTheLimitFailsBeforeAnyBodyByte) {
  EXPECT_EQ(refusal("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 10000000000\r\n\r\n", withBodyLimit(10)), 413);
  EXPECT_EQ(refusal("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\n", withBodyLimit(10)), 0);
}

TEST(RequestParser, ChunkedBodyOverTheLimitFails) {
  EXPECT_EQ(
      refusal("POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n5\r\nworld\r\n0\r\n\r\n",
              withBodyLimit(8)),
      413);
}

TEST(RequestParser, HeadOverTheLimitIs431EvenWithoutItsEnd) {
  ParserLimits limits;
  limits.maxHeadBytes = 100;
  EXPECT_EQ(refusal("GET / HTTP/1.1\r\nHost: h\r\nX-Long: " + std::string(200, 'a'), limits), 431);
  limits.maxHeaders = 3;
  EXPECT_EQ(refusal("GET / HTTP/1.1\r\nHost: h\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n", limits), 431);
  EXPECT_EQ(refusal("GET / HTTP/1.1\r\nHost: h\r\nA: 1\r\nB: 2\r\n\r\n", limits), 0);  // Host counts
}

TEST(RequestParser, SmugglingShapesAreRefused) {
  const char* bad[] = {
      "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",  // both framings
      "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n",           // differing lengths
      "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n",
      "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1e3\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: h\r\nX: a\r\n folded\r\n\r\n",  // obs-fold
      "GET / HTTP/1.1\r\nHost: h\r\nX : a\r\n\r\n",            // space before colon
      "GET / HTTP/1.1\r\nHost: h\r\nNoColon\r\n\r\n",
      "GET  / HTTP/1.1\r\nHost: h\r\n\r\n",  // empty target
      "GET / HTTP/1.1 extra\r\n\r\n",
      "GET /\x01 HTTP/1.1\r\nHost: h\r\n\r\n",
      "G(T / HTTP/1.1\r\nHost: h\r\n\r\n",
      "GET / HTTX/1.1\r\n\r\n",
      "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",         // bad chunk size
      "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcd\r\n",  // chunk longer than declared
      "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: h\r\nX: a\x01b\r\n\r\n",
  };
  for (const char* raw : bad) EXPECT_EQ(refusal(raw), 400) << raw;
  EXPECT_EQ(refusal("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"), 501);
  EXPECT_EQ(refusal("GET / HTTP/2.0\r\n\r\n"), 505);
}

TEST(RequestParser, RepeatedHeaderKeepsTheLastValueAndOrder) {
  RequestParser p;
  std::string in = "GET / HTTP/1.1\r\nHost: h\r\nX-A: 1\r\nX-B: 2\r\nx-a: 3\r\n\r\n";
  std::size_t pos = 0;
  ASSERT_EQ(p.parse(in, pos), State::kComplete);
  auto r = p.take();
  ASSERT_EQ(r.headers.size(), 4u);
  EXPECT_EQ(r.headers[0].first, "host");
  EXPECT_EQ(r.headers[1].first, "x-a");
  EXPECT_EQ(r.header("x-a"), "3");
}

TEST(RequestParser, StartedTracksTheFirstByteOfARequest) {
  RequestParser p;
  std::string in = "\r\n";
  std::size_t pos = 0;
  EXPECT_EQ(p.parse(in, pos), State::kIncomplete);
  EXPECT_FALSE(p.started());  // leading empty lines are not a request yet
  in += "GE";
  EXPECT_EQ(p.parse(in, pos), State::kIncomplete);
  EXPECT_TRUE(p.started());
}
