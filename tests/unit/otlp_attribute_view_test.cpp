// telemetry/conventions.h's Lookup over an OTLP span's decoded attributes (a flat view, the
// span mapping's reader: otlp/span_events.cpp) against the same Lookup over the object those
// attributes make (otlp/attribute_json.h), the reader it replaces: every field, the kind, the
// hand-off target and each member must read alike, on tricky attribute lists (duplicate keys,
// invalid UTF-8, nested kvlists and arrays, keys that are also the short aliases, bytes, empty
// values, non-finite numbers) and on seeded random ones.
#include <Poco/JSON/Object.h>
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <random>

#include "common/json_condense.h"
#include "otlp/attribute_json.h"
#include "otlp_values.h"
#include "telemetry/conventions.h"

namespace aev::otlp {
namespace {

namespace conventions = telemetry::conventions;
using conventions::Field;

using test_values::array;
using test_values::boolean;
using test_values::bytes;
using test_values::kvlist;
using test_values::num;
using test_values::real;
using test_values::str;

Poco::Dynamic::Var materialize(const void* value) { return jsonValue(*static_cast<const AnyValue*>(value)); }

conventions::Lookup viewOf(const std::vector<KeyValue>& attributes) {
  std::vector<conventions::FlatMember> members;
  for (const auto& kv : attributes) members.push_back({kv.key, &kv.value});
  return conventions::Lookup(std::move(members), materialize);
}

std::string shown(const std::optional<Poco::Dynamic::Var>& v) { return v ? condensedJsonAnyOrder(*v) : "(none)"; }

// Every reading of the view equals the object's, for the span names a kind or hand-off reads.
void expectSameReadings(const std::vector<KeyValue>& attributes, const std::string& what) {
  const auto object = attributeObject(attributes);
  const conventions::Lookup fromObject(object);
  const auto view = viewOf(attributes);
  for (int f = 0; f <= static_cast<int>(Field::DurationMs); ++f) {
    const auto field = static_cast<Field>(f);
    for (bool conventionsOnly : {false, true}) {
      EXPECT_EQ(fromObject.text(field, conventionsOnly), view.text(field, conventionsOnly)) << what << " field " << f;
      EXPECT_EQ(fromObject.number(field, conventionsOnly), view.number(field, conventionsOnly))
          << what << " field " << f;
    }
    EXPECT_EQ(fromObject.textList(field), view.textList(field)) << what << " field " << f;
  }
  for (const std::string name : {"", "chat", "handoff to Billing", "execute_tool lookup"}) {
    EXPECT_EQ(conventions::kindOf(object, name), conventions::kindOf(view, name)) << what << " " << name;
    EXPECT_EQ(conventions::handoffTarget(object, name), conventions::handoffTarget(view, name)) << what << " " << name;
  }
  for (const auto& kv : attributes) {
    const auto fromMember = object->has(kv.key) ? std::optional<Poco::Dynamic::Var>(object->get(kv.key)) : std::nullopt;
    EXPECT_EQ(shown(fromMember), shown(view.member(kv.key))) << what << " member " << kv.key;
  }
  EXPECT_FALSE(view.member("no.such.key"));
  // Any key, flat or a path (what apply() reads beside the table: usage, the Langfuse level).
  std::vector<std::string> keys = {
      "usage", "usage.input_tokens", "langfuse.observation.level", "langfuse.trace.name", "no.such.key", "gen_ai"};
  for (const auto& kv : attributes) keys.push_back(kv.key);
  for (const auto& key : keys) {
    const auto expected = shown(conventions::lookup(object, key));
    EXPECT_EQ(expected, shown(fromObject.at(key))) << what << " at " << key;
    EXPECT_EQ(expected, shown(view.at(key))) << what << " at " << key;
  }
}

TEST(OtlpAttributeView, DuplicateKeysReadTheLastValueAsTheObjectKeepsIt) {
  const std::vector<KeyValue> attributes = {
      {"gen_ai.request.model", str("first")},  {"gen_ai.usage.input_tokens", num(3)},
      {"gen_ai.request.model", str("second")}, {"gen_ai.usage.input_tokens", str("not a number")},
      {"gen_ai.operation.name", str("chat")},  {"gen_ai.operation.name", str("execute_tool")},
      {"gen_ai.request.model", str("third")},
  };
  const auto view = viewOf(attributes);
  EXPECT_EQ(view.text(Field::Model), "third");
  EXPECT_FALSE(view.number(Field::InputTokens));
  EXPECT_EQ(conventions::kindOf(view, "span"), conventions::Kind::Tool);
  expectSameReadings(attributes, "duplicates");
}

TEST(OtlpAttributeView, AliasKeysInvalidUtf8BytesEmptyAndNonFiniteValues) {
  const std::vector<KeyValue> attributes = {
      // The short aliases the mapping adds, sent by the span itself: agent-events rows.
      {"provider", str("Azure.AI.OpenAI")},
      {"tool", num(7)},
      {"session", boolean(true)},
      {"user", AnyValue{}},
      {"finish_reason", array({})},
      {"llm.model_name", str("\xff\xfe model")},
      {"gen_ai.tool.name", bytes(std::string("\x00\x01\xff", 3))},
      {"gen_ai.agent.name", AnyValue{}},
      {"agent.name", str("planner")},
      {"gen_ai.usage.output_tokens", real(std::numeric_limits<double>::quiet_NaN())},
      {"llm.token_count.completion", real(-std::numeric_limits<double>::infinity())},
      {"gen_ai.usage.cost", real(0.25)},
      {"llm.token_count.prompt", str("12")},
      {"duration_ms", str("1.5e3")},
  };
  const auto view = viewOf(attributes);
  EXPECT_EQ(view.text(Field::Tool), "7");
  EXPECT_EQ(view.text(Field::Tool, true), "AAH/");  // bytes read as their base64 text
  EXPECT_EQ(view.number(Field::InputTokens), 12);
  expectSameReadings(attributes, "aliases and odd values");
}

TEST(OtlpAttributeView, NestedKvlistsAndArraysAreReadAsPaths) {
  const std::vector<KeyValue> attributes = {
      {"usage", kvlist({{"input_tokens", num(40)}, {"output_tokens", str("2")}})},
      {"langfuse", kvlist({{"trace", kvlist({{"name", str("nightly")}, {"tags", array({str("a"), num(1)})}})}})},
      {"gen_ai.response.finish_reasons", array({str("length"), str("stop")})},
      {"tag.tags", array({str("x"), boolean(false), AnyValue{}, array({str("deep")})})},
      {"langfuse.observation.usage_details", str(R"({"input":10,"input_cached_tokens":4,"output":5,"total":15})")},
      {"langfuse.observation.cost_details", kvlist({{"input", real(0.5)}, {"output", real(0.25)}})},
      {"gen_ai", str("a scalar where a path would look for an object")},
  };
  const auto view = viewOf(attributes);
  EXPECT_EQ(view.number(Field::InputTokens), 40);
  EXPECT_EQ(view.text(Field::TraceName), "nightly");
  EXPECT_EQ(view.text(Field::FinishReason), "length");
  EXPECT_EQ(view.number(Field::CostUsd), 0.75);
  expectSameReadings(attributes, "nested");
}

TEST(OtlpAttributeView, HandoffSpansOfEveryConvention) {
  expectSameReadings({{"openinference.span.kind", str("TOOL")},
                      {"tool.name", str("handoff_to_billing")},
                      {"output.value", str(R"({"to_agent":"Billing"})")}},
                     "openinference tool hand-off");
  expectSameReadings({{"openinference.span.kind", str("TOOL")}, {"output.value", str("Refunds")}}, "output text");
  expectSameReadings({{"gen_ai.operation.name", str("execute_tool")},
                      {"gen_ai.transfer.mode", str("pass_control")},
                      {"gen_ai.transfer.target.name", str("Support")}},
                     "gen_ai transfer");
  expectSameReadings({{"traceloop.span.kind", str("handoff")}, {"gen_ai.handoff.to_agent", num(5)}}, "traceloop");
  const std::vector<KeyValue> named = {{"openinference.span.kind", str("TOOL")}};
  EXPECT_EQ(conventions::handoffTarget(viewOf(named), "handoff to Billing"), "Billing");
}

// Random attribute lists over the table's keys, the kind keys, heads that nested paths start
// from and a few others, with values of every kind: the view reads what the object reads.
TEST(OtlpAttributeView, SeededRandomAttributeListsReadAlike) {
  std::vector<std::string> keys;
  for (const auto& row : conventions::table()) keys.push_back(row.key);
  for (const char* k :
       {"langfuse.observation.type", "gen_ai.operation.name", "openinference.span.kind", "traceloop.span.kind",
        "llm.request.type", "ai.operationId", "gen_ai.transfer.mode", "output.value", "graph.node.id", "usage",
        "langfuse", "gen_ai", "ai", "llm", "tag", "x", "exception.type", "service.version", "deployment"})
    keys.push_back(k);
  const std::vector<std::string> texts = {"chat",
                                          "TOOL",
                                          "handoff",
                                          "execute_tool",
                                          "pass_control",
                                          "ai.toolCall",
                                          "openai.chat",
                                          "STOP",
                                          "12",
                                          "-3",
                                          "1e400",
                                          "",
                                          "\xc3\x28",
                                          "{\"total\":2}",
                                          R"({"input":3,"input_x":2,"output":1,"to_agent":"B"})",
                                          "[\"t\",1]",
                                          "generation",
                                          "handoff_to_a",
                                          "ai.streamText.doStream"};
  std::mt19937 rng(20261128);
  const auto pick = [&rng](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  std::function<AnyValue(int)> value = [&](int depth) -> AnyValue {
    switch (pick(depth > 1 ? 7 : 9)) {
      case 0:
        return num(static_cast<std::int64_t>(pick(2000)) - 100);
      case 1:
        return real(pick(3) == 0 ? std::nan("") : static_cast<double>(pick(1000)) / 8);
      case 2:
        return boolean(pick(2) == 0);
      case 3:
        return bytes(texts[pick(texts.size())]);
      case 4:
        return AnyValue{};
      case 5:
      case 6:
        return str(texts[pick(texts.size())]);
      case 7: {
        std::vector<AnyValue> elements(pick(3));
        for (auto& e : elements) e = value(depth + 1);
        return array(std::move(elements));
      }
      default: {
        std::vector<KeyValue> members(pick(4));
        for (auto& m : members) {
          const auto& full = keys[pick(keys.size())];
          const auto dot = full.find('.');
          m = {dot == std::string::npos ? full : full.substr(dot + 1), value(depth + 1)};
        }
        return kvlist(std::move(members));
      }
    }
  };
  for (int round = 0; round < 1500; ++round) {
    std::vector<KeyValue> attributes(1 + pick(12));
    for (auto& kv : attributes) kv = {keys[pick(keys.size())], value(0)};
    expectSameReadings(attributes, "round " + std::to_string(round));
    if (HasFailure()) break;  // one failing list is enough to read
  }
}

}  // namespace
}  // namespace aev::otlp
