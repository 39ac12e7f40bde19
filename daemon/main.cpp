// agent-eventsd entry point: everything happens in app::Application.
#include <string>
#include <vector>

#include "app/application.h"

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
