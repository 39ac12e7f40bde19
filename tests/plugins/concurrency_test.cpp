// The threading contract, enforced by the host: detectors and dimensions are called
// concurrently on one shared instance; an exporter without AEV_FLAG_CONCURRENT is never
// entered by two threads at once, one with the flag is. Run under ASan/TSan in CI.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "support/plugin_test_support.h"

namespace aev::plugins {
namespace {

constexpr int kThreads = 8;

template <class Fn>
void onThreads(Fn fn) {
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(fn, t);
  for (auto& th : threads) th.join();
}

TEST(Concurrency, SharedDetectorInstanceScansFromManyThreads) {
  auto host = test::standardHost();
  auto email = host->registry().detector("pii.email")->create();
  auto keys = host->registry().detector("secrets.api_key")->create();
  std::atomic<int> wrong{0};
  onThreads([&](int t) {
    for (int i = 0; i < 300; ++i) {
      std::string text = "thread " + std::to_string(t) + " mails user" + std::to_string(i) +
                         "@example.com and leaks AKIAIOSFODNN7EXAMPLE";
      auto r = email->scan(text);
      if (!r.ok() || r.findings.size() != 1 || text.substr(r.findings[0].start, 4) != "user") ++wrong;
      auto k = keys->scan(text);
      if (!k.ok() || k.findings.size() != 1) ++wrong;
    }
  });
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_GE(host->registry().detector("pii.email")->stats().snapshot().calls, kThreads * 300u);
}

TEST(Concurrency, SharedDimensionInstanceFromManyThreads) {
  auto host = test::standardHost();
  auto model = host->registry().dimension("model")->create();
  std::atomic<int> wrong{0};
  onThreads([&](int t) {
    for (int i = 0; i < 300; ++i) {
      std::string m = "model-" + std::to_string(t) + "-" + std::to_string(i);
      auto k = model->key(R"({"eventType":"agent.message","metadata":{"model":")" + m + "\"}}");
      if (k.key.value_or("") != m) ++wrong;
    }
  });
  EXPECT_EQ(wrong.load(), 0);
}

TEST(Concurrency, ExporterWithoutConcurrentFlagIsSerialised) {
  Host host;
  ASSERT_EQ(host.loadFile(test::fixturePath("c_basic")).loaded.size(), 1u);
  auto exporter = host.registry().exporter("fixture.recorder")->open("{}");
  std::atomic<int> failures{0};
  std::string lastBody;
  std::mutex m;
  onThreads([&](int) {
    for (int i = 0; i < 40; ++i) {
      auto r = exporter->exportBatch(AEV_SIGNAL_LOGS, "[]", 0);
      if (!r.ok()) ++failures;
      std::lock_guard lock(m);
      lastBody = r.responseBody;
    }
  });
  EXPECT_EQ(failures.load(), 0);
  EXPECT_NE(lastBody.find("\"overlaps\":0"), std::string::npos) << lastBody;
  EXPECT_NE(lastBody.find("\"maxParallel\":1"), std::string::npos) << lastBody;
}

TEST(Concurrency, ExporterWithConcurrentFlagRunsInParallel) {
  Host host;
  ASSERT_EQ(host.loadFile(test::fixturePath("c_basic")).loaded.size(), 1u);
  auto exporter = host.registry().exporter("fixture.concurrent")->open("{}");
  int maxParallel = 0;
  std::mutex m;
  onThreads([&](int) {
    for (int i = 0; i < 40; ++i) {
      auto r = exporter->exportBatch(AEV_SIGNAL_LOGS, "[]", 0);
      auto pos = r.responseBody.find("\"maxParallel\":");
      if (pos == std::string::npos) continue;
      int v = std::stoi(r.responseBody.substr(pos + 14));
      std::lock_guard lock(m);
      maxParallel = std::max(maxParallel, v);
    }
  });
  EXPECT_GT(maxParallel, 1);
}

TEST(Concurrency, ThrowingPluginUnderLoadNeverEscapes) {
  Host host;
  ASSERT_EQ(host.loadFile(test::fixturePath("throwing")).loaded.size(), 1u);
  auto detector = host.registry().detector("fixture.throws_std")->create();
  std::atomic<int> internal{0};
  onThreads([&](int) {
    for (int i = 0; i < 200; ++i)
      if (detector->scan("x").status == AEV_ERR_INTERNAL) ++internal;
  });
  EXPECT_EQ(internal.load(), kThreads * 200);
}

}  // namespace
}  // namespace aev::plugins
