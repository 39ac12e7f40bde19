// libFuzzer target for gzip request bodies (Content-Encoding: gzip on OTLP/HTTP). Two
// properties: arbitrary bytes are refused only with IngestError, whatever the cap; and
// the input gzipped by zlib itself inflates back to exactly the input when it fits the
// cap, and is refused as TooLarge (never truncated) when it does not.
#include <zlib.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "fuzz_support.h"
#include "otlp/gzip_body.h"
#include "otlp/ingest_error.h"

namespace {

std::string gzip(const std::string& in) {
  z_stream z{};
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) std::abort();
  std::string out(deflateBound(&z, in.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  if (deflate(&z, Z_FINISH) != Z_STREAM_END) std::abort();
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  // First byte: the cap, from tiny to comfortably large.
  const std::size_t cap = data[0] < 128 ? data[0] : std::size_t(data[0]) * 64;
  const std::string input(reinterpret_cast<const char*>(data) + 1, size - 1);

  for (const char* encoding : {"gzip", "x-gzip", "identity", "", "br"}) {
    try {
      auto out = aev::otlp::decodeContentEncoding(input, encoding, cap);
      aev::fuzz::require(out.size() <= cap);
    } catch (const aev::otlp::IngestError&) {
    }
  }

  const std::string packed = gzip(input);
  try {
    auto out = aev::otlp::gunzipCapped(packed, cap);
    aev::fuzz::require(out == input);  // it fit: nothing lost, nothing added
  } catch (const aev::otlp::IngestError& e) {
    // Refused only because the input or the output is over the cap.
    aev::fuzz::require(e.failure() == aev::otlp::IngestFailure::TooLarge);
    aev::fuzz::require(input.size() > cap || packed.size() > cap);
  }
  // Two members back to back are one body (RFC 1952 allows several).
  if (2 * input.size() <= cap && 2 * packed.size() <= cap) {
    try {
      aev::fuzz::require(aev::otlp::gunzipCapped(packed + packed, cap) == input + input);
    } catch (const aev::otlp::IngestError&) {
      std::abort();
    }
  }
  return 0;
}
