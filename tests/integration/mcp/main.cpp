// Entry point of the MCP API tests: the shared API test entry point (support/api_test_main.h).
#include "support/api_test_main.h"

int main(int argc, char** argv) { return aev::testing::runApiTests(argc, argv); }
