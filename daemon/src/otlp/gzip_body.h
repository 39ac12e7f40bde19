#pragma once
// Request bodies under Content-Encoding. OTLP/HTTP clients may gzip their requests, and
// the body limit applies before and after decompression (docs/api.md#otlp-ingest): a few KiB of
// gzip can inflate to gigabytes, so inflation stops at the limit instead of after it.
#include <cstddef>
#include <string>
#include <string_view>

namespace aev::otlp {

// Inflates a gzip body (one or more concatenated members, RFC 1952). Throws IngestError
// TooLarge when the input or the inflated output exceeds maxBytes, CorruptCompression
// when the data is not a complete, checksummed gzip stream.
std::string gunzipCapped(std::string_view gzipped, std::size_t maxBytes);

// The body as the decoders want it, given the request's Content-Encoding header:
// "" or "identity" keeps it, "gzip" (or "x-gzip") inflates it; anything else throws
// IngestError UnsupportedEncoding. Both paths enforce maxBytes.
std::string decodeContentEncoding(std::string body, std::string_view contentEncoding, std::size_t maxBytes);

}  // namespace aev::otlp
