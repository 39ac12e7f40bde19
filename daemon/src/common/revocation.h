#pragma once
// "Access was withdrawn": a revoked API key, a member removed from an organization, a
// disabled or deleted user, a deleted organization. Services announce it; the stream
// hub ends the matching open streams at once (a stream outliving its credentials would
// keep leaking events). Fields left empty match anything.
#include <cstdint>
#include <functional>
#include <optional>

namespace aev {

struct Revocation {
  std::optional<std::int64_t> orgId;
  std::optional<std::int64_t> userId;
  std::optional<std::int64_t> apiKeyId;
};

using RevocationListener = std::function<void(const Revocation&)>;

}  // namespace aev
