#include "support/backend.h"

#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "support/postgres_server.h"

namespace aev::testing {

namespace {
Backend& selected() {
  static Backend backend = [] {
    const char* env = std::getenv("AEV_BACKEND");
    if (env && (std::strcmp(env, "postgresql") == 0 || std::strcmp(env, "postgres") == 0)) return Backend::PostgreSQL;
    return Backend::SQLite;
  }();
  return backend;
}

Backend parseName(const std::string& name) {
  if (name == "sqlite") return Backend::SQLite;
  if (name == "postgresql" || name == "postgres" || name == "pg") return Backend::PostgreSQL;
  throw std::invalid_argument("unknown backend '" + name + "' (use sqlite or postgresql)");
}
}  // namespace

Backend currentBackend() { return selected(); }
void setBackend(Backend backend) { selected() = backend; }

std::string backendName(Backend backend) { return backend == Backend::PostgreSQL ? "postgresql" : "sqlite"; }

void parseBackendArgument(int& argc, char** argv) {
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--backend=", 0) == 0) {
      setBackend(parseName(arg.substr(10)));
    } else if (arg == "--backend" && i + 1 < argc) {
      setBackend(parseName(argv[++i]));
    } else {
      argv[out++] = argv[i];
    }
  }
  argc = out;
  argv[argc] = nullptr;
}

std::string freshDatabaseUrl() {
  if (currentBackend() == Backend::SQLite) return "";
  return PostgresServer::instance().createDatabase();
}

}  // namespace aev::testing
