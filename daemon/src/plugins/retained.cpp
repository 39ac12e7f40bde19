#include "plugins/retained.h"

#include <mutex>
#include <vector>

namespace aev::plugins {

namespace {

// Deliberately never destroyed (not even at exit): see retained.h.
struct Retained {
  std::mutex mutex;
  std::vector<boost::dll::shared_library> libraries;
  std::vector<std::unique_ptr<aev_host>> hosts;
};

Retained& retained() {
  static auto* r = new Retained;
  return *r;
}

}  // namespace

void retainLibrary(boost::dll::shared_library library) {
  auto& r = retained();
  std::lock_guard lock(r.mutex);
  r.libraries.push_back(std::move(library));
}

aev_host* retainHost(std::unique_ptr<aev_host> host) {
  auto& r = retained();
  std::lock_guard lock(r.mutex);
  r.hosts.push_back(std::move(host));
  return r.hosts.back().get();
}

}  // namespace aev::plugins
