#pragma once
// Which storage backend the black-box tests run the daemon on. Selected once per test
// binary run with --backend=sqlite|postgresql (or $AEV_BACKEND); sqlite by default.
#include <string>

namespace aev::testing {

enum class Backend { SQLite, PostgreSQL };

Backend currentBackend();
void setBackend(Backend backend);
std::string backendName(Backend backend);
inline std::string currentBackendName() { return backendName(currentBackend()); }

// Removes --backend=... / --backend X from argv (before InitGoogleTest sees it) and
// applies it; $AEV_BACKEND is the fallback. Throws std::invalid_argument on an
// unknown name.
void parseBackendArgument(int& argc, char** argv);

// The --database-url for a new daemon: "" (SQLite in its data dir) or a fresh
// database on the shared test PostgreSQL server.
std::string freshDatabaseUrl();

}  // namespace aev::testing
