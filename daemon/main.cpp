// agent-eventsd entry point: everything happens in app::Application.
#include <string>
#include <vector>

#include "app/application.h"

#ifdef AEV_WITH_JEMALLOC
// jemalloc's settings for the daemon (the MALLOC_CONF environment variable still
// overrides them): freed pages are returned to the kernel by jemalloc's own background
// thread rather than inline in malloc, and only after 30 s unused. With the defaults
// (inline, 10 s) the PostgreSQL batch path, which builds and frees large column arrays
// for every commit, kept refaulting pages: POST /events/batch on PostgreSQL at c=16 fell
// from 19.0k to 13.8k events/s against glibc's malloc; with these, 16.5k.
extern "C" {
extern const char* malloc_conf;
const char* malloc_conf = "background_thread:true,dirty_decay_ms:30000,muzzy_decay_ms:30000";
}
#endif

namespace {
// Poco's option parser takes long options as --name=value; accept the common
// "--name value" spelling too for the options that take an argument.
std::vector<std::string> normaliseArguments(int argc, char** argv) {
  static const char* const kWithValue[] = {"--config", "--port", "--host", "--data-dir", "--database-url", "--set", "--pidfile", "--umask", "--plugins-dir"};
  std::vector<std::string> out{argv[0]};
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    bool joined = false;
    for (const char* name : kWithValue)
      if (arg == name && i + 1 < argc) {
        out.push_back(arg + "=" + argv[++i]);
        joined = true;
        break;
      }
    if (!joined) out.push_back(arg);
  }
  return out;
}
}  // namespace

int main(int argc, char** argv) {
  auto args = normaliseArguments(argc, argv);
  aev::app::Application app;
  return app.run(args);
}
