// libFuzzer target for outbound URL validation (webhook endpoints, export destinations,
// plugin destinations) and the response headers read from remote servers. Checks:
//   - checkUrl never accepts a URL with whitespace or control bytes, or without http(s);
//   - refuseUrl with private addresses off refuses every URL whose host is a numeric
//     address that is not public, in whatever form Poco reads it (only numeric hosts
//     are tried: a fuzzer must not send DNS queries);
//   - checkHeader accepts only token names and values without CR, LF or NUL;
//   - parseRetryAfter reads only delta-seconds and never overflows.
#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>

#include <Poco/URI.h>
#include <agentevents/http_post.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "delivery/outbound_http.h"
#include "fuzz_support.h"

namespace {

// The host's address when it is a numeric literal getaddrinfo reads without DNS.
bool numericAddress(const std::string& host, sockaddr_storage& out) {
  addrinfo hints{};
  hints.ai_flags = AI_NUMERICHOST;
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), nullptr, &hints, &found) != 0 || !found) return false;
  std::memcpy(&out, found->ai_addr, found->ai_addrlen);
  freeaddrinfo(found);
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  using aev::fuzz::require;

  const std::string urlProblem = aev::http::checkUrl(input);
  if (urlProblem.empty()) {
    for (unsigned char c : input) require(c > 0x20 && c != 0x7f);
    std::string scheme = input.substr(0, input.find(':'));
    for (auto& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    require(scheme == "http" || scheme == "https");

    static const aev::delivery::OutboundHttp strict(aev::delivery::OutboundPolicy{});
    std::string host;
    try {
      host = Poco::URI(input).getHost();
    } catch (const std::exception&) {
    }
    sockaddr_storage address{};
    if (!host.empty() && numericAddress(host, address)) {
      const bool isPublic = aev::http::isPublicAddress(reinterpret_cast<const sockaddr*>(&address));
      require(strict.refuseUrl(input).empty() == isPublic);
    }
  }

  const auto colon = input.find(':');
  const std::string name = input.substr(0, colon), value = colon == std::string::npos ? "" : input.substr(colon + 1);
  if (aev::http::checkHeader(name, value).empty()) {
    require(!name.empty());
    for (unsigned char c : name) require(c > 0x20 && c < 0x7f && c != ':' && c != '"' && c != '(' && c != ')');
    for (unsigned char c : value) require(c != '\r' && c != '\n' && c != 0);
  }

  if (auto delay = aev::http::parseRetryAfter(input)) {
    require(delay->count() >= 0 && delay->count() <= 999999999LL * 1000);
  }
  return 0;
}
