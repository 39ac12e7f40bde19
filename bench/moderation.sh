#!/usr/bin/env bash
# Publish rate with 0, 10 and 100 moderation rules, as ratios to the 0-rule rate
# (`make bench-moderation`; not run in CI). One agent-eventsd on SQLite pinned to CPU 0,
# wrk on CPU 1, loopback only; the daemon is stopped by its PID on exit.
#
# The rules are a mix of the kinds a deployment uses (regex, keyword, the built-in
# plugin detectors pii.email / pii.credit_card / secrets.api_key / prompt_injection), all
# on the request target, and the published event (an agent.message from the user) matches
# none of them: the figures are the cost of evaluating rules on every event, not of
# recording violations. Targets: POST /event and POST /events/batch (100 events).
#
#   BIN        daemon binary (default build/daemon/agent-eventsd; plugins from its build tree)
#   DURATION   seconds per wrk run (default 3)     REPEAT  repeats, interleaved (default 3)
#   CONNS      wrk connections (default 16)        COUNTS  rule counts (default "0 10 100")
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$ROOT/build/daemon/agent-eventsd}
DURATION=${DURATION:-3}
REPEAT=${REPEAT:-3}
CONNS=${CONNS:-16}
COUNTS=${COUNTS:-"0 10 100"}
PORT=${PORT:-18931}
SERVER_CPUS=${SERVER_CPUS:-0}
CLIENT_CPUS=${CLIENT_CPUS:-1}

for tool in wrk jq curl taskset; do
  command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install wrk jq curl util-linux)" >&2; exit 1; }
done
[ -x "$BIN" ] || { echo "no daemon at $BIN: build it first (make build)" >&2; exit 1; }

work=$(mktemp -d /tmp/aev-bench-moderation.XXXXXX)
PID=""
cleanup() {
  [ -n "$PID" ] && kill -TERM "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
log() { echo "[$(date +%H:%M:%S)] $*" >&2; }

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

event='{"identifier":"bench-event","channel_id":'$CHANNEL',"agentId":"agent-bench-0001","eventType":"agent.message","traceId":"4bf92f3577b34da6a3ce929d0e0e4736","payload":{"role":"user","content":"The quick brown fox jumps over the lazy dog while the benchmark publishes its events now.","tokens":42}}'
echo "$event" >"$work/single.json"
jq -c --argjson e "$event" -n '{events: [range(100)] | map($e)}' >"$work/batch.json"

rule_body() {  # i -> one rule of the mix
  case $(($1 % 8)) in
    0) echo '{"name":"r'$1'","action":"redact","detector":"regex","pattern":"sk-[A-Za-z0-9]{32,}"}' ;;
    1) echo '{"name":"r'$1'","action":"block","detector":"keyword","pattern":"forbidden-term-'$1'"}' ;;
    2) echo '{"name":"r'$1'","action":"redact","detector":"pii.email"}' ;;
    3) echo '{"name":"r'$1'","action":"flag","detector":"regex","pattern":"(?i)password\\s*[:=]\\s*\\S+"}' ;;
    4) echo '{"name":"r'$1'","action":"redact","detector":"pii.credit_card"}' ;;
    5) echo '{"name":"r'$1'","action":"block","detector":"secrets.api_key"}' ;;
    6) echo '{"name":"r'$1'","action":"flag","detector":"prompt_injection"}' ;;
    7) echo '{"name":"r'$1'","action":"flag","detector":"keyword","pattern":"refund-'$1'"}' ;;
  esac
}
set_rules() {  # n: replace the organization's rules by n of the mix
  for id in $(api GET /moderation/rules | jq -r '.data[].ruleId'); do api DELETE "/moderation/rules/$id" >/dev/null; done
  for i in $(seq 0 $(($1 - 1))); do api POST /moderation/rules "$(rule_body "$i")" >/dev/null; done
  # Check that the event matches none of them: the figures measure evaluation only.
  local verdict
  verdict=$(api POST /moderation/evaluate "$event" | jq -r '.matches | length')
  [ "$verdict" = 0 ] || { echo "the bench event matches $verdict rules" >&2; exit 1; }
}

rate() {  # body-file events-per-request -> events/s
  local out
  out=$(BODY_FILE=$1 API_KEY=$KEY taskset -c "$CLIENT_CPUS" wrk -t1 -c"$CONNS" -d"${DURATION}s" --timeout 10s \
    -s "$ROOT/bench/wrk_post.lua" "http://127.0.0.1:$PORT/$([ "$2" = 1 ] && echo event || echo events/batch)")
  if echo "$out" | grep -q "Non-2xx"; then echo "$out" >&2; echo "non-2xx answers" >&2; exit 1; fi
  echo "$out" | awk -v n="$2" '/Requests\/sec/ { printf "%.0f", $2 * n }'
}

declare -A RESULT  # "<target> <count> <rep>" -> events/s
log "moderation bench: rules {$COUNTS} x {single, batch of 100} x $REPEAT, ${DURATION}s each, c=$CONNS"
for rep in $(seq 1 "$REPEAT"); do
  for n in $COUNTS; do
    set_rules "$n"
    RESULT["single $n $rep"]=$(rate "$work/single.json" 1)
    RESULT["batch $n $rep"]=$(rate "$work/batch.json" 100)
    log "rep $rep, $n rules: single ${RESULT["single $n $rep"]}/s, batch ${RESULT["batch $n $rep"]} events/s"
  done
done

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo
echo "| target | rules | events/s (median) | ratio to 0 rules (median [min..max]) |"
echo "|---|---|---|---|"
base=$(echo "$COUNTS" | awk '{ print $1 }')
for target in single batch; do
  for n in $COUNTS; do
    rates=$(for rep in $(seq 1 "$REPEAT"); do echo "${RESULT["$target $n $rep"]}"; done | median)
    ratios=$(for rep in $(seq 1 "$REPEAT"); do
      awk -v a="${RESULT["$target $n $rep"]}" -v b="${RESULT["$target $base $rep"]}" 'BEGIN { printf "%.3f\n", a / b }'
    done)
    echo "| $([ "$target" = single ] && echo 'POST /event' || echo 'POST /events/batch (100)') | $n | $rates |" \
      "$(echo "$ratios" | median) [$(echo "$ratios" | sort -g | head -1)..$(echo "$ratios" | sort -g | tail -1)] |"
  done
done
