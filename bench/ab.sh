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
# Knobs: CONNS ("16 64"), REPEAT (3), DURATION (4 s), KINDS ("event batch"; also "tbatch":
#   batches of 100 LLM-call events over 10 traces with an environment, model, provider, user,
#   session and tags, what the trace facets and rollups index),
#   SERVER_CPUS (0), CLIENT_CPUS (1), PORT_BASE (29000).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"
[ $# -ge 1 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
for bin in "$@"; do [ -x "$bin" ] || { echo "not an executable: $bin" >&2; exit 2; }; done
for tool in nginx wrk jq curl; do command -v $tool >/dev/null || { echo "$tool is missing (bash bench/run.sh installs it)" >&2; exit 2; }; done
CONNS=${CONNS:-"16 64"}
REPEAT=${REPEAT:-3}
DURATION=${DURATION:-4}
KINDS=${KINDS:-"event batch"}
SERVER_CPUS=${SERVER_CPUS:-0}
CLIENT_CPUS=${CLIENT_CPUS:-1}
PORT_BASE=${PORT_BASE:-29000}
BATCH=100
P_CEIL=$((PORT_BASE + 1))
P_NCHAN=$((PORT_BASE + 2))

work=$(mktemp -d /tmp/aev-ab.XXXXXX)
OUT=$work
PIDS=()
cleanup() {
  set +e
  for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null; done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  done
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

aev_flags=(--set log.level=warn --set http.max_threads=96 --set plans.free.events_quota_monthly=2000000000)
declare -a AEV_PID AEV_PORT
i=0
for BIN in "$@"; do
  name=aev-$i
  AEV_PORT[$i]=$((PORT_BASE + 10 + i))
  AEV_PID[$i]=$(start_aev "$name" "${AEV_PORT[$i]}")
  PIDS+=("${AEV_PID[$i]}")
  setup_aev "$name" "${AEV_PORT[$i]}"
  event_json "${CHANNEL[$name]}" 0 >"$work/event-$i.json"
  { printf '{"events":['
    for k in $(seq 1 $BATCH); do [ "$k" -gt 1 ] && printf ','; event_json "${CHANNEL[$name]}" 0; done
    printf ']}'; } >"$work/batch-$i.json"
  { printf '{"events":['
    for k in $(seq 1 $BATCH); do [ "$k" -gt 1 ] && printf ','; telemetry_event_json "${CHANNEL[$name]}" "$k"; done
    printf ']}'; } >"$work/tbatch-$i.json"
  echo "$name: $BIN" >&2
  i=$((i + 1))
done

NCHAN_RATE=0
run() {  # label url body-file api-key server-pids events-per-request conns
  local label=$1 url=$2 body=$3 key=$4 pids=$5 per=$6 c=$7 cpu0 cpu1 t0 t1 out rps
  cpu0=$(cpu_ticks $pids); t0=$(date +%s%N)
  out=$(BODY_FILE=$body API_KEY=$key taskset -c "$CLIENT_CPUS" wrk -t1 -c"$c" -d"${DURATION}s" --timeout 10s \
    -s "$ROOT/bench/wrk_post.lua" "$url" 2>&1)
  t1=$(date +%s%N); cpu1=$(cpu_ticks $pids)
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
    DURATION=1 run x "$url" "$body" "${KEY[aev-$j]}" "${AEV_PID[$j]}" "$per" 16 >/dev/null
  done
done
for _ in $(seq 1 "$REPEAT"); do
  for c in $CONNS; do
    run nchan "http://127.0.0.1:$P_NCHAN/pub/ab" "$work/body-nchan.json" "" "$NGINX_WORKER" 1 "$c"
    for k in $KINDS; do
      for j in $(seq 0 $((i - 1))); do
        read -r url body per < <(target "$k" "$j")
        run "$k-$j" "$url" "$body" "${KEY[aev-$j]}" "${AEV_PID[$j]}" "$per" "$c"
      done
    done
  done
done
