// The contract suites: the same --backend flag as the other API suites.
#include "support/api_test_main.h"

int main(int argc, char** argv) { return aev::testing::runApiTests(argc, argv); }
