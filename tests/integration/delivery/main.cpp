// Entry point of the delivery API tests (webhooks): the shared API test entry point
// (support/api_test_main.h).
#include "support/api_test_main.h"

int main(int argc, char** argv) { return aev::testing::runApiTests(argc, argv); }
