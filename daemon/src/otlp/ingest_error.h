#pragma once
// The one error type of OTLP ingest. OTLP/HTTP answers failures with its own status
// codes and a google.rpc.Status body rather than problem+json (docs/api.md#otlp-ingest), so this
// module does not throw ApiError: the route maps an IngestError to that body itself.
#include <stdexcept>
#include <string>

namespace aev::otlp {

enum class IngestFailure {
  TooLarge,             // body over the limit before or after decompression → 413
  CorruptCompression,   // gzip that does not inflate (bad header, CRC, truncation) → 400
  UnsupportedEncoding,  // Content-Encoding other than gzip / identity → 415
  Malformed,            // protobuf or JSON that does not decode as a request → 400
};

class IngestError : public std::runtime_error {
 public:
  IngestError(IngestFailure failure, const std::string& message) : std::runtime_error(message), failure_(failure) {}

  IngestFailure failure() const { return failure_; }
  // The HTTP status the OTLP/HTTP specification asks for.
  int httpStatus() const;
  // The google.rpc.Code for Status.code (informational only: OTLP clients go by the HTTP status).
  int rpcCode() const;

 private:
  IngestFailure failure_;
};

}  // namespace aev::otlp
