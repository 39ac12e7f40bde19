// Entry point of the black-box API tests: --backend=sqlite|postgresql selects the store
// every daemon of this run uses (see support/backend.h); the rest goes to GoogleTest.
#include <gtest/gtest.h>

#include <iostream>

#include "support/backend.h"
#include "support/daemon_process.h"
#include "support/postgres_server.h"

int main(int argc, char** argv) {
  try {
    aev::testing::parseBackendArgument(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << e.what() << std::endl;
    return 2;
  }
  ::testing::InitGoogleTest(&argc, argv);
  if (::testing::GTEST_FLAG(list_tests)) return RUN_ALL_TESTS();

  std::cout << "[ backend  ] " << aev::testing::currentBackendName() << std::endl;
  try {
    std::cout << "[ daemon   ] " << aev::testing::DaemonProcess::binaryPath() << std::endl;
    if (aev::testing::currentBackend() == aev::testing::Backend::PostgreSQL) {
      // Start the shared server up front, so its start-up cost and failures show once.
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
