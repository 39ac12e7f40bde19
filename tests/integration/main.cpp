// Entry point of the identity API tests (see support/api_test_main.h).
#include "support/api_test_main.h"

int main(int argc, char** argv) { return aev::testing::runApiTests(argc, argv); }
