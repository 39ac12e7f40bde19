#!/usr/bin/env bash
# Several nodes on one PostgreSQL: publish-to-receive latency same-node (A->A) and
# cross-node (A->B) in the same run, paced at 50 publishes/s with 1 and 100 subscribers,
# with doorbells (cluster.wakeup=notify) and poll-only; publish throughput with 1, 2 and 3
# nodes as ratios to 1 node; the doorbell outside the event transaction (the default)
# against inside it (cluster.notify_in_transaction, a benchmark switch), and how often
# commits waited for PostgreSQL's notification lock. Not a pass/fail test; not in CI.
#
# Usage (as root: it installs wrk and jq with apt-get when missing; PostgreSQL runs as
# `postgres`):  bash bench/cluster.sh
# Knobs: BIN (a prebuilt agent-eventsd; else build/daemon/agent-eventsd), M (250 paced
#   publishes per phase), RATE (50), NS ("1 100"), POLL_MS (100), CONNS (16 per node),
#   DURATION (4 s per throughput run), REPEAT (2), PORT_BASE (29300).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"
BIN=${BIN:-$ROOT/build/daemon/agent-eventsd}
M=${M:-250}
RATE=${RATE:-50}
NS=${NS:-"1 100"}
POLL_MS=${POLL_MS:-100}
CONNS=${CONNS:-16}
DURATION=${DURATION:-4}
REPEAT=${REPEAT:-2}
PORT_BASE=${PORT_BASE:-29300}
SERVER_CPUS=${SERVER_CPUS:-0-1}  # lib.sh's start_aev pins with taskset; all cores here
P_PG=$((PORT_BASE))
PORTS=($((PORT_BASE + 1)) $((PORT_BASE + 2)) $((PORT_BASE + 3)))
NAMES=(a b c)

[ -x "$BIN" ] || { echo "no daemon at $BIN (build it, or set BIN)" >&2; exit 2; }
need=()
command -v wrk >/dev/null || need+=(wrk)
command -v jq >/dev/null || need+=(jq)
ls -d /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || need+=(postgresql)
if [ ${#need[@]} -gt 0 ]; then apt-get install -y -qq "${need[@]}" >/dev/null; fi
ulimit -n "$(ulimit -Hn)"

work=$(mktemp -d /tmp/aev-cluster-bench.XXXXXX)
chmod 755 "$work"
OUT=$work
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
NODE_PIDS=()
PG_STARTED=0
stop_nodes() {
  for pid in "${NODE_PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${NODE_PIDS[@]}"; do
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  done
  NODE_PIDS=()
}
cleanup() {
  set +e
  stop_nodes
  [ "$PG_STARTED" = 1 ] && runuser -u postgres -- "$PGBIN/pg_ctl" -D "$work/pg/data" -m fast -w stop >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
log() { echo "[cluster-bench $(date +%T)] $*" >&2; }

FANOUT=$work/sse_fanout
g++ -O2 -std=c++20 -o "$FANOUT" "$ROOT/bench/sse_fanout.cpp"

# PostgreSQL: durable (fsync on, synchronous_commit on); lock waits over 10 ms are logged
# so the notification lock's waits ("object 0 of class 1262") can be counted.
mkdir -p "$work/pg/data" "$work/pg/sock"
chown -R postgres:postgres "$work/pg"
runuser -u postgres -- "$PGBIN/initdb" -D "$work/pg/data" -A trust -U postgres >"$work/pg-initdb.log" 2>&1
runuser -u postgres -- "$PGBIN/pg_ctl" -D "$work/pg/data" -l "$work/pg/log" -w \
  -o "-c listen_addresses=127.0.0.1 -c port=$P_PG -c unix_socket_directories=$work/pg/sock -c shared_buffers=256MB -c fsync=on -c synchronous_commit=on -c log_lock_waits=on -c deadlock_timeout=10ms -c max_connections=200" \
  start >/dev/null
PG_STARTED=1
runuser -u postgres -- "$PGBIN/createdb" -h 127.0.0.1 -p "$P_PG" -U postgres aev_bench
log "postgres up on $P_PG"

# The keys every node shares (docs/operations.md, "Several nodes").
head -c 32 /dev/urandom | base64 >"$work/audit-signing.key"
aev_flags=(--set log.level=warn --set http.max_threads=96 --set stream.max_subscribers=20000
  --set stream.max_subscribers_per_org=20000 --set plans.free.events_quota_monthly=2000000000
  --set auth.login_max_failures=1000
  --database-url "postgresql://postgres@127.0.0.1:$P_PG/aev_bench?options=-cclient_min_messages%3Dwarning"
  --set auth.jwt_secret="$(head -c 48 /dev/urandom | base64 -w0)"
  --set webhooks.secret_key="$(head -c 32 /dev/urandom | base64 -w0)"
  --set audit.signing_key_file="$work/audit-signing.key")

start_nodes() {  # extra args for every node
  stop_nodes
  for i in 0 1 2; do NODE_PIDS+=("$(start_aev "node-${NAMES[$i]}" "${PORTS[$i]}" "$@")"); done
  log "3 nodes up ($*)"
}

start_nodes
setup_aev node-a "${PORTS[0]}"
KEY_HDR="X-API-Key: ${KEY[node-a]}"

results=$work/results.jsonl
: >"$results"

# --- latency: paced publishes through A; subscribers on A (same node) or B (cross-node)
latency() {  # mode
  local mode=$1 n route sub ch body
  for n in $NS; do
    for route in same cross; do
      sub=${PORTS[0]}
      [ "$route" = cross ] && sub=${PORTS[1]}
      ch=$(new_channel node-a "${PORTS[0]}" "lat-$mode-$n-$route")
      body=$work/body-$ch.json
      event_json "$ch" BENCH_TS >"$body"
      "$FANOUT" --port "$sub" --pub-port "${PORTS[0]}" --sub "/channel/$ch/subscribe" --pub /event \
        --header "$KEY_HDR" --body-file "$body" -n "$n" -m "$M" --rate "$RATE" --label "$route" 2>>"$work/fanout.err" |
        jq -c --arg mode "$mode" --arg route "$route" '. + {kind:"latency",mode:$mode,route:$route}' |
        tee -a "$results" >&2
    done
  done
}

# --- throughput: wrk on 1, 2 and 3 nodes at once, each on its own channel
throughput() {  # placement
  local placement=$1 nodes rep i ch pids
  for rep in $(seq 1 "$REPEAT"); do
    for nodes in 1 2 3; do
      pids=()
      for i in $(seq 0 $((nodes - 1))); do
        ch=$(new_channel node-a "${PORTS[0]}" "tp-$placement-$rep-$nodes-$i")
        event_json "$ch" 0 >"$work/tp-$i.json"
        BODY_FILE="$work/tp-$i.json" API_KEY="${KEY[node-a]}" wrk -t1 -c"$CONNS" -d"${DURATION}s" \
          -s "$ROOT/bench/wrk_post.lua" "http://127.0.0.1:${PORTS[$i]}/event" >"$work/wrk-$i.txt" 2>&1 &
        pids+=($!)
      done
      wait "${pids[@]}"
      local total=0 rps
      for i in $(seq 0 $((nodes - 1))); do
        rps=$(awk '/^Requests\/sec/ {print $2}' "$work/wrk-$i.txt")
        grep -q "Non-2xx" "$work/wrk-$i.txt" && log "non-2xx answers on node $i: $(grep Non-2xx "$work/wrk-$i.txt")"
        total=$(awk -v a="$total" -v b="${rps:-0}" 'BEGIN {print a + b}')
      done
      echo "{\"kind\":\"throughput\",\"placement\":\"$placement\",\"rep\":$rep,\"nodes\":$nodes,\"events_per_sec\":$total}" |
        tee -a "$results" >&2
    done
  done
}

lock_waits() {  # commits that waited (> deadlock_timeout) for the notification lock, so far
  grep -c "object 0 of class 1262" "$work/pg/log" || true
}

latency notify
throughput outside
waits_outside=$(lock_waits)
start_nodes --set cluster.notify_in_transaction=true
login_aev node-a "${PORTS[0]}"
throughput inside
waits_inside=$(($(lock_waits) - waits_outside))
start_nodes --set cluster.wakeup=poll --set cluster.poll_interval_ms="$POLL_MS"
login_aev node-a "${PORTS[0]}"
latency poll

# --- summary
{
  echo "## Several nodes on one PostgreSQL ($(date -u +%F), $(nproc) cores, PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}'))"
  echo
  echo "Publish-to-receive latency, paced at $RATE/s, $M publishes through node A (poll: cluster.poll_interval_ms=$POLL_MS):"
  echo
  echo "| wake-up | subscribers | same-node p50 / p99 ms | cross-node p50 / p99 ms | cross - same p50 | cross / same p99 |"
  echo "|---|---|---|---|---|---|"
  jq -rs '
    [ .[] | select(.kind == "latency") ] | group_by([.mode, .n]) | .[] |
    (map(select(.route == "same"))[0]) as $s | (map(select(.route == "cross"))[0]) as $c |
    "| \($s.mode) | \($s.n) | \($s.p50_ms*100|round/100) / \($s.p99_ms*100|round/100) | \($c.p50_ms*100|round/100) / \($c.p99_ms*100|round/100) | \(($c.p50_ms - $s.p50_ms)*100|round/100) ms | \(($c.p99_ms / $s.p99_ms)*100|round/100) |"
  ' "$results"
  echo
  echo "Publish throughput (wrk -c$CONNS per node, ${DURATION}s, best of $REPEAT), events/s and ratio to 1 node:"
  echo
  echo "| doorbell | 1 node | 2 nodes | 3 nodes |"
  echo "|---|---|---|---|"
  jq -rs '
    [ .[] | select(.kind == "throughput") ] | group_by(.placement) | .[] |
    (group_by(.nodes) | map(max_by(.events_per_sec))) as $best |
    ($best[0].events_per_sec) as $one |
    "| \(.[0].placement) the transaction | " + ($best | map("\(.events_per_sec|round) (\((.events_per_sec / $one)*100|round/100))") | join(" | ")) + " |"
  ' "$results"
  echo
  echo "Commits that waited > 10 ms for the notification lock: outside $waits_outside, inside $waits_inside."
} | { mkdir -p "$ROOT/bench/results"; tee "$ROOT/bench/results/cluster-$(date -u +%Y%m%dT%H%M%SZ).md"; }
