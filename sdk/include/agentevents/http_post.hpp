// Optional helper for plugins that ship bytes over HTTP themselves (exporters, alert sinks):
// one POST with libcurl, under the daemon's outbound rules (docs/plugins.md, "Writing an export sink"):
//   - only http and https; redirects are not followed;
//   - the address actually connected to is checked: loopback, private, link-local,
//     shared, multicast and cloud-metadata ranges are refused unless allowed;
//   - a timeout bounds every attempt (use aev::Call::deadline()); the response body is
//     read up to a cap; environment proxies are ignored unless a proxy is configured.
// Header-only; including it requires linking libcurl (CMake: AgentEvents::PluginSdkHttp).
// Call curlGlobalInit() from an aev::onLoad hook (start-up thread) before any request.
#pragma once

#include <curl/curl.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <agentevents/json.hpp>
#include <agentevents/plugin.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace aev::http {
// Everything here is compiled into each plugin (and into the daemon's delivery engine).
// The inline namespace gives it its own symbol names, so a program that also has other
// aev::http types (the daemon's own Request/Response) never links two different classes
// under one name (an ODR violation: the linker keeps one constructor for both).
inline namespace sdk_v1 {

// ------------------------------------------------------------------ address policy

// True for addresses a server on the public internet may have. IPv4-mapped and NAT64
// IPv6 addresses are judged by the IPv4 address inside them.
inline bool isPublicIPv4(std::uint32_t a /* host order */) {
  auto in = [a](std::uint32_t net, int bits) {
    std::uint32_t mask = bits == 0 ? 0 : ~std::uint32_t(0) << (32 - bits);
    return (a & mask) == net;
  };
  return !(in(0x00000000, 8) ||     // "this" network
           in(0x0A000000, 8) ||     // 10/8 private
           in(0x64400000, 10) ||    // 100.64/10 shared (CGNAT)
           in(0x7F000000, 8) ||     // loopback
           in(0xA9FE0000, 16) ||    // 169.254/16 link-local, cloud metadata
           in(0xAC100000, 12) ||    // 172.16/12 private
           in(0xC0000000, 24) ||    // 192.0.0/24 protocol assignments
           in(0xC0000200, 24) ||    // 192.0.2/24 documentation
           in(0xC0A80000, 16) ||    // 192.168/16 private
           in(0xC6120000, 15) ||    // 198.18/15 benchmarking
           in(0xC6336400, 24) ||    // 198.51.100/24 documentation
           in(0xCB007100, 24) ||    // 203.0.113/24 documentation
           in(0xE0000000, 4) ||     // multicast
           in(0xF0000000, 4));      // reserved, broadcast
}

inline bool isPublicAddress(const sockaddr* sa) {
  if (!sa) return false;
  if (sa->sa_family == AF_INET) {
    const auto* in4 = reinterpret_cast<const sockaddr_in*>(sa);
    return isPublicIPv4(ntohl(in4->sin_addr.s_addr));
  }
  if (sa->sa_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(sa);
    const unsigned char* b = in6->sin6_addr.s6_addr;
    static const unsigned char zeros[16] = {0};
    auto v4At = [b](int off) {
      return (std::uint32_t(b[off]) << 24) | (std::uint32_t(b[off + 1]) << 16) | (std::uint32_t(b[off + 2]) << 8) |
             std::uint32_t(b[off + 3]);
    };
    if (std::memcmp(b, zeros, 15) == 0 && (b[15] == 0 || b[15] == 1)) return false;  // :: and ::1
    static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (std::memcmp(b, mapped, 12) == 0) return isPublicIPv4(v4At(12));
    static const unsigned char nat64[12] = {0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0};
    if (std::memcmp(b, nat64, 12) == 0) return isPublicIPv4(v4At(12));
    if ((b[0] & 0xfe) == 0xfc) return false;                  // fc00::/7 unique local
    if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) return false;  // fe80::/10 link-local
    if (b[0] == 0xff) return false;                           // multicast
    if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8) return false;  // documentation
    return true;
  }
  return false;
}

// ------------------------------------------------------------------ request and response

struct Request {
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;  // e.g. {"content-type", "application/json"}
  std::string body;
  std::chrono::milliseconds timeout{10000};
  // Bound on connecting alone (DNS, TCP, TLS); unset: the whole timeout.
  std::optional<std::chrono::milliseconds> connectTimeout;
  bool allowPrivateAddresses = false;
  std::size_t maxResponseBytes = 64 * 1024;
  std::string proxy;  // empty: connect directly (environment proxies are ignored)
};

struct Response {
  long status = 0;          // HTTP status; 0 when there was no HTTP answer
  std::string body;         // at most Request::maxResponseBytes
  std::optional<std::chrono::milliseconds> retryAfter;  // from a Retry-After header (seconds form)
  std::string error;        // transport error, empty when an answer arrived
  bool refusedByPolicy = false;  // every address was refused by the outbound address policy
};

// Problems with a URL before any request: empty when acceptable.
inline std::string checkUrl(std::string_view url) {
  auto lower = std::string(url.substr(0, 8));
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower.rfind("http://", 0) != 0 && lower.rfind("https://", 0) != 0)
    return "URL must start with http:// or https://";
  for (unsigned char c : url)
    if (c <= 0x20 || c == 0x7f) return "URL contains whitespace or control characters";
  auto rest = url.substr(url.find("//") + 2);
  if (rest.empty() || rest.front() == '/' || rest.front() == ':') return "URL has no host";
  return {};
}

// Problems with a header before any request: empty when acceptable (no CR/LF injection).
inline std::string checkHeader(std::string_view name, std::string_view value) {
  if (name.empty()) return "header name is empty";
  for (unsigned char c : name)
    // c != 0: strchr finds every string's terminating NUL, so a NUL would pass as a tchar.
    if (!(std::isalnum(c) || (c != 0 && std::strchr("!#$%&'*+-.^_`|~", c))))
      return "header name has invalid characters";
  for (unsigned char c : value)
    if (c == '\r' || c == '\n' || c == 0) return "header value contains CR, LF or NUL";
  return {};
}

// Parses the delta-seconds form of Retry-After ("120"); the HTTP-date form is ignored.
inline std::optional<std::chrono::milliseconds> parseRetryAfter(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t' || v.back() == '\r' || v.back() == '\n'))
    v.remove_suffix(1);
  if (v.empty() || v.size() > 9) return std::nullopt;
  std::int64_t s = 0;
  for (char c : v) {
    if (c < '0' || c > '9') return std::nullopt;
    s = s * 10 + (c - '0');
  }
  return std::chrono::milliseconds(s * 1000);
}

// How a response maps onto the ABI's results. OTLP/HTTP retries only 429, 502, 503, 504
// (OTLP specification); generic receivers also 408, 425 and every other 5xx.
enum class RetryRule { Generic, Otlp };

inline Status classify(const Response& r, RetryRule rule = RetryRule::Generic) {
  if (r.status == 0) return Status::Retry;  // no answer: network, timeout, refused address
  if (r.status >= 200 && r.status < 300) return Status::Ok;
  if (r.status == 429 || r.status == 502 || r.status == 503 || r.status == 504) return Status::Retry;
  if (rule == RetryRule::Generic && (r.status == 408 || r.status == 425 || r.status >= 500)) return Status::Retry;
  return Status::Permanent;
}

// Reports a response on the call (status, body excerpt, retry hint, error message).
inline Status report(const Response& r, const Call& call, RetryRule rule = RetryRule::Generic) {
  Status s = classify(r, rule);
  call.response(static_cast<int>(r.status), r.status ? std::string_view(r.body) : std::string_view(r.error));
  if (s == Status::Retry && r.retryAfter) call.retryAfter(*r.retryAfter);
  if (s != Status::Ok) {
    if (r.status == 0) call.error(r.error);
    else call.error("HTTP " + std::to_string(r.status) + (r.body.empty() ? "" : ": " + r.body.substr(0, 200)));
  }
  return s;
}

// ------------------------------------------------------------------ destination settings

// Where and how to POST, read from an instance configuration (a JSON object):
//   "<urlKey>": "https://..."        required (e.g. "endpointUrl" for exporters, "url" for alert sinks)
//   "headers": {"name": "value"}     optional; values are secrets: never log them
//   "timeoutMs": 10000               optional upper bound (the call deadline also bounds it)
//   "allowPrivateAddresses": false   optional; the daemon passes outbound.allow_private_addresses
//   "proxy": "http://proxy:3128"     optional
// The plugin setting plugins.<plugin>.allow_private_addresses = true also allows them.
// Throws ConfigError with a message naming the field.
struct Destination {
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::chrono::milliseconds timeout{10000};
  bool allowPrivateAddresses = false;
  std::string proxy;
};

inline Destination parseDestination(const json::Value& cfg, const Host& host, std::string_view urlKey) {
  if (!cfg.isObject()) throw ConfigError("configuration must be a JSON object");
  Destination d;
  const json::Value* url = cfg.find(urlKey);
  if (!url || !url->isString() || url->text().empty())
    throw ConfigError(std::string(urlKey) + " is required (an http:// or https:// URL)");
  if (auto problem = checkUrl(url->text()); !problem.empty()) throw ConfigError(std::string(urlKey) + ": " + problem);
  d.url = url->text();
  if (const json::Value* h = cfg.find("headers"); h && !h->isNull()) {
    if (!h->isObject()) throw ConfigError("headers must be an object of strings");
    for (const auto& [name, value] : h->members()) {
      if (!value.isString()) throw ConfigError("headers." + name + " must be a string");
      if (auto problem = checkHeader(name, value.text()); !problem.empty())
        throw ConfigError("headers." + name + ": " + problem);
      d.headers.emplace_back(name, value.text());
    }
  }
  if (const json::Value* t = cfg.find("timeoutMs"); t && !t->isNull()) {
    if (!t->isInteger() || t->asInt() < 1 || t->asInt() > 600000)
      throw ConfigError("timeoutMs must be an integer between 1 and 600000");
    d.timeout = std::chrono::milliseconds(t->asInt());
  }
  if (const json::Value* a = cfg.find("allowPrivateAddresses"); a && !a->isNull()) {
    if (!a->isBool()) throw ConfigError("allowPrivateAddresses must be a boolean");
    d.allowPrivateAddresses = a->asBool();
  }
  d.allowPrivateAddresses = d.allowPrivateAddresses || host.configBool("allow_private_addresses", false);
  if (const json::Value* p = cfg.find("proxy"); p && p->isString() && !p->text().empty()) {
    if (auto problem = checkUrl(p->text()); !problem.empty()) throw ConfigError("proxy: " + problem);
    d.proxy = p->text();
  }
  return d;
}

// A request to the destination, bounded by both its timeout and the call's deadline.
inline Request requestTo(const Destination& d, const Call& call, std::string body, std::string_view contentType) {
  Request r;
  r.url = d.url;
  r.headers = d.headers;
  r.headers.emplace_back("content-type", std::string(contentType));
  r.body = std::move(body);
  r.timeout = std::min(d.timeout, std::max(std::chrono::milliseconds(1), call.deadline()));
  r.allowPrivateAddresses = d.allowPrivateAddresses;
  r.proxy = d.proxy;
  return r;
}

// ------------------------------------------------------------------ client

inline void curlGlobalInit() {
  static const CURLcode rc = curl_global_init(CURL_GLOBAL_DEFAULT);
  if (rc != CURLE_OK) throw std::runtime_error("curl_global_init failed");
}

// One libcurl easy handle, reused so keep-alive connections survive between batches.
// Not thread-safe: one Client per exporter instance (calls are serialised per instance).
class Client {
 public:
  Client() : curl_(curl_easy_init()) {
    if (!curl_) throw std::runtime_error("curl_easy_init failed");
  }
  ~Client() { curl_easy_cleanup(curl_); }
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  Response post(const Request& req) {
    State st;
    st.maxBytes = req.maxResponseBytes;
    st.allowPrivate = req.allowPrivateAddresses;

    curl_easy_reset(curl_);
    curl_slist* headers = nullptr;
    for (const auto& [name, value] : req.headers) headers = curl_slist_append(headers, (name + ": " + value).c_str());
    headers = curl_slist_append(headers, "Expect:");  // no 100-continue round trip

    char errbuf[CURL_ERROR_SIZE] = {0};
    long timeoutMs = static_cast<long>(std::max<std::int64_t>(1, req.timeout.count()));
    curl_easy_setopt(curl_, CURLOPT_URL, req.url.c_str());
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(curl_, CURLOPT_PROTOCOLS_STR, "http,https");
#else
    curl_easy_setopt(curl_, CURLOPT_PROTOCOLS, static_cast<long>(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
    curl_easy_setopt(curl_, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl_, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl_, CURLOPT_TIMEOUT_MS, timeoutMs);
    long connectMs = req.connectTimeout ? static_cast<long>(std::max<std::int64_t>(1, req.connectTimeout->count())) : timeoutMs;
    curl_easy_setopt(curl_, CURLOPT_CONNECTTIMEOUT_MS, std::min(connectMs, timeoutMs));
    curl_easy_setopt(curl_, CURLOPT_PROXY, req.proxy.c_str());
    curl_easy_setopt(curl_, CURLOPT_POST, 1L);
    curl_easy_setopt(curl_, CURLOPT_POSTFIELDS, req.body.data());
    curl_easy_setopt(curl_, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(req.body.size()));
    curl_easy_setopt(curl_, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl_, CURLOPT_USERAGENT, "agent-eventsd-plugin/1");
    curl_easy_setopt(curl_, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(curl_, CURLOPT_WRITEFUNCTION, &Client::onBody);
    curl_easy_setopt(curl_, CURLOPT_WRITEDATA, &st);
    curl_easy_setopt(curl_, CURLOPT_HEADERFUNCTION, &Client::onHeader);
    curl_easy_setopt(curl_, CURLOPT_HEADERDATA, &st);
    curl_easy_setopt(curl_, CURLOPT_OPENSOCKETFUNCTION, &Client::onOpenSocket);
    curl_easy_setopt(curl_, CURLOPT_OPENSOCKETDATA, &st);

    CURLcode rc = curl_easy_perform(curl_);
    curl_slist_free_all(headers);

    Response r;
    if (rc == CURLE_OK) {
      curl_easy_getinfo(curl_, CURLINFO_RESPONSE_CODE, &r.status);
      r.body = std::move(st.body);
      r.retryAfter = st.retryAfter;
    } else if (st.refused) {
      r.refusedByPolicy = true;
      r.error = "refused by outbound policy: " + st.refusedAddress +
                " is a loopback, private, link-local or reserved address (allowPrivateAddresses is off)";
    } else {
      r.error = std::string(curl_easy_strerror(rc)) + (errbuf[0] ? std::string(": ") + errbuf : "");
    }
    return r;
  }

 private:
  struct State {
    std::string body;
    std::size_t maxBytes = 0;
    std::optional<std::chrono::milliseconds> retryAfter;
    bool allowPrivate = false;
    bool refused = false;
    std::string refusedAddress;
  };

  static size_t onBody(char* data, size_t size, size_t n, void* user) {
    auto* st = static_cast<State*>(user);
    size_t len = size * n;
    if (st->body.size() < st->maxBytes) st->body.append(data, std::min(len, st->maxBytes - st->body.size()));
    return len;  // keep reading (and discarding) so the connection stays reusable
  }

  static size_t onHeader(char* data, size_t size, size_t n, void* user) {
    auto* st = static_cast<State*>(user);
    std::string_view line(data, size * n);
    if (line.rfind("HTTP/", 0) == 0) st->retryAfter.reset();  // a new (final) response begins
    constexpr std::string_view name = "retry-after:";
    if (line.size() > name.size()) {
      bool match = true;
      for (size_t i = 0; i < name.size() && match; ++i)
        match = std::tolower(static_cast<unsigned char>(line[i])) == name[i];
      if (match) st->retryAfter = parseRetryAfter(line.substr(name.size()));
    }
    return size * n;
  }

  static curl_socket_t onOpenSocket(void* user, curlsocktype purpose, curl_sockaddr* address) {
    auto* st = static_cast<State*>(user);
    if (purpose == CURLSOCKTYPE_IPCXN && !st->allowPrivate && !isPublicAddress(&address->addr)) {
      char text[INET6_ADDRSTRLEN] = "?";
      if (address->family == AF_INET)
        inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(&address->addr)->sin_addr, text, sizeof text);
      else if (address->family == AF_INET6)
        inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(&address->addr)->sin6_addr, text, sizeof text);
      st->refused = true;
      st->refusedAddress = text;
      return CURL_SOCKET_BAD;
    }
    return socket(address->family, address->socktype, address->protocol);
  }

  CURL* curl_;
};

}  // namespace sdk_v1
}  // namespace aev::http
