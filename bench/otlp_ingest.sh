#!/usr/bin/env bash
# OTLP ingest against batch publishing of the same events, same run (not run in CI): one
# agent-eventsd on SQLite pinned to CPU 0, wrk on CPU 1, loopback only. Figures:
#   - POST /v1/traces spans/s ÷ POST /events/batch events/s, 100 spans (events) a request:
#     the same 100 OpenTelemetry GenAI chat spans (model, usage, finish reason, a prompt and a
#     completion) as OTLP/JSON, and as agent-events events carrying the same attributes as
#     flat metadata keys (target >= 0.8); and the daemon's CPU time per span / event of
#     the same runs (/proc/PID/stat), whose ratio a busy machine moves less;
#   - the mapping's CPU per span, per convention, from aev_bench_otlp_mapping (bench/otlp_mapping.cpp)
#     on the spans recorded from the npm instrumentations (tests/unit/fixtures/otlp).
#
#   BIN        daemon binary (default build/daemon/agent-eventsd)
#   MAPPING    the timer (default build/aev_bench_otlp_mapping; cmake --build build --target aev_bench_otlp_mapping)
#   DURATION   seconds per wrk run (default 3)     REPEAT  repeats, interleaved (default 3)
#   CONNS      wrk connections (default 16)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$ROOT/build/daemon/agent-eventsd}
MAPPING=${MAPPING:-$ROOT/build/aev_bench_otlp_mapping}
DURATION=${DURATION:-3}
REPEAT=${REPEAT:-3}
CONNS=${CONNS:-16}
PORT=${PORT:-18933}
SERVER_CPUS=${SERVER_CPUS:-0}
CLIENT_CPUS=${CLIENT_CPUS:-1}

for tool in wrk jq curl taskset; do
  command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install wrk jq curl util-linux)" >&2; exit 1; }
done
[ -x "$BIN" ] || { echo "no daemon at $BIN: build it first (make build)" >&2; exit 1; }

work=$(mktemp -d /tmp/aev-bench-otlp.XXXXXX)
PID=""
cleanup() {
  [ -n "$PID" ] && kill -TERM "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
log() { echo "[$(date +%H:%M:%S)] $*" >&2; }
cpu_ticks() {  # utime+stime of a process (all its threads), in clock ticks
  local f
  f=$(sed 's/^.*) //' "/proc/$1/stat")
  set -- $f
  echo $((${12} + ${13}))
}

taskset -c "$SERVER_CPUS" "$BIN" --port "$PORT" --host 127.0.0.1 --data-dir "$work/data" \
  --set log.level=warn --set http.max_threads=64 --set plans.free.events_quota_monthly=2000000000 \
  >"$work/daemon.log" 2>&1 &
PID=$!
for _ in $(seq 1 200); do
  curl -fs -o /dev/null "http://127.0.0.1:$PORT/readyz" && break
  kill -0 "$PID" 2>/dev/null || { cat "$work/daemon.log" >&2; exit 1; }
  sleep 0.05
done

api() {  # method path [json]
  local args=(-fsS -X "$1" "http://127.0.0.1:$PORT$2" -H 'content-type: application/json'
    -H "authorization: Bearer $TOKEN")
  [ -n "${3:-}" ] && args+=(-d "$3")
  curl "${args[@]}"
}
TOKEN=""
curl -fsS -o /dev/null -X POST "http://127.0.0.1:$PORT/auth/register" -H 'content-type: application/json' \
  -d '{"email":"bench@example.com","username":"bench","password":"benchpassword"}'
TOKEN=$(curl -fsS -X POST "http://127.0.0.1:$PORT/auth/login" -H 'content-type: application/json' \
  -d '{"login":"bench","password":"benchpassword"}' | jq -r .access_token)
APP=$(api POST /apps '{"name":"bench"}' | jq -r .id)
CHANNEL=$(api POST "/apps/$APP/channels" '{"name":"bench"}' | jq -r .id)
KEY=$(api POST /api-keys '{"name":"bench","scopes":["publish","read"]}' | jq -r .key)


# 100 chat spans of one trace (OTLP/JSON) and the same 100 events for /events/batch.
jq -c -n '{resourceSpans: [{resource: {attributes: [{key: "service.name", value: {stringValue: "bench"}}]},
  scopeSpans: [{scope: {name: "bench"}, spans: [range(100) | {
    traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: ("00000000000000" + (. + 16 | tostring))[-16:],
    name: "chat gpt-4o-mini", kind: 3, startTimeUnixNano: "1700000000000000000", endTimeUnixNano: "1700000000250000000",
    attributes: [
      {key: "gen_ai.operation.name", value: {stringValue: "chat"}},
      {key: "gen_ai.provider.name", value: {stringValue: "openai"}},
      {key: "gen_ai.request.model", value: {stringValue: "gpt-4o-mini"}},
      {key: "gen_ai.usage.input_tokens", value: {intValue: "11"}},
      {key: "gen_ai.usage.output_tokens", value: {intValue: "7"}},
      {key: "gen_ai.response.finish_reasons", value: {arrayValue: {values: [{stringValue: "stop"}]}}},
      {key: "gen_ai.input.messages", value: {stringValue: "[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"Say hello.\"}]}]"}},
      {key: "gen_ai.output.messages", value: {stringValue: "[{\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"content\":\"Hello.\"}]}]"}}]}]}]}]}' \
  >"$work/spans.json"
jq -c -n --argjson c "$CHANNEL" '{events: [range(100) | {identifier: "chat gpt-4o-mini", channel_id: $c,
  eventType: "agent.message", traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
  payload: {name: "chat gpt-4o-mini", kind: "client", messages: {input: [{role: "user", content: "Say hello."}],
    output: [{role: "assistant", content: "Hello."}]}},
  metadata: {"gen_ai.operation.name": "chat", "gen_ai.provider.name": "openai", "gen_ai.request.model": "gpt-4o-mini",
    "gen_ai.usage.input_tokens": 11, "gen_ai.usage.output_tokens": 7, "gen_ai.response.finish_reasons": ["stop"],
    "service.name": "bench", "duration_ms": 250}}]}' >"$work/batch.json"

rate() {  # body-file path -> "items/s µs-of-daemon-CPU-per-item" (100 items a request)
  local out t0 t1
  t0=$(cpu_ticks "$PID")
  out=$(BODY_FILE=$1 API_KEY=$KEY CHANNEL_ID=$CHANNEL taskset -c "$CLIENT_CPUS" wrk -t1 -c"$CONNS" -d"${DURATION}s" \
    --timeout 10s -s "$ROOT/bench/wrk_post.lua" "http://127.0.0.1:$PORT$2")
  t1=$(cpu_ticks "$PID")
  if echo "$out" | grep -q "Non-2xx"; then echo "$out" >&2; echo "non-2xx answers" >&2; exit 1; fi
  echo "$out" | awk -v ticks=$((t1 - t0)) -v hz="$(getconf CLK_TCK)" -v d="$DURATION" \
    '/Requests\/sec/ { n = $2 * 100; printf "%.0f %.1f", n, ticks / hz * 1e6 / (n * d) }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
span() { echo "$(echo -n "$1" | median) [$(echo -n "$1" | sort -g | head -1)..$(echo -n "$1" | sort -g | tail -1)]"; }
ratios="" cpuRatios=""
log "otlp ingest bench: /v1/traces vs /events/batch, 100 a request, $REPEAT x ${DURATION}s, c=$CONNS"
for rep in $(seq 1 "$REPEAT"); do
  read -r otlp otlpCpu <<<"$(rate "$work/spans.json" /v1/traces)"
  read -r batch batchCpu <<<"$(rate "$work/batch.json" /events/batch)"
  r=$(awk -v a="$otlp" -v b="$batch" 'BEGIN { printf "%.3f", a / b }')
  c=$(awk -v a="$otlpCpu" -v b="$batchCpu" 'BEGIN { printf "%.3f", b / a }')
  ratios+="$r"$'\n'
  cpuRatios+="$c"$'\n'
  log "rep $rep: OTLP $otlp spans/s ($otlpCpu µs daemon CPU a span), batch $batch events/s ($batchCpu µs an event)," \
    "ratio $r (by CPU $c); load $(cut -d' ' -f1 /proc/loadavg)"
done
echo
echo "OTLP spans/s ÷ batch events/s (median [min..max]): $(span "$ratios")"
# The daemon's CPU per event, batch ÷ OTLP: what the rate ratio would be with the core to
# the daemon alone (it moves less than the rates when other work shares the machine).
echo "batch µs CPU an event ÷ OTLP µs CPU a span (median [min..max]): $(span "$cpuRatios")"
echo
if [ -x "$MAPPING" ]; then
  taskset -c "$SERVER_CPUS" "$MAPPING" "$ROOT/tests/unit/fixtures/otlp" 1000
else
  echo "(no $MAPPING: cmake --build build --target aev_bench_otlp_mapping for the mapping cost)"
fi
