#!/usr/bin/env python3
"""OTLP/JSON request bodies for bench/otlp_dump.cpp, one a line: the recorded fixtures
(tests/unit/fixtures/otlp), the fuzz corpus (tests/fuzz/corpus/otlp_json), the bench's chat
span, and seeded mutations of them (values of other types, nulls, numbers as strings, keys
dropped or duplicated, message JSON altered, snake_case field names, truncations), so two
builds' mappings can be compared byte for byte.

    python3 bench/otlp_corpus.py [count] [seed] > bodies.jsonl
"""
import glob
import json
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
count = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)

seeds = []
for path in sorted(glob.glob(os.path.join(ROOT, "tests/unit/fixtures/otlp/*.json")) +
                   glob.glob(os.path.join(ROOT, "tests/fuzz/corpus/otlp_json/*.json"))):
    with open(path, encoding="utf-8") as f:
        seeds.append(json.load(f))

# The bench's GenAI chat span (bench/otlp_ingest.sh), one of them.
seeds.append({"resourceSpans": [{"resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "bench"}}]},
  "scopeSpans": [{"scope": {"name": "bench"}, "spans": [{
    "traceId": "4bf92f3577b34da6a3ce929d0e0e4736", "spanId": "0000000000000016", "name": "chat gpt-4o-mini", "kind": 3,
    "startTimeUnixNano": "1700000000000000000", "endTimeUnixNano": "1700000000250000000",
    "attributes": [
      {"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
      {"key": "gen_ai.provider.name", "value": {"stringValue": "openai"}},
      {"key": "gen_ai.request.model", "value": {"stringValue": "gpt-4o-mini"}},
      {"key": "gen_ai.usage.input_tokens", "value": {"intValue": "12"}},
      {"key": "gen_ai.usage.output_tokens", "value": {"intValue": "34"}},
      {"key": "gen_ai.response.finish_reasons", "value": {"arrayValue": {"values": [{"stringValue": "stop"}]}}},
      {"key": "gen_ai.input.messages", "value": {"stringValue":
        "[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"Say hello.\"}]}]"}},
      {"key": "gen_ai.output.messages", "value": {"stringValue":
        "[{\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"content\":\"Hello.\"}],\"finish_reason\":\"stop\"}]"}}]}]}]}]})

SCALARS = [None, True, False, 0, -1, 1.5, 1e300, "", "x", "12", "1.5e3", "null", "[]", "{}", "[{\"role\":\"user\"}]",
           "{\"input\":3,\"output\":\"4\"}", "\u00e9\u4e2d", [], {}, [1, "a"], {"a": 1}]
VALUE_KINDS = ["stringValue", "intValue", "doubleValue", "boolValue", "arrayValue", "kvlistValue", "bytesValue"]
INTERESTING_KEYS = ["gen_ai.request.model", "gen_ai.usage.input_tokens", "llm.token_count.prompt", "tool.name",
                    "gen_ai.tool.call.id", "openinference.span.kind", "gen_ai.operation.name", "langfuse.observation.type",
                    "langfuse.observation.usage_details", "llm.output_messages.0.message.tool_calls.0.tool_call.id",
                    "ai.response.toolCalls", "gen_ai.output.messages", "session.id", "user.id", "tag.tags",
                    "metadata", "usage", "tags", "duplicate_of", "semantic_kind", "traceloop.span.kind",
                    "gen_ai.transfer.mode", "handoff_to", "error.type", "status", "duration_ms", "tool_call_id"]


def nodes(x, out):
    out.append(x)
    if isinstance(x, dict):
        for v in x.values():
            nodes(v, out)
    elif isinstance(x, list):
        for v in x:
            nodes(v, out)
    return out


def snake(name):
    return "".join("_" + c.lower() if c.isupper() else c for c in name)


def mutate(doc):
    all_nodes = nodes(doc, [])
    dicts = [n for n in all_nodes if isinstance(n, dict) and n]
    lists = [n for n in all_nodes if isinstance(n, list) and n]
    op = rng.randrange(11)
    if op == 0 and dicts:  # a value of another type
        d = rng.choice(dicts)
        d[rng.choice(list(d))] = rng.choice(SCALARS)
    elif op == 1 and dicts:  # a key dropped
        d = rng.choice(dicts)
        del d[rng.choice(list(d))]
    elif op == 2 and lists:  # an element duplicated or dropped
        l = rng.choice(lists)
        i = rng.randrange(len(l))
        if rng.random() < 0.5:
            l.insert(i, json.loads(json.dumps(l[i])))
        else:
            del l[i]
    elif op == 3:  # an attribute value of another kind
        values = [n for n in all_nodes if isinstance(n, dict) and "key" in n and isinstance(n.get("value"), dict)]
        if values:
            a = rng.choice(values)
            kind = rng.choice(VALUE_KINDS)
            v = rng.choice(SCALARS)
            if kind == "arrayValue":
                v = {"values": [{"stringValue": str(v)}, {"intValue": "7"}]}
            elif kind == "kvlistValue":
                v = {"values": [{"key": "input", "value": {"intValue": "3"}}, {"key": "k", "value": {"stringValue": str(v)}}]}
            a["value"] = {kind: v}
    elif op == 4:  # an interesting key added to some attribute list
        attrs = [n for n in all_nodes if isinstance(n, list) and n and isinstance(n[0], dict) and "key" in n[0]]
        if attrs:
            rng.choice(attrs).append({"key": rng.choice(INTERESTING_KEYS), "value": {
                rng.choice(["stringValue", "intValue", "doubleValue"]): rng.choice(["7", "call_1", "tool", "LLM", "chat",
                                                                                    "handoff", "{\"total\":1}", "2.5"])}})
    elif op == 5:  # an attribute key renamed to another interesting one
        values = [n for n in all_nodes if isinstance(n, dict) and "key" in n]
        if values:
            rng.choice(values)["key"] = rng.choice(INTERESTING_KEYS)
    elif op == 6 and dicts:  # camelCase field names as snake_case (OTLP/JSON accepts both)
        d = rng.choice(dicts)
        k = rng.choice(list(d))
        d[snake(k)] = d.pop(k)
    elif op == 7:  # a message JSON string altered
        strings = [n for n in all_nodes if isinstance(n, dict) and isinstance(n.get("stringValue"), str)
                   and n["stringValue"][:1] in "[{"]
        if strings:
            s = rng.choice(strings)
            text = s["stringValue"]
            cut = rng.randrange(len(text) + 1)
            s["stringValue"] = rng.choice([text[:cut], text.replace("\"role\"", "\"Role\""),
                                           text.replace("\"content\"", "\"text\""), text + " ", "\"" + text[:cut] + "\""])
    elif op == 8:  # times and ids
        spans = [n for n in all_nodes if isinstance(n, dict) and "spanId" in n]
        if spans:
            s = rng.choice(spans)
            key = rng.choice(["startTimeUnixNano", "endTimeUnixNano", "traceId", "parentSpanId", "status", "kind"])
            s[key] = rng.choice(["0", "1700000000000000000", 1700000000000000000, "", "zz", "00000000000000000000000000000000",
                                 {"code": 2, "message": "boom"}, {"code": "STATUS_CODE_ERROR"}, 5])
    elif op == 9 and lists:  # spans of one trace reordered
        rng.shuffle(rng.choice(lists))
    return doc


lines = [json.dumps(s, separators=(",", ":"), ensure_ascii=False) for s in seeds]
for _ in range(count):
    doc = json.loads(json.dumps(rng.choice(seeds)))
    for _ in range(rng.randrange(1, 5)):
        doc = mutate(doc)
    text = json.dumps(doc, separators=(",", ":"), ensure_ascii=False)
    if rng.random() < 0.03:  # a truncated body
        text = text[:rng.randrange(len(text))]
    lines.append(text)
sys.stdout.write("\n".join(lines) + "\n")
