#include "support/http_client.h"

#include <Poco/Exception.h>
#include <Poco/JSON/Parser.h>
#include <Poco/JSON/Stringifier.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StreamSocket.h>
#include <Poco/NumberParser.h>
#include <Poco/String.h>
#include <Poco/StreamCopier.h>

#include <sstream>
#include <stdexcept>

namespace aev::testing {

namespace {
bool iequals(const std::string& a, const std::string& b) { return Poco::icompare(a, b) == 0; }
}  // namespace

// ---------------------------------------------------------------- HttpResult

std::string HttpResult::header(const std::string& name) const {
  for (const auto& [k, v] : headers)
    if (iequals(k, name)) return v;
  return "";
}

bool HttpResult::hasHeader(const std::string& name) const {
  for (const auto& [k, v] : headers)
    if (iequals(k, name)) return true;
  return false;
}

Poco::Dynamic::Var HttpResult::json() const {
  try {
    return parseJson(body);
  } catch (const std::exception& e) {
    throw std::runtime_error("response is not JSON (" + std::string(e.what()) + "): " + describe());
  }
}

bool HttpResult::isObject() const {
  try {
    return parseJson(body).type() == typeid(Poco::JSON::Object::Ptr);
  } catch (...) {
    return false;
  }
}

bool HttpResult::isArray() const {
  try {
    return parseJson(body).type() == typeid(Poco::JSON::Array::Ptr);
  } catch (...) {
    return false;
  }
}

Poco::JSON::Object::Ptr HttpResult::object() const {
  auto v = json();
  if (v.type() != typeid(Poco::JSON::Object::Ptr)) throw std::runtime_error("response is not a JSON object: " + describe());
  return v.extract<Poco::JSON::Object::Ptr>();
}

Poco::JSON::Array::Ptr HttpResult::array() const {
  auto v = json();
  if (v.type() != typeid(Poco::JSON::Array::Ptr)) throw std::runtime_error("response is not a JSON array: " + describe());
  return v.extract<Poco::JSON::Array::Ptr>();
}

std::string HttpResult::describe() const {
  std::string b = body.size() > 2048 ? body.substr(0, 2048) + "…" : body;
  return method + " " + path + " → " + std::to_string(status) + " " + b;
}

// ---------------------------------------------------------------- HttpClient

HttpClient& HttpClient::defaultHeader(std::string name, std::string value) {
  for (auto it = defaults_.begin(); it != defaults_.end();)
    it = iequals(it->first, name) ? defaults_.erase(it) : it + 1;
  if (!value.empty()) defaults_.emplace_back(std::move(name), std::move(value));
  return *this;
}

HttpClient& HttpClient::bearer(std::string token) {
  defaultHeader("X-API-Key", "");
  return defaultHeader("Authorization", "Bearer " + token);
}

HttpClient& HttpClient::apiKey(std::string key) {
  defaultHeader("Authorization", "");
  return defaultHeader("X-API-Key", std::move(key));
}

HttpClient& HttpClient::noAuth() {
  defaultHeader("Authorization", "");
  return defaultHeader("X-API-Key", "");
}

HttpClient HttpClient::withBearer(std::string token) const {
  HttpClient c = *this;
  c.bearer(std::move(token));
  return c;
}

HttpClient HttpClient::withApiKey(std::string key) const {
  HttpClient c = *this;
  c.apiKey(std::move(key));
  return c;
}

HttpClient HttpClient::anonymous() const {
  HttpClient c = *this;
  c.noAuth();
  return c;
}

HttpClient HttpClient::withHeader(std::string name, std::string value) const {
  HttpClient c = *this;
  c.defaultHeader(std::move(name), std::move(value));
  return c;
}

HttpResult HttpClient::request(const std::string& method, const std::string& path,
                               const std::optional<std::string>& body, const Headers& headers) const {
  Poco::Net::HTTPClientSession session(host_, static_cast<Poco::UInt16>(port_));
  session.setTimeout(Poco::Timespan(timeoutSeconds_, 0));
  session.setKeepAlive(false);

  Poco::Net::HTTPRequest req(method, path, Poco::Net::HTTPMessage::HTTP_1_1);
  req.setKeepAlive(false);
  Headers merged = defaults_;
  for (const auto& [k, v] : headers) {
    for (auto it = merged.begin(); it != merged.end();) it = iequals(it->first, k) ? merged.erase(it) : it + 1;
    if (!v.empty()) merged.emplace_back(k, v);
  }
  bool hasContentType = false;
  for (const auto& [k, v] : merged) {
    req.add(k, v);
    hasContentType = hasContentType || iequals(k, "Content-Type");
  }
  bool explicitlyNoContentType = false;
  for (const auto& [k, v] : headers) explicitlyNoContentType |= iequals(k, "Content-Type") && v.empty();
  if (body) {
    if (!hasContentType && !explicitlyNoContentType) req.setContentType("application/json");
    req.setContentLength(static_cast<std::streamsize>(body->size()));
  } else if (method == "POST" || method == "PUT" || method == "PATCH") {
    req.setContentLength(0);
  }

  HttpResult result;
  result.method = method;
  result.path = path;
  std::string sendError;
  try {
    std::ostream& out = session.sendRequest(req);
    if (body) out << *body;
    out.flush();
  } catch (const Poco::Exception& e) {
    // The server may answer (413) and close before reading a large body; still try
    // to read its response.
    sendError = e.displayText();
  }
  Poco::Net::HTTPResponse res;
  try {
    std::istream& in = session.receiveResponse(res);
    std::ostringstream buf;
    Poco::StreamCopier::copyStream(in, buf);
    result.body = buf.str();
  } catch (const Poco::Exception& e) {
    throw std::runtime_error(method + " " + path + " failed: " + e.displayText() +
                             (sendError.empty() ? "" : " (while sending: " + sendError + ")"));
  }
  result.status = static_cast<int>(res.getStatus());
  result.reason = res.getReason();
  for (const auto& [k, v] : res) result.headers.emplace_back(k, v);
  return result;
}

HttpResult HttpClient::get(const std::string& path, const Headers& headers) const {
  return request("GET", path, std::nullopt, headers);
}
HttpResult HttpClient::del(const std::string& path, const Headers& headers) const {
  return request("DELETE", path, std::nullopt, headers);
}
HttpResult HttpClient::post(const std::string& path, const std::string& body, const Headers& headers) const {
  return request("POST", path, body, headers);
}
HttpResult HttpClient::patch(const std::string& path, const std::string& body, const Headers& headers) const {
  return request("PATCH", path, body, headers);
}
HttpResult HttpClient::put(const std::string& path, const std::string& body, const Headers& headers) const {
  return request("PUT", path, body, headers);
}
HttpResult HttpClient::post(const std::string& path, const Poco::JSON::Object::Ptr& body, const Headers& headers) const {
  return request("POST", path, toJson(body), headers);
}
HttpResult HttpClient::patch(const std::string& path, const Poco::JSON::Object::Ptr& body,
                             const Headers& headers) const {
  return request("PATCH", path, toJson(body), headers);
}
HttpResult HttpClient::put(const std::string& path, const Poco::JSON::Object::Ptr& body, const Headers& headers) const {
  return request("PUT", path, toJson(body), headers);
}

HttpResult HttpClient::rawExchange(const std::string& method, const std::string& path,
                                   const std::vector<std::string>& headerLines, const std::string& body,
                                   bool chunked) const {
  Poco::Net::StreamSocket socket;
  socket.connect(Poco::Net::SocketAddress(host_, static_cast<Poco::UInt16>(port_)), Poco::Timespan(5, 0));
  socket.setReceiveTimeout(Poco::Timespan(timeoutSeconds_, 0));
  socket.setSendTimeout(Poco::Timespan(timeoutSeconds_, 0));

  auto sendAll = [&](const std::string& data) {
    std::size_t sent = 0;
    while (sent < data.size()) {
      int n = socket.sendBytes(data.data() + sent, static_cast<int>(std::min<std::size_t>(data.size() - sent, 65536)));
      if (n <= 0) throw Poco::IOException("send failed");
      sent += static_cast<std::size_t>(n);
    }
  };
  auto answered = [&](int waitMs) { return socket.poll(Poco::Timespan(0, waitMs * 1000), Poco::Net::Socket::SELECT_READ); };

  std::string head = method + " " + path + " HTTP/1.1\r\nHost: " + host_ + ":" + std::to_string(port_) +
                     "\r\nConnection: close\r\n";
  for (const auto& line : headerLines) head += line + "\r\n";
  if (chunked) head += "Transfer-Encoding: chunked\r\n";
  else head += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  head += "\r\n";

  try {
    sendAll(head);
    // A server that refuses by the headers answers before any body byte.
    if (!answered(300)) {
      const std::size_t piece = 64 * 1024;
      for (std::size_t off = 0; off < body.size(); off += piece) {
        std::string part = body.substr(off, piece);
        if (chunked) {
          std::ostringstream size;
          size << std::hex << part.size();
          part = size.str() + "\r\n" + part + "\r\n";
        }
        sendAll(part);
        if (answered(0)) break;
      }
      if (chunked && !answered(0)) sendAll("0\r\n\r\n");
    }
  } catch (const Poco::Exception&) {
    // Refused mid-body: read what the server said.
  }

  std::string raw;
  char buf[8192];
  try {
    for (;;) {
      int n = socket.receiveBytes(buf, sizeof buf);
      if (n <= 0) break;
      raw.append(buf, static_cast<std::size_t>(n));
    }
  } catch (const Poco::Exception& e) {
    if (raw.empty()) throw std::runtime_error(method + " " + path + " (raw) failed: " + e.displayText());
  }

  HttpResult result;
  result.method = method;
  result.path = path;
  auto headEnd = raw.find("\r\n\r\n");
  if (raw.rfind("HTTP/1.", 0) != 0 || headEnd == std::string::npos)
    throw std::runtime_error(method + " " + path + " (raw): no HTTP response, got: " + raw.substr(0, 200));
  std::istringstream lines(raw.substr(0, headEnd));
  std::string line;
  std::getline(lines, line);
  result.status = Poco::NumberParser::parse(line.substr(9, 3));
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    result.headers.emplace_back(line.substr(0, colon), Poco::trim(line.substr(colon + 1)));
  }
  result.body = raw.substr(headEnd + 4);
  if (Poco::icompare(result.header("Transfer-Encoding"), "chunked") == 0) {
    std::string decoded, rest = result.body;
    for (;;) {
      auto eol = rest.find("\r\n");
      if (eol == std::string::npos) break;
      std::size_t size = std::stoul(rest.substr(0, eol), nullptr, 16);
      if (size == 0) break;
      decoded += rest.substr(eol + 2, size);
      rest = rest.substr(eol + 2 + size + 2);
    }
    result.body = decoded;
  }
  return result;
}

// ---------------------------------------------------------------- JSON helpers

std::string toJson(const Poco::Dynamic::Var& value) {
  std::ostringstream out;
  Poco::JSON::Stringifier::condense(value, out);
  return out.str();
}

Poco::Dynamic::Var parseJson(const std::string& text) {
  Poco::JSON::Parser parser;
  return parser.parse(text);
}

Poco::JSON::Object::Ptr obj(std::initializer_list<std::pair<std::string, Poco::Dynamic::Var>> fields) {
  Poco::JSON::Object::Ptr o = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  for (const auto& [k, v] : fields) o->set(k, v);
  return o;
}

Poco::JSON::Array::Ptr arr(std::initializer_list<Poco::Dynamic::Var> items) {
  Poco::JSON::Array::Ptr a = new Poco::JSON::Array;
  for (const auto& v : items) a->add(v);
  return a;
}

}  // namespace aev::testing
