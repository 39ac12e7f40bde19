#pragma once
// Outbound HTTP under docs/features.md#outbound-requests, for every sender of the delivery engine: libcurl
// through the SDK's client (sdk/include/agentevents/http_post.hpp: http/https only, no
// redirects, the connected address checked against the private-range policy at connect
// time, so DNS rebinding is caught too, timeouts, a response cap). One libcurl handle
// per thread keeps connections alive between deliveries.
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace aev::delivery {

struct OutboundPolicy {
  bool allowPrivateAddresses = false;           // outbound.allow_private_addresses
  std::chrono::milliseconds connectTimeout{5000};  // outbound.connect_timeout_ms
  std::chrono::milliseconds timeout{15000};     // outbound.timeout_ms (whole attempt)
  std::size_t maxResponseBytes = 64 * 1024;     // outbound.max_response_bytes
};

struct OutboundRequest {
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

struct OutboundResponse {
  long status = 0;  // 0: no HTTP answer (see error)
  std::string body;  // at most maxResponseBytes
  std::optional<std::chrono::milliseconds> retryAfter;
  std::string error;  // transport problem or the policy refusal, naming it
  bool refusedByPolicy = false;
  std::chrono::milliseconds elapsed{0};
};

class OutboundHttp {
 public:
  explicit OutboundHttp(OutboundPolicy policy);
  const OutboundPolicy& policy() const { return policy_; }

  OutboundResponse post(const OutboundRequest& request) const;

  // Why a URL is refused when an endpoint or destination is created (empty: accepted):
  // not http/https, no host, or (with private addresses off) a host that is or resolves
  // to a loopback, private, link-local or metadata address. A host that does not
  // resolve now is accepted: each attempt checks the address again.
  std::string refuseUrl(const std::string& url) const;

 private:
  OutboundPolicy policy_;
};

}  // namespace aev::delivery
