// Entry point of the upgrade and backup tests: the shared API test entry point
// (support/api_test_main.h: --backend, the shared PostgreSQL server).
#include "support/api_test_main.h"

int main(int argc, char** argv) { return aev::testing::runApiTests(argc, argv); }
