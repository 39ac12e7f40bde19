// Entry point of the events API tests: it raises RLIMIT_NOFILE first, because one test
// holds 2,000 streams open and the daemons it starts inherit the limit; the rest is the
// shared API test entry point (support/api_test_main.h).
#include <iostream>

#include "support/api_test_main.h"
#include "support/sse_client.h"

int main(int argc, char** argv) {
  std::cout << "[ nofile   ] " << aev::testing::raiseFileLimit(16384) << std::endl;
  return aev::testing::runApiTests(argc, argv);
}
