#pragma once
// A small blocking HTTP/1.1 client for black-box tests (one connection per request).
#include <Poco/Dynamic/Var.h>
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace aev::testing {

using Headers = std::vector<std::pair<std::string, std::string>>;

struct HttpResult {
  int status = 0;
  std::string reason;
  Headers headers;
  std::string body;
  std::string method;
  std::string path;

  // Case-insensitive; "" when absent.
  std::string header(const std::string& name) const;
  bool hasHeader(const std::string& name) const;
  std::string contentType() const { return header("Content-Type"); }

  // The parsed body. Throws std::runtime_error (quoting the body) when it is not JSON.
  Poco::Dynamic::Var json() const;
  // The body as an object / array; throws when it is something else.
  Poco::JSON::Object::Ptr object() const;
  Poco::JSON::Array::Ptr array() const;
  bool isObject() const;
  bool isArray() const;

  // "POST /auth/login → 401 {...}" for assertion messages (body cut at 2 KiB).
  std::string describe() const;
};

class HttpClient {
 public:
  HttpClient() = default;
  HttpClient(std::string host, int port) : host_(std::move(host)), port_(port) {}

  // Default credentials added to every request that does not set its own
  // Authorization / X-API-Key header.
  HttpClient& bearer(std::string token);
  HttpClient& apiKey(std::string key);
  HttpClient& noAuth();
  HttpClient& defaultHeader(std::string name, std::string value);
  HttpClient withBearer(std::string token) const;
  HttpClient withApiKey(std::string key) const;
  HttpClient anonymous() const;
  HttpClient withHeader(std::string name, std::string value) const;

  // A body is sent as application/json unless `headers` sets Content-Type. A header
  // with an empty value in `headers` removes the default of that name (e.g.
  // {"Authorization", ""} for an unauthenticated request).
  HttpResult request(const std::string& method, const std::string& path,
                     const std::optional<std::string>& body = std::nullopt, const Headers& headers = {}) const;

  HttpResult get(const std::string& path, const Headers& headers = {}) const;
  HttpResult del(const std::string& path, const Headers& headers = {}) const;
  HttpResult post(const std::string& path, const std::string& body = "{}", const Headers& headers = {}) const;
  HttpResult patch(const std::string& path, const std::string& body, const Headers& headers = {}) const;
  HttpResult put(const std::string& path, const std::string& body, const Headers& headers = {}) const;
  HttpResult post(const std::string& path, const Poco::JSON::Object::Ptr& body, const Headers& headers = {}) const;
  HttpResult patch(const std::string& path, const Poco::JSON::Object::Ptr& body, const Headers& headers = {}) const;
  HttpResult put(const std::string& path, const Poco::JSON::Object::Ptr& body, const Headers& headers = {}) const;

  // Sends `head` (request line and headers, without the blank line) and then `body`
  // over a raw socket, a piece at a time, and stops sending as soon as the server
  // answers: for servers that refuse a body early (413) and close. Default headers are
  // not added. The response is read until the server closes.
  HttpResult rawExchange(const std::string& method, const std::string& path, const std::vector<std::string>& headerLines,
                         const std::string& body, bool chunked = false) const;

  const std::string& host() const { return host_; }
  int port() const { return port_; }
  std::string baseUrl() const { return "http://" + host_ + ":" + std::to_string(port_); }
  void setTimeoutSeconds(int s) { timeoutSeconds_ = s; }

 private:
  std::string host_ = "127.0.0.1";
  int port_ = 0;
  int timeoutSeconds_ = 30;
  Headers defaults_;
};

// JSON helpers.
std::string toJson(const Poco::Dynamic::Var& value);
Poco::Dynamic::Var parseJson(const std::string& text);
// Builds an object from key/value pairs: obj({{"name", "x"}, {"n", 3}}).
Poco::JSON::Object::Ptr obj(std::initializer_list<std::pair<std::string, Poco::Dynamic::Var>> fields);
Poco::JSON::Array::Ptr arr(std::initializer_list<Poco::Dynamic::Var> items);

}  // namespace aev::testing
