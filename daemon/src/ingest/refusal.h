#pragma once
// Why an export to the OTLP routes was refused, whole or in part. OTLP exporters log a
// bare status and drop the body, so these reasons are what the operator and the
// organization see instead (docs/api.md#ingest-problems): a /metrics counter per reason,
// a warning in the log, and the organization's recent list.
#include <string_view>
#include <vector>

namespace aev::ingest {

enum class Refusal {
  Unauthenticated,       // 401 (or a 400 about the credentials themselves)
  Forbidden,             // 403: the key lacks `publish`, or x-tenant-id names another organization
  NoChannel,             // 400: no x-channel-id, resource attribute or default channel
  UnknownChannel,        // 400: a channel id that is not one of the organization's
  Malformed,             // 400: not an export request, or gzip that does not inflate
  TooLarge,              // 413
  UnsupportedMediaType,  // 415: Content-Type or Content-Encoding
  RateLimited,           // 429
  SpansInvalid,          // 200 partial_success: spans without valid ids, names or sizes
  SpansRefused,          // 200 partial_success: spans refused by moderation, spend or quota
};

const std::vector<Refusal>& allRefusals();
// The `reason` label and stored code: "no_channel".
std::string_view codeOf(Refusal r);
// For people: "no channel".
std::string_view phraseOf(Refusal r);

}  // namespace aev::ingest
