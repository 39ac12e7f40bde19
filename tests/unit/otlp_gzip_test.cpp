// otlp/gzip_body.h: gzip request bodies, with the body limit before and after inflation.
#include <Poco/DeflatingStream.h>
#include <gtest/gtest.h>

#include <functional>
#include <sstream>

#include "otlp/gzip_body.h"
#include "otlp/ingest_error.h"

namespace aev::otlp {
namespace {

std::string gzip(const std::string& data) {
  std::ostringstream out;
  Poco::DeflatingOutputStream deflater(out, Poco::DeflatingStreamBuf::STREAM_GZIP);
  deflater << data;
  deflater.close();
  return out.str();
}

// Text that does not compress to nothing, so sizes in the tests mean something.
std::string sampleText(std::size_t bytes) {
  std::string out;
  for (std::size_t i = 0; out.size() < bytes; ++i) out += "span " + std::to_string(i * 7919 % 10007) + "; ";
  out.resize(bytes);
  return out;
}

IngestFailure failureOf(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const IngestError& e) {
    return e.failure();
  }
  ADD_FAILURE() << "expected an IngestError";
  return IngestFailure::Malformed;
}

TEST(OtlpGzip, RoundTrip) {
  const std::string original = sampleText(200'000);
  const std::string compressed = gzip(original);
  ASSERT_LT(compressed.size(), original.size());
  EXPECT_EQ(gunzipCapped(compressed, 1 << 20), original);
}

TEST(OtlpGzip, OutputExactlyAtTheLimitIsAccepted) {
  const std::string original = sampleText(100'000);
  EXPECT_EQ(gunzipCapped(gzip(original), original.size()), original);
}

TEST(OtlpGzip, OutputOverTheLimitIsTooLarge) {
  const std::string original = sampleText(100'000);
  EXPECT_EQ(failureOf([&] { gunzipCapped(gzip(original), original.size() - 1); }), IngestFailure::TooLarge);
}

TEST(OtlpGzip, BombStopsAtTheLimit) {
  // 64 MiB of zeros compress to about 64 KiB; inflation must stop at the 1 MiB cap.
  const std::string bomb = gzip(std::string(64u << 20, '\0'));
  ASSERT_LT(bomb.size(), 1u << 20);
  try {
    gunzipCapped(bomb, 1 << 20);
    FAIL() << "expected TooLarge";
  } catch (const IngestError& e) {
    EXPECT_EQ(e.failure(), IngestFailure::TooLarge);
    EXPECT_EQ(e.httpStatus(), 413);
    EXPECT_EQ(e.rpcCode(), 8);  // RESOURCE_EXHAUSTED
    EXPECT_STREQ(e.what(), "The request body exceeds 1048576 bytes.");
  }
}

TEST(OtlpGzip, CompressedInputOverTheLimitIsTooLarge) {
  const std::string compressed = gzip(sampleText(100'000));
  EXPECT_EQ(failureOf([&] { gunzipCapped(compressed, compressed.size() - 1); }), IngestFailure::TooLarge);
}

TEST(OtlpGzip, CorruptInputIsCorruptNotTooLarge) {
  const std::string compressed = gzip(sampleText(50'000));

  std::string flipped = compressed;
  flipped[flipped.size() / 2] = static_cast<char>(flipped[flipped.size() / 2] ^ 0x55);
  EXPECT_EQ(failureOf([&] { gunzipCapped(flipped, 1 << 20); }), IngestFailure::CorruptCompression);

  std::string badCrc = compressed;  // the CRC-32 is the trailer's first four bytes
  badCrc[badCrc.size() - 8] = static_cast<char>(badCrc[badCrc.size() - 8] ^ 0x01);
  EXPECT_EQ(failureOf([&] { gunzipCapped(badCrc, 1 << 20); }), IngestFailure::CorruptCompression);

  const std::string truncated = compressed.substr(0, compressed.size() - 4);
  try {
    gunzipCapped(truncated, 1 << 20);
    FAIL() << "expected CorruptCompression";
  } catch (const IngestError& e) {
    EXPECT_EQ(e.failure(), IngestFailure::CorruptCompression);
    EXPECT_EQ(e.httpStatus(), 400);
    EXPECT_NE(std::string(e.what()).find("ends before the gzip stream does"), std::string::npos) << e.what();
  }

  EXPECT_EQ(failureOf([] { gunzipCapped("not gzip at all", 1 << 20); }), IngestFailure::CorruptCompression);
  EXPECT_EQ(failureOf([] { gunzipCapped("", 1 << 20); }), IngestFailure::CorruptCompression);
  EXPECT_EQ(failureOf([&] { gunzipCapped(compressed + "trailing junk", 1 << 20); }), IngestFailure::CorruptCompression);
}

TEST(OtlpGzip, ConcatenatedMembersInflateToTheConcatenation) {
  EXPECT_EQ(gunzipCapped(gzip("first,") + gzip("second"), 1 << 20), "first,second");
  // The limit counts the output of every member together.
  EXPECT_EQ(failureOf([] { gunzipCapped(gzip("first,") + gzip("second"), 10); }), IngestFailure::TooLarge);
}

TEST(OtlpGzip, ContentEncodingHeader) {
  const std::string body = sampleText(1000);
  EXPECT_EQ(decodeContentEncoding(body, "", 1 << 20), body);
  EXPECT_EQ(decodeContentEncoding(body, "identity", 1 << 20), body);
  EXPECT_EQ(decodeContentEncoding(gzip(body), "gzip", 1 << 20), body);
  EXPECT_EQ(decodeContentEncoding(gzip(body), " GZip ", 1 << 20), body);
  EXPECT_EQ(decodeContentEncoding(gzip(body), "x-gzip", 1 << 20), body);
  EXPECT_EQ(failureOf([&] { decodeContentEncoding(body, "identity", body.size() - 1); }), IngestFailure::TooLarge);
  try {
    decodeContentEncoding(body, "br", 1 << 20);
    FAIL() << "expected UnsupportedEncoding";
  } catch (const IngestError& e) {
    EXPECT_EQ(e.failure(), IngestFailure::UnsupportedEncoding);
    EXPECT_EQ(e.httpStatus(), 415);
  }
}

}  // namespace
}  // namespace aev::otlp
