#include "support/api_test_main.h"

#include <gtest/gtest.h>

#include <iostream>

#include "support/backend.h"
#include "support/daemon_process.h"
#include "support/postgres_server.h"

namespace aev::testing {

int runApiTests(int argc, char** argv) {
  try {
    parseBackendArgument(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << e.what() << std::endl;
    return 2;
  }
  ::testing::InitGoogleTest(&argc, argv);
  if (::testing::GTEST_FLAG(list_tests)) return RUN_ALL_TESTS();

  std::cout << "[ backend  ] " << currentBackendName() << std::endl;
  try {
    std::cout << "[ daemon   ] " << DaemonProcess::binaryPath() << std::endl;
    if (currentBackend() == Backend::PostgreSQL) {
      auto& pg = PostgresServer::instance();
      std::cout << "[ postgres ] " << PostgresServer::binDir() << " on 127.0.0.1:" << pg.port() << std::endl;
    }
  } catch (const std::exception& e) {
    std::cerr << "cannot run the API tests: " << e.what() << std::endl;
    return 1;
  }
  return RUN_ALL_TESTS();
}

}  // namespace aev::testing
