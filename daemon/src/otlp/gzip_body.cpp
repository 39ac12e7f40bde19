// zlib directly rather than Poco::InflatingInputStream: the stream reports a truncated or
// corrupt body through iostream state, which cannot tell "corrupt" from "ended early",
// and it cannot stop at an output limit. zlib comes with Poco::Foundation (ZLIB::ZLIB).
#include "otlp/gzip_body.h"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <climits>

#include "otlp/ingest_error.h"

namespace aev::otlp {

namespace {

// windowBits + 16: accept the gzip wrapper only (not raw deflate or zlib), as
// Content-Encoding: gzip promises.
constexpr int kGzipWindowBits = 16 + MAX_WBITS;
constexpr std::size_t kChunkBytes = 64 * 1024;

IngestError tooLarge(std::size_t maxBytes) {
  return IngestError(IngestFailure::TooLarge, "The request body exceeds " + std::to_string(maxBytes) + " bytes.");
}

IngestError corrupt(const std::string& why) {
  return IngestError(IngestFailure::CorruptCompression, "The gzip request body is invalid: " + why + ".");
}

// Owns the z_stream so every exit path, thrown or not, releases zlib's state.
class Inflater {
 public:
  Inflater() {
    if (inflateInit2(&stream_, kGzipWindowBits) != Z_OK) throw corrupt("zlib could not start");
  }
  ~Inflater() { inflateEnd(&stream_); }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  z_stream& stream() { return stream_; }

 private:
  z_stream stream_{};
};

std::string lowerTrimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

}  // namespace

std::string gunzipCapped(std::string_view gzipped, std::size_t maxBytes) {
  if (gzipped.size() > maxBytes) throw tooLarge(maxBytes);
  if (gzipped.empty()) throw corrupt("the body is empty");

  Inflater inflater;
  z_stream& zs = inflater.stream();
  const auto* next = reinterpret_cast<const Bytef*>(gzipped.data());
  std::size_t unfed = gzipped.size();
  std::string out;
  char chunk[kChunkBytes];

  for (;;) {
    // avail_in is a uInt: hand over the input in pieces it can count.
    if (zs.avail_in == 0 && unfed > 0) {
      const auto piece = static_cast<uInt>(std::min<std::size_t>(unfed, UINT_MAX));
      zs.next_in = const_cast<Bytef*>(next);  // zlib's API is not const-correct; it never writes input
      zs.avail_in = piece;
      next += piece;
      unfed -= piece;
    }
    zs.next_out = reinterpret_cast<Bytef*>(chunk);
    zs.avail_out = sizeof chunk;
    const int rc = inflate(&zs, Z_NO_FLUSH);
    const std::size_t produced = sizeof chunk - zs.avail_out;
    if (produced > maxBytes - out.size()) throw tooLarge(maxBytes);
    out.append(chunk, produced);

    if (rc == Z_STREAM_END) {
      if (zs.avail_in == 0 && unfed == 0) return out;
      // Another gzip member follows (gzip -c a b > c makes such bodies); RFC 1952
      // defines the concatenation as the concatenated contents.
      if (inflateReset(&zs) != Z_OK) throw corrupt("zlib could not restart");
      continue;
    }
    if (rc == Z_OK) continue;
    // Z_BUF_ERROR with every byte consumed: the stream stopped before its end.
    if (rc == Z_BUF_ERROR && zs.avail_in == 0 && unfed == 0) throw corrupt("it ends before the gzip stream does");
    throw corrupt(zs.msg != nullptr ? zs.msg : "zlib error " + std::to_string(rc));
  }
}

std::string decodeContentEncoding(std::string body, std::string_view contentEncoding, std::size_t maxBytes) {
  const std::string coding = lowerTrimmed(contentEncoding);
  if (coding.empty() || coding == "identity") {
    if (body.size() > maxBytes) throw tooLarge(maxBytes);
    return body;
  }
  if (coding == "gzip" || coding == "x-gzip") return gunzipCapped(body, maxBytes);
  throw IngestError(IngestFailure::UnsupportedEncoding,
                    "Content-Encoding '" + std::string(contentEncoding) + "' is not supported; use gzip or none.");
}

}  // namespace aev::otlp
