#include "otlp/ingest_error.h"

namespace aev::otlp {

namespace {
// google.rpc.Code values (google/rpc/code.proto).
constexpr int kRpcInvalidArgument = 3;
constexpr int kRpcResourceExhausted = 8;
}  // namespace

int IngestError::httpStatus() const {
  switch (failure_) {
    case IngestFailure::TooLarge: return 413;
    case IngestFailure::UnsupportedEncoding: return 415;
    case IngestFailure::CorruptCompression:
    case IngestFailure::Malformed: return 400;
  }
  return 400;
}

int IngestError::rpcCode() const {
  // gRPC servers report an oversized message as RESOURCE_EXHAUSTED; everything else
  // here is bad data, which OTLP reports as INVALID_ARGUMENT.
  return failure_ == IngestFailure::TooLarge ? kRpcResourceExhausted : kRpcInvalidArgument;
}

}  // namespace aev::otlp
