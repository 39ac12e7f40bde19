#pragma once
// Helpers for the plugin tests: where the built plugins are, hosts that load them, a
// loopback HTTP receiver that records what exporters and alert sinks send, and a
// minimal protobuf wire-format decoder to check OTLP bodies without a protobuf library.
#include <Poco/Net/HTTPServer.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "plugins/host.h"

namespace aev::plugins::test {

std::string fixturePath(const std::string& name);          // fixture_<name>.so in the fixture dir
std::string standardPluginPath(const std::string& name);   // e.g. "detector_builtin"
std::string standardPluginDir();

// A host with every standard plugin loaded (fails the test if any is refused).
std::unique_ptr<Host> standardHost(HostOptions options = {});

// A temporary directory removed on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const { return path_; }
  std::string copy(const std::string& file, const std::string& as) const;  // returns the new path

 private:
  std::string path_;
};

// Records requests on 127.0.0.1 and answers with a programmable response.
class LoopbackReceiver {
 public:
  struct Request {
    std::string method;
    std::string uri;
    std::map<std::string, std::string> headers;  // lower-case names
    std::string body;
  };
  struct Response {
    int status = 200;
    std::map<std::string, std::string> headers;
    std::string body;
    std::chrono::milliseconds delay{0};
  };

  LoopbackReceiver();
  ~LoopbackReceiver();
  std::string url(const std::string& path = "") const;  // http://127.0.0.1:<port><path>
  void respond(Response r);
  std::vector<Request> requests() const;

  struct State;

 private:
  std::shared_ptr<State> state_;
  std::unique_ptr<Poco::Net::HTTPServer> server_;
  std::uint16_t port_ = 0;
};

// Protobuf wire format: one field of a message.
struct PbField {
  std::uint32_t number = 0;
  int wireType = 0;           // 0 varint, 1 fixed64, 2 length-delimited, 5 fixed32
  std::uint64_t value = 0;    // varint / fixed values
  std::string bytes;          // length-delimited payload
};
// Decodes one message; throws std::runtime_error on malformed input.
std::vector<PbField> pbDecode(std::string_view message);
// Every field with that number, in order.
std::vector<PbField> pbAll(std::string_view message, std::uint32_t number);
// The only/first field with that number; throws when absent.
PbField pbOne(std::string_view message, std::uint32_t number);

std::string hex(std::string_view bytes);

}  // namespace aev::plugins::test
