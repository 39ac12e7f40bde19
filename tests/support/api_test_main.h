#pragma once
// The shared entry point of the black-box API test binaries: --backend=sqlite|postgresql
// selects the store every daemon of the run uses (support/backend.h), the shared
// PostgreSQL server starts up front (its cost and failures show once), the rest of the
// arguments go to GoogleTest.
namespace aev::testing {

int runApiTests(int argc, char** argv);

}  // namespace aev::testing
