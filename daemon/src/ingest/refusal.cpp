#include "ingest/refusal.h"

namespace aev::ingest {

const std::vector<Refusal>& allRefusals() {
  static const std::vector<Refusal> all = {Refusal::Unauthenticated,      Refusal::Forbidden,   Refusal::NoChannel,
                                           Refusal::UnknownChannel,       Refusal::Malformed,   Refusal::TooLarge,
                                           Refusal::UnsupportedMediaType, Refusal::RateLimited, Refusal::SpansInvalid,
                                           Refusal::SpansRefused};
  return all;
}

std::string_view codeOf(Refusal r) {
  switch (r) {
    case Refusal::Unauthenticated:
      return "unauthenticated";
    case Refusal::Forbidden:
      return "forbidden";
    case Refusal::NoChannel:
      return "no_channel";
    case Refusal::UnknownChannel:
      return "unknown_channel";
    case Refusal::Malformed:
      return "malformed";
    case Refusal::TooLarge:
      return "too_large";
    case Refusal::UnsupportedMediaType:
      return "unsupported_media_type";
    case Refusal::RateLimited:
      return "rate_limited";
    case Refusal::SpansInvalid:
      return "spans_invalid";
    case Refusal::SpansRefused:
      return "spans_refused";
  }
  return "unknown";
}

std::string_view phraseOf(Refusal r) {
  switch (r) {
    case Refusal::Unauthenticated:
      return "bad or missing credentials";
    case Refusal::Forbidden:
      return "key not allowed to publish";
    case Refusal::NoChannel:
      return "no channel";
    case Refusal::UnknownChannel:
      return "unknown channel";
    case Refusal::Malformed:
      return "malformed body";
    case Refusal::TooLarge:
      return "body too large";
    case Refusal::UnsupportedMediaType:
      return "unsupported content type or encoding";
    case Refusal::RateLimited:
      return "rate limited";
    case Refusal::SpansInvalid:
      return "invalid spans";
    case Refusal::SpansRefused:
      return "spans refused";
  }
  return "unknown";
}

}  // namespace aev::ingest
