#include "delivery/outbound_http.h"

#include <Poco/URI.h>
#include <netdb.h>

#include <agentevents/http_post.hpp>

namespace aev::delivery {

OutboundHttp::OutboundHttp(OutboundPolicy policy) : policy_(policy) { aev::http::curlGlobalInit(); }

OutboundResponse OutboundHttp::post(const OutboundRequest& request) const {
  // One handle per thread: the engine's workers each keep their own connections.
  thread_local aev::http::Client client;
  aev::http::Request r;
  r.url = request.url;
  r.headers = request.headers;
  r.body = request.body;
  r.timeout = policy_.timeout;
  r.connectTimeout = policy_.connectTimeout;
  r.allowPrivateAddresses = policy_.allowPrivateAddresses;
  r.maxResponseBytes = policy_.maxResponseBytes;
  const auto started = std::chrono::steady_clock::now();
  auto answer = client.post(r);
  OutboundResponse out;
  out.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
  out.status = answer.status;
  out.body = std::move(answer.body);
  out.retryAfter = answer.retryAfter;
  out.error = std::move(answer.error);
  out.refusedByPolicy = answer.refusedByPolicy;
  if (out.refusedByPolicy) out.error += " (config outbound.allow_private_addresses)";
  return out;
}

std::string OutboundHttp::refuseUrl(const std::string& url) const {
  if (auto problem = aev::http::checkUrl(url); !problem.empty()) return problem;
  std::string host;
  try {
    Poco::URI uri(url);
    host = uri.getHost();
  } catch (const std::exception&) {
    return "URL does not parse";
  }
  if (host.empty()) return "URL has no host";
  if (policy_.allowPrivateAddresses) return {};
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), nullptr, &hints, &found) != 0 || !found) return {};
  std::string refused;
  for (auto* a = found; a && refused.empty(); a = a->ai_next) {
    if (aev::http::isPublicAddress(a->ai_addr)) continue;
    char text[INET6_ADDRSTRLEN] = "?";
    if (a->ai_family == AF_INET)
      inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(a->ai_addr)->sin_addr, text, sizeof text);
    else if (a->ai_family == AF_INET6)
      inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(a->ai_addr)->sin6_addr, text, sizeof text);
    refused = "refused by outbound policy: " + host + " is or resolves to " + text +
              ", a loopback, private, link-local or reserved address (config outbound.allow_private_addresses)";
  }
  freeaddrinfo(found);
  return refused;
}

}  // namespace aev::delivery
