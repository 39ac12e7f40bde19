#pragma once
// The running daemon: store, services and HTTP server, built from configuration and
// torn down in reverse order (server first, so no request sees a closed store).
#include <Poco/Util/AbstractConfiguration.h>

#include <memory>
#include <string>

namespace aev::app {

struct Components;

class Runtime {
 public:
  explicit Runtime(const Poco::Util::AbstractConfiguration& config);
  ~Runtime();
  void start();
  void stop();
  int port() const;
  std::string storeDescription() const;

 private:
  std::unique_ptr<Components> c_;
};

}  // namespace aev::app
