# Thin wrapper over CMake/CTest; the README's two commands use it.
BUILD ?= build
ASAN_BUILD ?= build-asan
NOUNITY_BUILD ?= build-nounity
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
JOBS ?= $(shell nproc)
DATA_DIR ?= ./data

.PHONY: configure build run demo test test-asan check-nounity lighthouse-ci fuzz fuzz-ci package package-check bench bench-peers bench-analytics bench-moderation clean

configure:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null

build: configure
	cmake --build $(BUILD) -j$(JOBS)

# Only the daemon and its plugins (target aev_runtime), not the tests: the shortest way
# from a fresh clone to a daemon that answers.
run: configure
	cmake --build $(BUILD) -j$(JOBS) --target aev_runtime
	./$(BUILD)/daemon/agent-eventsd --data-dir $(DATA_DIR)

# The daemon in ./data-demo with a demo organization full of generated agent traffic and
# live traffic until Ctrl-C (scripts/demo/). DEMO_PORT (8080) and DEMO_DATA_DIR change them.
demo: configure
	cmake --build $(BUILD) -j$(JOBS) --target aev_runtime
	bash scripts/demo/run.sh ./$(BUILD)/daemon/agent-eventsd

test: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

# The core library with every file compiled alone, on its own includes (no unity batches, no
# precompiled header): what `make build`'s batches could hide (a missing include, two files'
# helpers of one name) fails here. CI runs it; with a warm ccache it takes seconds. At -O0
# without debug info: what it checks is the front end's (includes, names, warnings), and on
# CI's cold cache that costs 0.61 of the RelWithDebInfo compile (12 files sampled, 2026-11-28).
check-nounity:
	cmake -S . -B $(NOUNITY_BUILD) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0 -DAEV_UNITY=OFF -DAEV_PCH=OFF -DAEV_BUILD_TESTS=OFF >/dev/null
	cmake --build $(NOUNITY_BUILD) -j$(JOBS) --target aev_core

# Lighthouse (desktop preset) on four console pages: accessibility and best practices must be
# 100, performance is reported (bench/console_lighthouse.mjs). Installs its npm packages (~110 MB,
# kept out of scripts/deps.sh because only CI and the console bench use them).
lighthouse-ci: build
	npm ci --prefix bench/lighthouse --no-audit --no-fund --loglevel=error
	node bench/console_lighthouse.mjs $(BUILD)/daemon/agent-eventsd

test-asan:
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DAEV_SANITIZE=ON >/dev/null
	cmake --build $(ASAN_BUILD) -j$(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		LSAN_OPTIONS=suppressions=$(CURDIR)/tests/sanitizers/lsan.supp \
		ctest --output-on-failure -j$(JOBS)

# libFuzzer targets (clang, ASan + UBSan) for every decoder of untrusted bytes: tests/fuzz.
fuzz:
	cmake -S tests/fuzz -B $(FUZZ_BUILD) -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
	cmake --build $(FUZZ_BUILD) -j$(JOBS)

# CI: every target from its seed corpus for FUZZ_SECONDS each, two at a time (~5 min);
# fails on any crash, sanitizer report or timeout (docs/fuzzing.md).
fuzz-ci: fuzz
	bash tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(JOBS)

# Debian package of the build tree: $(BUILD)/package/agent-events_<version>_<arch>.deb.
package: build
	cd $(BUILD) && cpack -G DEB

# Builds the package, installs it, checks the installed daemon, SDK and systemd unit,
# then purges it. Needs root (dpkg).
package-check: build
	bash packaging/check-deb.sh $(BUILD)

bench: build
	bash bench/footprint.sh $(BUILD)/daemon/agent-eventsd

# Publish throughput, fan-out latency and idle memory against nginx+Nchan (~7 min).
bench-peers:
	bash bench/run.sh

# Analytics breakdown/timeseries over 1M and 10M seeded events, SQLite and PostgreSQL, against
# the same SQL by hand and ClickHouse (~45 min, ~13 GB of disk; SIZES=1000000 for 1M only, ~7 min).
bench-analytics:
	bash bench/analytics.sh

# Publish rate (POST /event, POST /events/batch) with 0, 10 and 100 moderation rules, as ratios
# to the 0-rule rate (~2 min).
bench-moderation: build
	BIN=$(BUILD)/daemon/agent-eventsd bash bench/moderation.sh

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) $(NOUNITY_BUILD)
