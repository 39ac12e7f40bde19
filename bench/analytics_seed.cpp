// analytics_seed: synthetic telemetry events for bench/analytics.sh, written in the bulk
// format each engine loads fastest. Deterministic: row i depends only on (i, N, now), so
// every format of one (N, now, ids) describes the same rows.
//
//   analytics_seed FORMAT N NOW_US ORG APP CHANNEL
//     sqlite    SQL text: multi-row INSERTs into events and event_attributes
//     pg-events CSV for COPY events (...) FROM STDIN (FORMAT csv, NULL '\N')
//     pg-attrs  CSV for COPY event_attributes (...) FROM STDIN (FORMAT csv)
//     ch        TSV for ClickHouse (tags as the Nested arrays tags.key / tags.value)
//     columns   the events column list of sqlite and pg-events, comma-separated
//
// The mix: 55 % LLM calls (8 models, skewed; provider, tokens and cost_usd from the model's
// price, as config/prices.json), 30 % tool results (15 tools, Zipf), agent start/end and
// handoffs, user messages; 3 % status 'error'; ~20 agents (Zipf); duration_ms lognormal;
// tags team (always), tier (always), region (half the events); ts spread evenly over the 7
// days before NOW (in order of id, with jitter); traces of 8 consecutive events.
// Progress (every million events) goes to stderr.
//
// Build: g++ -O2 -std=c++20 -o analytics_seed bench/analytics_seed.cpp
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

struct Rng {
  std::uint64_t s;
  explicit Rng(std::uint64_t seed) : s(splitmix(seed ^ 0x5eed0a11c0ffeeULL)) {}
  std::uint64_t next() { return s = splitmix(s); }
  double uniform() { return (next() >> 11) * (1.0 / 9007199254740992.0); }  // [0, 1)
  double normal() {
    double u1 = uniform(), u2 = uniform();
    if (u1 < 1e-300) u1 = 1e-300;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
};

struct Model {
  const char* name;
  const char* provider;
  double weight, priceIn, priceOut;  // USD per million tokens (config/prices.json)
  double medianIn, medianOut, msPerToken;
};
const Model kModels[] = {
    {"gpt-4o-mini", "openai", 0.28, 0.15, 0.60, 900, 250, 8},
    {"gpt-4o", "openai", 0.20, 2.50, 10.00, 1500, 350, 15},
    {"claude-3-5-sonnet", "anthropic", 0.16, 3.00, 15.00, 1800, 400, 20},
    {"claude-3-5-haiku", "anthropic", 0.12, 0.80, 4.00, 1000, 250, 10},
    {"gemini-1.5-flash", "google", 0.10, 0.075, 0.30, 1200, 300, 6},
    {"gpt-4.1", "openai", 0.07, 2.00, 8.00, 2000, 400, 14},
    {"gemini-1.5-pro", "google", 0.04, 1.25, 5.00, 2500, 450, 18},
    {"claude-3-opus", "anthropic", 0.03, 15.00, 75.00, 2500, 500, 35},
};
const char* const kAgents[] = {"planner",    "researcher", "coder",      "reviewer",  "critic",
                               "summarizer", "router",     "retriever",  "writer",    "translator",
                               "support",    "triage",     "billing",    "scheduler", "extractor",
                               "classifier", "qa",         "onboarding", "sales",     "monitor"};
const char* const kTools[] = {"web_search", "sql_query",   "http_get",     "read_file",   "write_file",
                              "grep",       "calculator",  "send_email",   "vector_search", "run_python",
                              "create_ticket", "get_weather", "calendar_lookup", "crm_update", "slack_post"};
const char* const kTeams[] = {"platform", "search", "payments", "growth", "support", "data", "infra", "mobile"};
const char* const kErrors[] = {"timeout", "rate_limit", "invalid_request", "tool_error", "context_length"};
const char* const kWords[] = {"the",     "agent",   "called",  "a",        "tool",    "to",      "look",    "up",
                              "order",   "status",  "and",     "returned", "result",  "with",    "three",   "items",
                              "customer", "asked",  "about",   "refund",   "policy",  "for",     "their",   "last",
                              "invoice", "we",      "checked", "account",  "history", "found",   "no",      "issue",
                              "please",  "confirm", "shipping", "address", "before",  "proceed", "summary", "next"};

std::vector<double> zipf(std::size_t n, double s) {
  std::vector<double> cum(n);
  double total = 0;
  for (std::size_t k = 0; k < n; ++k) total += 1.0 / std::pow(double(k + 1), s);
  double acc = 0;
  for (std::size_t k = 0; k < n; ++k) cum[k] = (acc += 1.0 / std::pow(double(k + 1), s) / total);
  return cum;
}
std::size_t pick(const std::vector<double>& cum, double u) {
  for (std::size_t k = 0; k < cum.size(); ++k)
    if (u < cum[k]) return k;
  return cum.size() - 1;
}

struct Event {
  std::int64_t id, seq, ts, received;
  std::string identifier, payload, metadata, eventType, traceId, spanId, parentSpanId, source, agent, environment,
      endUser, status;
  const char* model = nullptr;
  const char* provider = nullptr;
  const char* tool = nullptr;
  const char* finishReason = nullptr;
  const char* errorType = nullptr;
  bool hasTokens = false, hasDuration = false;
  std::int64_t inTok = 0, outTok = 0;
  double cost = 0, duration = 0;
  std::vector<std::pair<const char*, const char*>> tags;
};

std::string hex(std::uint64_t v, int digits) {
  static const char* d = "0123456789abcdef";
  std::string s(digits, '0');
  for (int i = digits - 1; i >= 0; --i, v >>= 4) s[i] = d[v & 15];
  return s;
}
std::string num(double v, const char* fmt) {
  char b[64];
  std::snprintf(b, sizeof b, fmt, v);
  return b;
}

class Generator {
 public:
  Generator(std::int64_t n, std::int64_t now) : n_(n), now_(now), agents_(zipf(20, 1.0)), tools_(zipf(15, 1.1)),
                                                teams_(zipf(8, 0.8)) {
    double acc = 0;
    for (const auto& m : kModels) modelCum_.push_back(acc += m.weight);
  }

  Event make(std::int64_t i) const {  // i in [1, n]
    Rng r(static_cast<std::uint64_t>(i));
    Event e;
    e.id = i;
    e.seq = i;
    const std::int64_t span = 7LL * 86400 * 1000000;
    const double slot = double(span) / double(n_);
    e.ts = now_ - span + static_cast<std::int64_t>((double(i - 1) + r.uniform()) * slot);
    e.received = e.ts + 2000 + static_cast<std::int64_t>(r.uniform() * 150000);
    e.agent = kAgents[pick(agents_, r.uniform())];
    e.environment = r.uniform() < 0.85 ? "production" : "staging";
    e.endUser = "user-" + std::to_string(static_cast<int>(std::exp(r.uniform() * std::log(5000.0))));
    e.source = r.uniform() < 0.85 ? "api" : "batch";
    const std::uint64_t trace = static_cast<std::uint64_t>((i - 1) / 8);
    e.traceId = hex(splitmix(trace * 2 + 1), 16) + hex(splitmix(trace * 2 + 2), 16);
    e.spanId = hex(splitmix(static_cast<std::uint64_t>(i) + 0x51ULL), 16);
    if ((i - 1) % 8 != 0) e.parentSpanId = hex(splitmix(trace * 8 + 1 + 0x51ULL), 16);
    const bool error = r.uniform() < 0.03;
    e.status = error ? "error" : "ok";
    if (error) e.errorType = kErrors[r.next() % 5];

    const double kind = r.uniform();
    std::string content;
    if (kind < 0.55) {  // an LLM call
      const Model& m = kModels[pick(modelCum_, r.uniform())];
      e.model = m.name;
      e.provider = m.provider;
      e.eventType = "agent.message";
      e.identifier = "llm-call";
      e.hasTokens = e.hasDuration = true;
      e.inTok = std::max<std::int64_t>(1, std::llround(m.medianIn * std::exp(0.9 * r.normal())));
      e.outTok = error ? 0 : std::max<std::int64_t>(1, std::llround(m.medianOut * std::exp(0.8 * r.normal())));
      e.cost = (double(e.inTok) * m.priceIn + double(e.outTok) * m.priceOut) / 1e6;
      e.duration = (300 + double(e.outTok) * m.msPerToken) * std::exp(0.35 * r.normal());
      const double f = r.uniform();
      e.finishReason = error ? nullptr : f < 0.85 ? "stop" : f < 0.97 ? "tool_calls" : "length";
      content = "assistant";
    } else if (kind < 0.85) {  // a tool result
      e.tool = kTools[pick(tools_, r.uniform())];
      e.eventType = "agent.tool_call.end";
      e.identifier = "tool-result";
      e.hasDuration = true;
      e.duration = 120 * std::exp(1.0 * r.normal());
      content = "tool";
    } else if (kind < 0.93) {  // a run starts or ends
      const bool end = r.uniform() < 0.5;
      e.eventType = error ? "agent.error" : end ? "agent.end" : "agent.start";
      e.identifier = end ? "run-end" : "run-start";
      if (end) {
        e.hasDuration = true;
        e.duration = 8000 * std::exp(0.8 * r.normal());
      }
      content = "system";
    } else if (kind < 0.97) {
      e.eventType = error ? "agent.error" : "agent.handoff";
      e.identifier = "handoff";
      content = "system";
    } else {
      e.eventType = error ? "agent.error" : "agent.message";
      e.identifier = "user-message";
      content = "user";
    }
    // Payload: a message of lognormal length (median ~160 characters).
    const int len = std::min(2000, std::max(20, static_cast<int>(160 * std::exp(0.6 * r.normal()))));
    std::string text;
    while (static_cast<int>(text.size()) < len) {
      if (!text.empty()) text += ' ';
      text += kWords[r.next() % (sizeof kWords / sizeof *kWords)];
    }
    e.payload = "{\"role\":\"" + content + "\",\"content\":\"" + text + "\"}";

    e.tags.emplace_back("team", kTeams[pick(teams_, r.uniform())]);
    const double t = r.uniform();
    e.tags.emplace_back("tier", t < 0.5 ? "free" : t < 0.85 ? "pro" : "enterprise");
    if (r.uniform() < 0.5) {
      const double g = r.uniform();
      e.tags.emplace_back("region", g < 0.4 ? "us-east" : g < 0.7 ? "eu-west" : g < 0.9 ? "us-west" : "ap-south");
    }
    // The metadata as a publisher would have sent it (the telemetry columns come from it).
    std::string md = "{";
    if (e.model) {
      md += "\"model\":\"" + std::string(e.model) + "\",\"provider\":\"" + e.provider + "\",\"usage\":{\"input_tokens\":" +
            std::to_string(e.inTok) + ",\"output_tokens\":" + std::to_string(e.outTok) + "},";
    }
    if (e.tool) md += "\"tool\":\"" + std::string(e.tool) + "\",";
    if (e.hasDuration) md += "\"duration_ms\":" + num(e.duration, "%.3f") + ",";
    if (error) md += "\"status\":\"error\",\"error_type\":\"" + std::string(e.errorType) + "\",";
    md += "\"environment\":\"" + e.environment + "\",\"user\":\"" + e.endUser + "\",\"tags\":{";
    for (std::size_t k = 0; k < e.tags.size(); ++k)
      md += std::string(k ? "," : "") + "\"" + e.tags[k].first + "\":\"" + e.tags[k].second + "\"";
    md += "}}";
    e.metadata = md;
    return e;
  }

 private:
  std::int64_t n_, now_;
  std::vector<double> agents_, tools_, teams_, modelCum_;
};

// One output column: NULL or a value, quoted per format.
enum class Fmt { SQLite, Csv, Tsv };
class Row {
 public:
  explicit Row(Fmt f) : f_(f) {}
  void null() { sep(); out_ += f_ == Fmt::SQLite ? "NULL" : "\\N"; }
  void i(std::int64_t v) { sep(); out_ += std::to_string(v); }
  void d(double v, const char* fmt) { sep(); out_ += num(v, fmt); }
  void s(const std::string& v) {
    sep();
    const char q = f_ == Fmt::SQLite ? '\'' : '"';
    if (f_ == Fmt::Tsv) {  // our values carry no tab, newline or backslash
      out_ += v;
      return;
    }
    out_ += q;
    for (char c : v) {
      if (c == q) out_ += q;
      out_ += c;
    }
    out_ += q;
  }
  void s(const char* v) { v ? s(std::string(v)) : null(); }
  void raw(const std::string& v) { sep(); out_ += v; }
  std::string take() {
    std::string r;
    r.swap(out_);
    first_ = true;
    return r;
  }

 private:
  void sep() {
    if (!first_) out_ += f_ == Fmt::Tsv ? '\t' : ',';
    first_ = false;
  }
  Fmt f_;
  bool first_ = true;
  std::string out_;
};

const char* const kEventColumns =
    "id,org_id,app_id,channel_id,seq,identifier,payload,agent_id,event_type,trace_id,span_id,parent_span_id,"
    "metadata,occurred_at,received_at,source,api_key_id,user_id,ts,model,provider,status,agent,tool,finish_reason,"
    "semantic_kind,service,operation,error_type,environment,release_tag,end_user,input_tokens,output_tokens,"
    "cost_usd,duration_ms";

void eventColumns(Row& w, const Event& e, std::int64_t org, std::int64_t app, std::int64_t ch) {
  w.i(e.id), w.i(org), w.i(app), w.i(ch), w.i(e.seq), w.s(e.identifier), w.s(e.payload), w.s(e.agent);
  w.s(e.eventType), w.s(e.traceId), w.s(e.spanId);
  e.parentSpanId.empty() ? w.null() : w.s(e.parentSpanId);
  w.s(e.metadata), w.i(e.ts), w.i(e.received), w.s(e.source), w.null(), w.null(), w.i(e.ts);
  w.s(e.model), w.s(e.provider), w.s(e.status), w.s(e.agent), w.s(e.tool), w.s(e.finishReason);
  w.null(), w.null(), w.null(), w.s(e.errorType), w.s(e.environment), w.null(), w.s(e.endUser);
  if (e.hasTokens) {
    w.i(e.inTok), w.i(e.outTok), w.d(e.cost, "%.10g");
  } else {
    w.null(), w.null(), w.null();
  }
  e.hasDuration ? w.d(e.duration, "%.3f") : w.null();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "columns") == 0) {
    std::puts(kEventColumns);
    return 0;
  }
  if (argc != 7) {
    std::fprintf(stderr, "usage: %s sqlite|pg-events|pg-attrs|ch|columns N NOW_US ORG APP CHANNEL\n", argv[0]);
    return 2;
  }
  const std::string format = argv[1];
  const std::int64_t n = std::atoll(argv[2]), now = std::atoll(argv[3]), org = std::atoll(argv[4]),
                     app = std::atoll(argv[5]), ch = std::atoll(argv[6]);
  static char buf[1 << 20];
  std::setvbuf(stdout, buf, _IOFBF, sizeof buf);
  Generator g(n, now);
  const int batch = 200;  // rows per INSERT (sqlite)
  std::string attrs;
  for (std::int64_t i = 1; i <= n; ++i) {
    const Event e = g.make(i);
    if (format == "sqlite") {
      Row w(Fmt::SQLite);
      eventColumns(w, e, org, app, ch);
      const bool firstOfBatch = (i - 1) % batch == 0, last = (i % batch == 0) || i == n;
      if (firstOfBatch) std::fputs((std::string("INSERT INTO events (") + kEventColumns + ") VALUES\n").c_str(), stdout);
      std::fputs(("(" + w.take() + (last ? ");\n" : "),\n")).c_str(), stdout);
      for (const auto& [k, v] : e.tags) {
        Row a(Fmt::SQLite);
        a.i(e.id), a.i(org), a.i(e.ts), a.s(k), a.s(v);
        attrs += (attrs.empty() ? "INSERT INTO event_attributes (event_id, org_id, ts, key, value) VALUES\n(" : ",\n(") +
                 a.take() + ")";
      }
      if (last) {
        std::fputs((attrs + ";\n").c_str(), stdout);
        attrs.clear();
      }
    } else if (format == "pg-events") {
      Row w(Fmt::Csv);
      eventColumns(w, e, org, app, ch);
      std::fputs((w.take() + "\n").c_str(), stdout);
    } else if (format == "pg-attrs") {
      for (const auto& [k, v] : e.tags) {
        Row a(Fmt::Csv);
        a.i(e.id), a.i(org), a.i(e.ts), a.s(k), a.s(v);
        std::fputs((a.take() + "\n").c_str(), stdout);
      }
    } else if (format == "ch") {
      // id org_id app_id channel_id seq event_type agent model provider status tool environment end_user
      // input_tokens output_tokens cost_usd duration_ms ts tags.key tags.value
      Row w(Fmt::Tsv);
      w.i(e.id), w.i(org), w.i(app), w.i(ch), w.i(e.seq), w.s(e.eventType), w.s(e.agent);
      w.s(e.model ? e.model : ""), w.s(e.provider ? e.provider : ""), w.s(e.status), w.s(e.tool ? e.tool : "");
      w.s(e.environment), w.s(e.endUser), w.i(e.inTok), w.i(e.outTok), w.d(e.cost, "%.10g");
      e.hasDuration ? w.d(e.duration, "%.3f") : w.null();
      w.i(e.ts);
      std::string keys = "[", values = "[";
      for (std::size_t k = 0; k < e.tags.size(); ++k) {
        keys += std::string(k ? "," : "") + "'" + e.tags[k].first + "'";
        values += std::string(k ? "," : "") + "'" + e.tags[k].second + "'";
      }
      w.raw(keys + "]"), w.raw(values + "]");
      std::fputs((w.take() + "\n").c_str(), stdout);
    } else {
      std::fprintf(stderr, "unknown format %s\n", format.c_str());
      return 2;
    }
    if (i % 1000000 == 0) std::fprintf(stderr, "  %s: %lld of %lld events\n", format.c_str(), (long long)i, (long long)n);
  }
  std::fflush(stdout);
  return std::ferror(stdout) ? 1 : 0;
}
