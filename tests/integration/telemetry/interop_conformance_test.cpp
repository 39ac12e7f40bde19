// Conformance of the GenAI instrumentations people already run (docs/integrations.md): each
// real npm package (tests/interop/scenario.cjs) calls a fake OpenAI server and exports OTLP/HTTP
// to the daemon (protobuf or JSON, gzip on some); what landed is then read back through the
// daemon's own API (the traces list and summaries, the trace events, analytics breakdowns) into
// the conformance matrix, which must equal the one docs/integrations.md publishes. The test
// prints the matrix (and writes it to $AEV_INTEROP_MATRIX when set).
#include <Poco/JSON/Parser.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

#include "integration/telemetry/traces_support.h"
#include "support/backend.h"

namespace aev::testing {
namespace {

const char* const kColumns[] = {"model",   "tokens", "cached",  "reasoning", "cost",     "tool",     "agent",
                                "handoff", "error",  "session", "user",      "messages", "call link"};

struct Scenario {
  const char* name;      // scenario.cjs argument
  const char* label;     // the row's name in the matrix
  const char* encoding;  // json | proto
  bool gzip;
  // Expected cells, in kColumns order: "yes", "no", or "requested" (tool: asked for by the
  // model, seen in analytics, but no tool execution was traced).
  std::array<const char*, std::size(kColumns)> expected;
};

const Scenario kScenarios[] = {
    {"openinference",
     "OpenInference (`@arizeai/openinference-instrumentation-openai`)",
     "json",
     false,
     {"yes", "yes", "yes", "yes", "yes", "requested", "no", "no", "no", "yes", "yes", "yes", "no"}},
    {"openllmetry",
     "OpenLLMetry (`@traceloop/instrumentation-openai`)",
     "proto",
     true,
     {"yes", "yes", "no", "no", "yes", "requested", "no", "no", "no", "no", "no", "yes", "no"}},
    {"otel-contrib",
     "OTel GenAI (`@opentelemetry/instrumentation-openai`)",
     "proto",
     false,
     {"yes", "yes", "no", "no", "yes", "no", "no", "no", "yes", "no", "no", "no", "no"}},
    {"ai-sdk",
     "Vercel AI SDK (`ai` + `@ai-sdk/openai`, `experimental_telemetry`)",
     "json",
     true,
     {"yes", "yes", "yes", "yes", "yes", "yes", "no", "no", "yes", "yes", "yes", "yes", "yes"}},
    {"langfuse",
     "Langfuse (`@langfuse/otel` + `@langfuse/tracing`)",
     "json",
     false,
     {"yes", "yes", "yes", "yes", "yes", "yes", "no", "no", "yes", "yes", "yes", "yes", "no"}},
    {"openai-agents",
     "OpenAI Agents (`@openai/agents` + `@arizeai/openinference-instrumentation-openai-agents`)",
     "proto",
     false,
     {"yes", "yes", "yes", "yes", "yes", "yes", "yes", "yes", "no", "no", "no", "yes", "yes"}},
};

class InteropConformance : public TracesTest {
 protected:
  // Runs tests/interop/scenario.cjs; its JSON line, or a failure.
  static std::string runScenario(const Scenario& s, const Publisher& p) {
    const char* node = std::getenv("AEV_NODE");
    const char* dir = std::getenv("AEV_INTEROP_DIR");
    if (!node || !*node || !dir || !*dir)
      throw std::runtime_error("AEV_NODE and AEV_INTEROP_DIR must name node and tests/interop (set by CTest)");
    const std::string command = "AEV_OTLP_URL=http://127.0.0.1:" + std::to_string(daemon().port()) +
                                " AEV_API_KEY=" + p.key.key + " AEV_CHANNEL_ID=" + std::to_string(p.channelId) +
                                " AEV_ENCODING=" + s.encoding + " AEV_GZIP=" + (s.gzip ? "1" : "0") + " " + node + " " +
                                dir + "/scenario.cjs " + s.name + " 2>&1";
    std::string out;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) throw std::runtime_error("cannot run node");
    std::array<char, 4096> buf{};
    while (auto n = fread(buf.data(), 1, buf.size(), pipe)) out.append(buf.data(), n);
    if (pclose(pipe) != 0) throw std::runtime_error(std::string(s.name) + " failed: " + out);
    return out;
  }

  static std::set<std::string> breakdownKeys(const Publisher& p, const std::string& dimension) {
    std::set<std::string> keys;
    auto r = p.keyed.get("/analytics/breakdown?dimension=" + dimension);
    if (r.status != 200) throw std::runtime_error(r.describe());
    for (const auto& row : objects(r.object()->getArray("rows")))
      if (!row->isNull("key")) keys.insert(strField(row, "key"));
    return keys;
  }

  // What the daemon's API says landed, one cell per column.
  static std::map<std::string, std::string> observed(const Scenario& s, const Publisher& p) {
    auto list = p.keyed.get("/traces?channel=" + std::to_string(p.channelId) + "&limit=100");
    if (list.status != 200) throw std::runtime_error(list.describe());
    std::int64_t tokens = 0, inputTokens = 0, outputTokens = 0, cached = 0, reasoning = 0, tools = 0, handoffs = 0,
                 errors = 0;
    double cost = 0;
    bool agent = false, session = false, user = false, messages = false, linked = false;
    const std::string wantSession = std::string("s-") + s.name, wantUser = std::string("u-") + s.name;
    for (const auto& trace : objects(listOf(list))) {
      auto summary = p.keyed.get(tracePath(strField(trace, "traceId"), "summary")).object();
      tokens += intField(summary, "totalTokens");
      inputTokens += intField(summary, "inputTokens");
      outputTokens += intField(summary, "outputTokens");
      cached += intField(summary, "cachedInputTokens");
      reasoning += intField(summary, "reasoningTokens");
      cost += summary->getValue<double>("costUsd");
      tools += intField(summary, "toolCallCount");
      handoffs += intField(summary, "handoffCount");
      errors += intField(summary, "errorCount");
      agent = agent || summary->getArray("agents")->size() > 0;
      session = session || (!summary->isNull("sessionId") && strField(summary, "sessionId") == wantSession);
      user = user || (!summary->isNull("userId") && strField(summary, "userId") == wantUser);
      for (const auto& e : objects(listOf(p.keyed.get(tracePath(strField(trace, "traceId"), "events"))))) {
        auto m = e->getObject("payload")->getObject("messages");
        messages = messages || (m && m->getArray("input")->size() > 0 && m->getArray("output")->size() > 0);
        // A tool run (or hand-off) linked to the LLM call that asked for it.
        linked = linked || !e->getObject("telemetry")->isNull("requestedBy");
      }
    }
    const auto yes = [](bool b) { return std::string(b ? "yes" : "no"); };
    // Subsets: cached tokens of the input, reasoning tokens of the output.
    EXPECT_LE(cached, inputTokens) << s.name;
    EXPECT_LE(reasoning, outputTokens) << s.name;
    const bool toolInAnalytics = breakdownKeys(p, "tool").count("get_weather") > 0;
    return {{"model", yes(breakdownKeys(p, "model").count("gpt-4o-mini") > 0)},
            {"tokens", yes(tokens > 0)},
            {"cached", yes(cached > 0)},
            {"reasoning", yes(reasoning > 0)},
            {"cost", yes(cost > 0)},
            {"tool", tools > 0 && toolInAnalytics ? "yes"
                     : toolInAnalytics            ? "requested"
                                                  : "no"},
            {"agent", yes(agent)},
            {"handoff", yes(handoffs > 0)},
            {"error", yes(errors > 0)},
            {"session", yes(session && breakdownKeys(p, "session").count(wantSession) > 0)},
            {"user", yes(user && breakdownKeys(p, "user").count(wantUser) > 0)},
            {"messages", yes(messages)},
            {"call link", yes(linked)}};
  }

  static std::string cell(const std::string& v) { return v == "yes" ? "✓" : v == "no" ? "—" : v; }

  static std::string header() {
    std::string matrix = "| Instrumentation |";
    for (const char* c : kColumns) matrix += std::string(" ") + c + " |";
    matrix += "\n|---|";
    for (std::size_t i = 0; i < std::size(kColumns); ++i) matrix += "---|";
    return matrix + "\n";
  }

  // Runs one scenario on its own organization and returns its matrix row; every cell is
  // checked against the expected one.
  static std::string row(const Scenario& s) {
    SCOPED_TRACE(s.name);
    auto p = newPublisher(std::string("interop-") + s.name);
    EXPECT_NO_THROW(runScenario(s, p));
    auto cells = observed(s, p);
    std::string line = std::string("| ") + s.label + " |";
    for (std::size_t i = 0; i < std::size(kColumns); ++i) {
      line += " " + cell(cells[kColumns[i]]) + " |";
      EXPECT_EQ(cells[kColumns[i]], s.expected[i]) << s.name << " " << kColumns[i];
    }
    return line + "\n";
  }

  static void print(const std::string& matrix) {
    std::cout << "\nConformance matrix (" << currentBackendName() << "):\n" << matrix << std::endl;
    if (const char* file = std::getenv("AEV_INTEROP_MATRIX"); file && *file)
      std::ofstream(file, std::ios::app) << matrix;
  }
};

TEST_F(InteropConformance, EveryInstrumentationLandsPerTheMatrix) {
  std::string matrix = header();
  for (const auto& s : kScenarios)
    if (std::string(s.name) != "langfuse") matrix += row(s);
  print(matrix);
}

// The Langfuse SDK's exporter posts to /api/public/otel/v1/traces with Basic auth.
TEST_F(InteropConformance, LangfuseThroughItsExporterPath) {
  auto probe = newPublisher("interop-probe");
  const auto answer =
      probe.keyed.post("/api/public/otel/v1/traces", R"({"resourceSpans":[]})",
                       {{"Content-Type", "application/json"}, {"x-channel-id", std::to_string(probe.channelId)}});
  if (answer.status == 404)
    GTEST_SKIP() << "POST /api/public/otel/v1/traces (the Langfuse exporter path) answers 404 on this build";
  for (const auto& s : kScenarios)
    if (std::string(s.name) == "langfuse") print(header() + row(s));
}

}  // namespace
}  // namespace aev::testing
