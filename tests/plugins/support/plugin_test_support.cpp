#include "support/plugin_test_support.h"

#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/StreamCopier.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cctype>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <thread>

namespace aev::plugins::test {

namespace fs = std::filesystem;

std::string fixturePath(const std::string& name) { return std::string(AEV_TEST_FIXTURE_DIR) + "/fixture_" + name + ".so"; }
std::string standardPluginPath(const std::string& name) { return std::string(AEV_TEST_PLUGIN_DIR) + "/" + name + ".so"; }
std::string standardPluginDir() { return AEV_TEST_PLUGIN_DIR; }

std::unique_ptr<Host> standardHost(HostOptions options) {
  auto host = std::make_unique<Host>(std::move(options));
  auto report = host->loadDirectory(standardPluginDir());
  EXPECT_TRUE(report.clean()) << report.summary();
  for (const auto& r : report.refused) ADD_FAILURE() << r.path << ": " << r.reason;
  return host;
}

TempDir::TempDir() {
  std::random_device rd;
  path_ = (fs::temp_directory_path() / ("aev-plugin-test-" + std::to_string(::getpid()) + "-" + std::to_string(rd())))
              .string();
  fs::create_directories(path_);
  fs::permissions(path_, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                             fs::perms::others_read | fs::perms::others_exec);
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::string TempDir::copy(const std::string& file, const std::string& as) const {
  auto to = fs::path(path_) / as;
  fs::copy_file(file, to, fs::copy_options::overwrite_existing);
  return to.string();
}

// ---------------------------------------------------------------- loopback receiver

// Shared with the handler threads. The receiver's destructor waits until no handler is
// running, so no Poco connection thread outlives the test (or main).
struct LoopbackReceiver::State {
  mutable std::mutex mutex;
  std::condition_variable changed;
  std::vector<Request> requests;
  Response response;
  int active = 0;
  bool stopping = false;
};

namespace {

class RecordingHandler : public Poco::Net::HTTPRequestHandler {
 public:
  explicit RecordingHandler(std::shared_ptr<LoopbackReceiver::State> state) : state_(std::move(state)) {}
  void handleRequest(Poco::Net::HTTPServerRequest& req, Poco::Net::HTTPServerResponse& res) override {
    LoopbackReceiver::Request r;
    r.method = req.getMethod();
    r.uri = req.getURI();
    for (const auto& [name, value] : req) {
      std::string lower = name;
      std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
      r.headers[lower] = value;
    }
    Poco::StreamCopier::copyToString(req.stream(), r.body);
    LoopbackReceiver::Response answer;
    {
      std::unique_lock lock(state_->mutex);
      ++state_->active;
      state_->requests.push_back(std::move(r));
      answer = state_->response;
      // A slow receiver, cut short when the test ends.
      if (answer.delay.count() > 0) state_->changed.wait_for(lock, answer.delay, [&] { return state_->stopping; });
    }
    try {
      res.setStatus(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(answer.status));
      res.setKeepAlive(false);
      for (const auto& [name, value] : answer.headers) res.set(name, value);
      res.setContentLength(static_cast<std::streamsize>(answer.body.size()));
      res.send() << answer.body;
    } catch (...) {
      // the client gave up (timeout tests): nothing to answer
    }
    std::lock_guard lock(state_->mutex);
    --state_->active;
    state_->changed.notify_all();
  }

 private:
  std::shared_ptr<LoopbackReceiver::State> state_;
};

class Factory : public Poco::Net::HTTPRequestHandlerFactory {
 public:
  explicit Factory(std::shared_ptr<LoopbackReceiver::State> state) : state_(std::move(state)) {}
  Poco::Net::HTTPRequestHandler* createRequestHandler(const Poco::Net::HTTPServerRequest&) override {
    return new RecordingHandler(state_);
  }

 private:
  std::shared_ptr<LoopbackReceiver::State> state_;
};

}  // namespace

LoopbackReceiver::LoopbackReceiver() : state_(std::make_shared<State>()) {
  Poco::Net::ServerSocket socket(Poco::Net::SocketAddress("127.0.0.1", 0));
  port_ = socket.address().port();
  auto* params = new Poco::Net::HTTPServerParams;
  params->setMaxThreads(8);
  params->setKeepAlive(true);
  server_ = std::make_unique<Poco::Net::HTTPServer>(new Factory(state_), socket, params);
  server_->start();
}

LoopbackReceiver::~LoopbackReceiver() {
  {
    std::lock_guard lock(state_->mutex);
    state_->stopping = true;
    state_->changed.notify_all();
  }
  server_->stopAll(true);
  std::unique_lock lock(state_->mutex);
  state_->changed.wait_for(lock, std::chrono::seconds(10), [&] { return state_->active == 0; });
}

std::string LoopbackReceiver::url(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(port_) + path;
}

void LoopbackReceiver::respond(Response r) {
  std::lock_guard lock(state_->mutex);
  state_->response = std::move(r);
}

std::vector<LoopbackReceiver::Request> LoopbackReceiver::requests() const {
  std::lock_guard lock(state_->mutex);
  return state_->requests;
}

// ---------------------------------------------------------------- protobuf

std::vector<PbField> pbDecode(std::string_view m) {
  std::vector<PbField> out;
  std::size_t pos = 0;
  auto varint = [&]() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= m.size()) throw std::runtime_error("truncated varint");
      auto b = static_cast<unsigned char>(m[pos++]);
      v |= std::uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    throw std::runtime_error("varint too long");
  };
  auto fixed = [&](int n) {
    if (pos + n > m.size()) throw std::runtime_error("truncated fixed field");
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= std::uint64_t(static_cast<unsigned char>(m[pos + i])) << (8 * i);
    pos += n;
    return v;
  };
  while (pos < m.size()) {
    auto key = varint();
    PbField f;
    f.number = static_cast<std::uint32_t>(key >> 3);
    f.wireType = static_cast<int>(key & 7);
    switch (f.wireType) {
      case 0: f.value = varint(); break;
      case 1: f.value = fixed(8); break;
      case 5: f.value = fixed(4); break;
      case 2: {
        auto len = varint();
        if (len > m.size() - pos) throw std::runtime_error("truncated length-delimited field");
        f.bytes = std::string(m.substr(pos, len));
        pos += len;
        break;
      }
      default: throw std::runtime_error("unsupported wire type " + std::to_string(f.wireType));
    }
    if (f.number == 0) throw std::runtime_error("field number 0");
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<PbField> pbAll(std::string_view message, std::uint32_t number) {
  std::vector<PbField> out;
  for (auto& f : pbDecode(message))
    if (f.number == number) out.push_back(std::move(f));
  return out;
}

PbField pbOne(std::string_view message, std::uint32_t number) {
  auto all = pbAll(message, number);
  if (all.empty()) throw std::runtime_error("field " + std::to_string(number) + " missing");
  return all.front();
}

std::string hex(std::string_view bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

}  // namespace aev::plugins::test
