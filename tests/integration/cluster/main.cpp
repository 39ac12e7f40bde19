// Entry point of the cluster tests: three daemons on one PostgreSQL. They start their
// own PostgreSQL servers, so there is no --backend; without PostgreSQL installed every
// test is skipped. Many streams: RLIMIT_NOFILE is raised first (the daemons inherit it).
#include <gtest/gtest.h>

#include <iostream>

#include "support/sse_client.h"

int main(int argc, char** argv) {
  std::cout << "[ nofile   ] " << aev::testing::raiseFileLimit(16384) << std::endl;
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
