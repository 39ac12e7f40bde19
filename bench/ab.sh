#!/usr/bin/env bash
# Same-minute A/B of agent-eventsd builds: each binary gets its own daemon (SQLite, the
# default durable settings of bench/run.sh), and within every repeat Nchan's publisher and
# then each daemon take turns with the same wrk load, so the machine's drift hits all of
# them alike. Prints, per run, events/s, the server's CPU share, µs of server CPU per
# event (the figure that survives a noisy machine best) and the ratio to Nchan's rate in
# that repeat. Not a pass/fail test; not in CI.
#
# Usage (as root: it needs nginx with Nchan and wrk, which bench/run.sh installs):
#   bash bench/ab.sh OLD_BINARY NEW_BINARY [MORE ...]
# An argument may carry the daemon's extra flags after the binary, e.g. one build with
# and without the analytics rollup writes:
#   bash bench/ab.sh "$B --set analytics.rollup_writes=false" "$B"
# Knobs: CONNS ("16 64"), REPEAT (3), DURATION (4 s), KINDS ("event batch"; also "tbatch":
#   batches of 100 LLM-call events over 10 traces with an environment, model, provider, user,
#   session and tags, what the trace facets and rollups index),
#   SERVER_CPUS (0), CLIENT_CPUS (1), PORT_BASE (29000),
#   DISTINCT (0; 1: every event of every request, single or batch, has its own session,
#   user and trace name, one of four models and a duration: one distinct analytics rollup
#   key per event and dimension, the rollups' costliest case; trace: traces of 8 events
#   share a session and a trace name, 4 traces a user, as agents publish; 0: identical events),
#   STORE (sqlite; pg: each daemon on its own database of one throwaway PostgreSQL cluster,
#   started as `postgres` with its default durable settings on SERVER_CPUS; the server CPU
#   figures then include that database's PostgreSQL backends).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"
[ $# -ge 1 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
for arg in "$@"; do read -r bin _ <<<"$arg"; [ -x "$bin" ] || { echo "not an executable: $bin" >&2; exit 2; }; done
for tool in nginx wrk jq curl; do command -v $tool >/dev/null || { echo "$tool is missing (bash bench/run.sh installs it)" >&2; exit 2; }; done
CONNS=${CONNS:-"16 64"}
REPEAT=${REPEAT:-3}
DURATION=${DURATION:-4}
KINDS=${KINDS:-"event batch"}
SERVER_CPUS=${SERVER_CPUS:-0}
CLIENT_CPUS=${CLIENT_CPUS:-1}
PORT_BASE=${PORT_BASE:-29000}
DISTINCT=${DISTINCT:-0}
STORE=${STORE:-sqlite}
BATCH=100
P_CEIL=$((PORT_BASE + 1))
P_NCHAN=$((PORT_BASE + 2))
P_PG=$((PORT_BASE + 3))

work=$(mktemp -d /tmp/aev-ab.XXXXXX)
OUT=$work
PIDS=()
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
PG_STARTED=0
cleanup() {
  set +e
  for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null; done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  done
  [ "$PG_STARTED" = 1 ] && runuser -u postgres -- "$PGBIN/pg_ctl" -D "$work/pg/data" -m fast -w stop >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

nginx_conf "$work/nginx" 4096 "$P_CEIL" "$P_NCHAN"
taskset -c "$SERVER_CPUS" nginx -c "$work/nginx/nginx.conf" -p "$work/nginx" >/dev/null 2>&1 &
PIDS+=($!)
for _ in $(seq 1 100); do curl -fs -o /dev/null "http://127.0.0.1:$P_CEIL/" && break; sleep 0.05; done
NGINX_WORKER=$(pgrep -P "${PIDS[0]}" | head -1)
event_json 0 0 | sed 's/"channel_id":0,//' >"$work/body-nchan.json"

if [ "$STORE" = pg ]; then
  [ -n "$PGBIN" ] || { echo "STORE=pg needs PostgreSQL (apt-get install postgresql)" >&2; exit 2; }
  chmod 755 "$work"  # mktemp's 700 would keep `postgres` out
  mkdir -p "$work/pg/data" "$work/pg/sock"
  chown -R postgres:postgres "$work/pg"
  runuser -u postgres -- "$PGBIN/initdb" -D "$work/pg/data" -A trust -U postgres >"$work/pg-initdb.log" 2>&1 ||
    { cat "$work/pg-initdb.log" >&2; exit 1; }
  taskset -c "$SERVER_CPUS" runuser -u postgres -- "$PGBIN/pg_ctl" -D "$work/pg/data" -l "$work/pg/log" -w \
    -o "-c listen_addresses=127.0.0.1 -c port=$P_PG -c unix_socket_directories=$work/pg/sock -c shared_buffers=256MB" \
    start >/dev/null
  PG_STARTED=1
  # The keys a PostgreSQL deployment must configure (they are not kept in the database).
  head -c 32 /dev/urandom | base64 -w0 >"$work/audit-signing.key"
  chmod 600 "$work/audit-signing.key"
  PG_KEYS=(--set auth.jwt_secret="$(head -c 48 /dev/urandom | base64 -w0)"
    --set webhooks.secret_key="$(head -c 48 /dev/urandom | base64 -w0)"
    --set audit.signing_key_file="$work/audit-signing.key")
elif [ "$STORE" != sqlite ]; then
  echo "STORE must be sqlite or pg" >&2; exit 2
fi
# The daemon's PID, plus (STORE=pg) the PostgreSQL backends serving its database.
server_pids() {  # index
  local pids=${AEV_PID[$1]}
  if [ "$STORE" = pg ]; then
    pids="$pids $(psql -X -At -h 127.0.0.1 -p "$P_PG" -U postgres -d postgres \
      -c "SELECT pid FROM pg_stat_activity WHERE datname = 'ab$1'" | tr '\n' ' ')"
  fi
  echo "$pids"
}

aev_flags=(--set log.level=warn --set http.max_threads=96 --set plans.free.events_quota_monthly=2000000000)
declare -a AEV_PID AEV_PORT
# One event: identical copies, or (DISTINCT=1) placeholders bench/wrk_post.lua fills per request.
one_event() {  # channel-id
  if [ "$DISTINCT" = 1 ]; then
    printf '{"identifier":"bench-event","channel_id":%s,"agentId":"agent-bench-0001","eventType":"agent.message","traceId":"4bf92f3577b34da6a3ce929d0e0e4736","spanId":"00f067aa0ba902b7","payload":{"role":"assistant","content":"The quick brown fox jumps over the lazy dog while the benchmark publishes its events now."},"metadata":{"model":"@M@","session":"s-@N@","user":"u-@N@","trace_name":"flow-@N@","duration_ms":@D@,"usage":{"input_tokens":812,"output_tokens":64}}}' "$1"
  elif [ "$DISTINCT" = trace ]; then
    printf '{"identifier":"bench-event","channel_id":%s,"agentId":"agent-bench-0001","eventType":"agent.message","traceId":"4bf92f3577b34da6a3ce929d0e0e4736","spanId":"00f067aa0ba902b7","payload":{"role":"assistant","content":"The quick brown fox jumps over the lazy dog while the benchmark publishes its events now."},"metadata":{"model":"@M@","session":"s-@T@","user":"u-@U@","trace_name":"flow-@T@","duration_ms":@D@,"usage":{"input_tokens":812,"output_tokens":64}}}' "$1"
  else
    event_json "$1" 0
  fi
}
export DISTINCT_KEYS=$DISTINCT
i=0
for ARG in "$@"; do
  read -r -a WORDS <<<"$ARG"
  BIN=${WORDS[0]}
  EXTRA=("${WORDS[@]:1}")
  if [ "$STORE" = pg ]; then
    runuser -u postgres -- "$PGBIN/createdb" -h 127.0.0.1 -p "$P_PG" -U postgres "ab$i"
    EXTRA+=(--database-url "postgresql://postgres@127.0.0.1:$P_PG/ab$i?options=-cclient_min_messages%3Dwarning"
      "${PG_KEYS[@]}")
  fi
  name=aev-$i
  AEV_PORT[$i]=$((PORT_BASE + 10 + i))
  AEV_PID[$i]=$(start_aev "$name" "${AEV_PORT[$i]}" "${EXTRA[@]}")
  PIDS+=("${AEV_PID[$i]}")
  setup_aev "$name" "${AEV_PORT[$i]}"
  one_event "${CHANNEL[$name]}" >"$work/event-$i.json"
  { printf '{"events":['
    for k in $(seq 1 $BATCH); do [ "$k" -gt 1 ] && printf ','; one_event "${CHANNEL[$name]}"; done
    printf ']}'; } >"$work/batch-$i.json"
  { printf '{"events":['
    for k in $(seq 1 $BATCH); do [ "$k" -gt 1 ] && printf ','; telemetry_event_json "${CHANNEL[$name]}" "$k"; done
    printf ']}'; } >"$work/tbatch-$i.json"
  # Every event of the batch must be accepted (an item refused in a 200 answer would make
  # the run measure refusals): one request with the placeholders filled.
  sed 's/@[NTU]@/0/g; s/@M@/gpt-4o/g; s/@D@/1.5/g' "$work/batch-$i.json" >"$work/check-$i.json"
  if curl -fsS -X POST "http://127.0.0.1:${AEV_PORT[$i]}/events/batch" -H 'content-type: application/json' \
    -H "X-API-Key: ${KEY[$name]}" --data-binary "@$work/check-$i.json" | grep -q '"status":4'; then
    echo "$name refuses the bench's batch events" >&2; exit 1
  fi
  echo "$name: $ARG" >&2
  i=$((i + 1))
done

NCHAN_RATE=0
run() {  # label url body-file api-key server-pids-command events-per-request conns
  local label=$1 url=$2 body=$3 key=$4 pids_cmd=$5 per=$6 c=$7 pids cpu0 cpu1 t0 t1 out rps
  # The servers' PIDs are listed again at the end: a PostgreSQL backend the daemon's pool
  # opened during the run counts from its start (its ticks were 0 before).
  pids=$($pids_cmd)
  cpu0=$(cpu_ticks $pids); t0=$(date +%s%N)
  out=$(BODY_FILE=$body API_KEY=$key taskset -c "$CLIENT_CPUS" wrk -t1 -c"$c" -d"${DURATION}s" --timeout 10s \
    -s "$ROOT/bench/wrk_post.lua" "$url" 2>&1)
  t1=$(date +%s%N); cpu1=$(cpu_ticks $(printf '%s\n' $pids $($pids_cmd) | sort -u))
  rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
  local non2xx
  non2xx=$(awk '/Non-2xx/ {print $NF}' <<<"$out")
  [ "$label" = nchan ] && NCHAN_RATE=$rps
  awk -v l="$label" -v c="$c" -v r="${rps:-0}" -v per="$per" -v a="$cpu0" -v b="$cpu1" -v t="$TCK" \
    -v us=$(((t1 - t0) / 1000)) -v n="${non2xx:-0}" -v nchan="$NCHAN_RATE" 'BEGIN {
      ev = r * per; cpu_us = (b - a) / t * 1e6
      printf "%-9s c=%-3d %9.0f events/s  %5.1f%% CPU  %7.2f us CPU/event  %6.3f x Nchan  non-2xx %s\n",
        l, c, ev, 100 * cpu_us / us, (ev > 0 ? cpu_us / (ev * us / 1e6) : 0), (nchan > 0 ? ev / nchan : 0), n }'
}
target() {  # kind index -> "url body per"
  case $1 in
    batch) echo "http://127.0.0.1:${AEV_PORT[$2]}/events/batch $work/batch-$2.json $BATCH" ;;
    tbatch) echo "http://127.0.0.1:${AEV_PORT[$2]}/events/batch $work/tbatch-$2.json $BATCH" ;;
    *) echo "http://127.0.0.1:${AEV_PORT[$2]}/event $work/event-$2.json 1" ;;
  esac
}

# Warm-up (thread pools, page cache, prepared statements), not printed.
for j in $(seq 0 $((i - 1))); do
  for k in $KINDS; do
    read -r url body per < <(target "$k" "$j")
    DURATION=1 run x "$url" "$body" "${KEY[aev-$j]}" "server_pids $j" "$per" 16 >/dev/null
  done
done
# Each repeat starts with the next daemon (0 1 2, then 1 2 0, ...): no build always runs
# last, on the machine's state the others left (a grown database, a warm or cold cache).
for r in $(seq 0 $((REPEAT - 1))); do
  for c in $CONNS; do
    run nchan "http://127.0.0.1:$P_NCHAN/pub/ab" "$work/body-nchan.json" "" "echo $NGINX_WORKER" 1 "$c"
    for k in $KINDS; do
      for step in $(seq 0 $((i - 1))); do
        j=$(((r + step) % i))
        read -r url body per < <(target "$k" "$j")
        run "$k-$j" "$url" "$body" "${KEY[aev-$j]}" "server_pids $j" "$per" "$c"
      done
    done
  done
done
