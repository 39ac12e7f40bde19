// Entry point of the events API tests: like ../main.cpp (--backend=sqlite|postgresql),
// and it raises RLIMIT_NOFILE first, because one test holds 2,000 streams open and the
// daemons it starts inherit the limit.
#include <gtest/gtest.h>

#include <iostream>

#include "support/backend.h"
#include "support/daemon_process.h"
#include "support/postgres_server.h"
#include "support/sse_client.h"

int main(int argc, char** argv) {
  try {
    aev::testing::parseBackendArgument(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << e.what() << std::endl;
    return 2;
  }
  ::testing::InitGoogleTest(&argc, argv);
  if (::testing::GTEST_FLAG(list_tests)) return RUN_ALL_TESTS();

  const auto files = aev::testing::raiseFileLimit(16384);
  std::cout << "[ backend  ] " << aev::testing::currentBackendName() << std::endl;
  std::cout << "[ nofile   ] " << files << std::endl;
  try {
    std::cout << "[ daemon   ] " << aev::testing::DaemonProcess::binaryPath() << std::endl;
    if (aev::testing::currentBackend() == aev::testing::Backend::PostgreSQL) {
      auto& pg = aev::testing::PostgresServer::instance();
      std::cout << "[ postgres ] " << aev::testing::PostgresServer::binDir() << " on 127.0.0.1:" << pg.port()
                << std::endl;
    }
  } catch (const std::exception& e) {
    std::cerr << "cannot run the API tests: " << e.what() << std::endl;
    return 1;
  }
  return RUN_ALL_TESTS();
}
