#!/usr/bin/env bash
# Performance benchmarks of agent-eventsd against peers started beside it, in the same run:
#   * nginx answering a fixed 200 to the same POST (the machine's HTTP ceiling),
#   * nginx + Nchan (pub/sub with an SSE interface): its publisher and EventSource subscribers.
# Measured: publish throughput (POST /event and POST /events/batch of 100) at 1/16/64
# connections on SQLite and on PostgreSQL; SSE fan-out to 1/100/1,000/10,000 subscribers
# (deliveries/s, publish-to-receive p50/p99: closed loop, the daemon matched to Nchan's
# closed-loop publish rate, and paced); memory per idle
# subscriber; and a CPU profile (perf) of the daemon on the single-publish path.
# Prints same-run ratios (per repeat, then the median). Not a pass/fail test; not in CI.
#
# Usage (from anywhere, as root: it installs packages with apt-get and raises ulimit -n):
#   bash bench/run.sh          # builds build-bench/ (incremental), runs everything (~9 min), prints tables
# Knobs (environment): BIN (a prebuilt daemon; then nothing is built), REPEAT (3), DURATION (3 s
#   per wrk run), CONNS ("1 16 64"), NS ("1 100 1000 10000"), PG (1: also on PostgreSQL),
#   PROFILE (1: perf), PACED_RATE (50), PACED_DELIVERIES (50000), PACED_SECS (3),
#   SERVER_CPUS (0), CLIENT_CPUS (1), PORT_BASE (28080; every port stays below 32768, the
#   ephemeral range), OUT (results dir; default bench/results/<UTC time>).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_BIN=0
[ -z "${BIN:-}" ] && BUILD_BIN=1
BIN=${BIN:-$ROOT/build-bench/daemon/agent-eventsd}
REPEAT=${REPEAT:-3}
DURATION=${DURATION:-3}
CONNS=${CONNS:-"1 16 64"}
NS=${NS:-"1 100 1000 10000"}
PG=${PG:-1}
PROFILE=${PROFILE:-1}
SERVER_CPUS=${SERVER_CPUS:-0}
CLIENT_CPUS=${CLIENT_CPUS:-1}
PORT_BASE=${PORT_BASE:-28080}
PACED_RATE=${PACED_RATE:-50}               # paced fan-out: at most this many publishes/s,
PACED_DELIVERIES=${PACED_DELIVERIES:-50000}  # and at most this many deliveries/s (N=10,000: 5/s)
PACED_SECS=${PACED_SECS:-3}
BATCH=100
OUT=${OUT:-$ROOT/bench/results/$(date -u +%Y%m%d-%H%M%S)}

P_CEIL=$((PORT_BASE + 1))
P_NCHAN=$((PORT_BASE + 2))
P_SQLITE=$((PORT_BASE + 10))
P_PGAEV=$((PORT_BASE + 11))
P_PG=$((PORT_BASE + 352))

started_at=$(date +%s)
# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"
log() { printf '[%4ds] %s\n' $(( $(date +%s) - started_at )) "$*" >&2; }

# ---------------------------------------------------------------------------------------
# Prerequisites: packages, the daemon, the fan-out tool, file descriptors.
# ---------------------------------------------------------------------------------------
need=()
command -v nginx >/dev/null || need+=(nginx)
[ -e /usr/lib/nginx/modules/ngx_nchan_module.so ] || need+=(libnginx-mod-nchan)
command -v wrk >/dev/null || need+=(wrk)
command -v jq >/dev/null || need+=(jq)
command -v curl >/dev/null || need+=(curl)
command -v g++ >/dev/null || need+=(g++)
if [ "$PG" = 1 ] && ! ls -d /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then need+=(postgresql); fi
if [ "$PROFILE" = 1 ] && ! command -v perf >/dev/null; then need+=(linux-perf); fi
if [ ${#need[@]} -gt 0 ]; then
  log "installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq "${need[@]}" >/dev/null
fi

if [ "$BUILD_BIN" = 1 ]; then  # incremental: a no-op when the daemon is up to date
  log "building the daemon in $ROOT/build-bench (RelWithDebInfo: -O2 -g, symbols for perf)"
  # RelWithDebInfo, not Release: the build type the Debian package ships (packaging/cpack.cmake).
  buildlog=$(mktemp)
  if ! { cmake -S "$ROOT" -B "$ROOT/build-bench" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAEV_BUILD_TESTS=OFF &&
    cmake --build "$ROOT/build-bench" -j"$(nproc)"; } >"$buildlog" 2>&1; then
    tail -40 "$buildlog" >&2
    echo "the daemon did not build (log: $buildlog)" >&2
    exit 1
  fi
  rm -f "$buildlog"
fi

# File descriptors: each process (client, nginx, daemon) holds one per subscriber.
ulimit -Hn 200000 2>/dev/null || true  # needs CAP_SYS_RESOURCE; else the hard limit stays
hard=$(ulimit -Hn)
[ "$hard" = unlimited ] && hard=200000
NOFILE=$(( hard < 200000 ? hard : 200000 ))
ulimit -n "$NOFILE"
nmax=$(printf '%s\n' $NS | sort -n | tail -1)
if [ "$NOFILE" -lt $((nmax + 1000)) ]; then
  echo "ulimit -n is $NOFILE (hard limit); $nmax subscribers need $((nmax + 1000)): lower NS" >&2
  exit 1
fi

work=""
NGINX_PID=""; SQLITE_PID=""; PGAEV_PID=""; PG_STARTED=0; PGBIN=""
cleanup() {
  set +e
  for pid in $SQLITE_PID $PGAEV_PID; do kill -TERM "$pid" 2>/dev/null; done
  for pid in $SQLITE_PID $PGAEV_PID; do
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null
  done
  if [ -n "$NGINX_PID" ]; then
    kill -TERM "$NGINX_PID" 2>/dev/null
    for _ in $(seq 1 50); do kill -0 "$NGINX_PID" 2>/dev/null || break; sleep 0.1; done
  fi
  if [ "$PG_STARTED" = 1 ]; then
    runuser -u postgres -- "$PGBIN/pg_ctl" -D "$work/pg/data" -m fast -w stop >/dev/null 2>&1
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
work=$(mktemp -d /tmp/aev-bench.XXXXXX)
chmod 755 "$work"
mkdir -p "$OUT"
FANOUT=$work/sse_fanout
g++ -O2 -std=c++20 -o "$FANOUT" "$ROOT/bench/sse_fanout.cpp"

for p in $P_CEIL $P_NCHAN $P_SQLITE $P_PGAEV $P_PG; do
  if ss -ltnH "sport = :$p" | grep -q .; then echo "port $p is in use; set PORT_BASE" >&2; exit 1; fi
done

# ---------------------------------------------------------------------------------------
# Servers (all pinned to SERVER_CPUS; every one stopped by its recorded PID on exit).
# ---------------------------------------------------------------------------------------


# nginx: the fixed-200 ceiling and Nchan, one master + one worker on the server core.
nginx_conf "$work/nginx" "$NOFILE" "$P_CEIL" "$P_NCHAN"
taskset -c "$SERVER_CPUS" nginx -c "$work/nginx/nginx.conf" -p "$work/nginx" >"$OUT/nginx.log" 2>&1 &
NGINX_PID=$!
for _ in $(seq 1 100); do curl -fs -o /dev/null "http://127.0.0.1:$P_CEIL/" && break; sleep 0.05; done
NGINX_WORKER=$(pgrep -P "$NGINX_PID" | head -1)
[ -n "$NGINX_WORKER" ] || { echo "nginx did not start; see $OUT/nginx.log" >&2; exit 1; }
log "nginx up (master $NGINX_PID, worker $NGINX_WORKER)"

# PostgreSQL: a throwaway cluster, durable (fsync on, synchronous_commit on).
PG_PIDS=""
if [ "$PG" = 1 ]; then
  PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  mkdir -p "$work/pg/data" "$work/pg/sock"
  chown -R postgres:postgres "$work/pg"
  runuser -u postgres -- "$PGBIN/initdb" -D "$work/pg/data" -A trust -U postgres >"$OUT/pg-initdb.log" 2>&1
  taskset -c "$SERVER_CPUS" runuser -u postgres -- "$PGBIN/pg_ctl" -D "$work/pg/data" -l "$work/pg/log" -w \
    -o "-c listen_addresses=127.0.0.1 -c port=$P_PG -c unix_socket_directories=$work/pg/sock -c shared_buffers=1GB -c max_wal_size=4GB -c fsync=on -c synchronous_commit=on" \
    start >/dev/null
  PG_STARTED=1
  runuser -u postgres -- "$PGBIN/createdb" -h 127.0.0.1 -p "$P_PG" -U postgres aev_bench
  log "postgres up on $P_PG"
fi

aev_flags=(--set log.level=warn --set http.max_threads=96 --set stream.max_subscribers=20000 --set stream.max_subscribers_per_org=20000
  --set plans.free.events_quota_monthly=2000000000 --set auth.login_max_failures=1000)

SQLITE_PID=$(start_aev aev-sqlite "$P_SQLITE")
setup_aev aev-sqlite "$P_SQLITE"
log "agent-eventsd on SQLite up (pid $SQLITE_PID)"
AEV_TARGETS=(sqlite)
if [ "$PG" = 1 ]; then
  # options= without a space: builds whose default was options='-c client_min_messages=warning'
  # failed to start (Poco's PostgreSQL connector splits the conninfo on spaces); harmless since.
  # On PostgreSQL the keys every node shares must be configured (docs/operations.md).
  head -c 32 /dev/urandom | base64 >"$work/audit-signing.key"
  PGAEV_PID=$(start_aev aev-pg "$P_PGAEV" \
    --database-url "postgresql://postgres@127.0.0.1:$P_PG/aev_bench?options=-cclient_min_messages%3Dwarning" \
    --set auth.jwt_secret="$(head -c 48 /dev/urandom | base64 -w0)" \
    --set webhooks.secret_key="$(head -c 32 /dev/urandom | base64 -w0)" \
    --set audit.signing_key_file="$work/audit-signing.key")
  setup_aev aev-pg "$P_PGAEV"
  PG_PIDS=$(head -1 "$work/pg/data/postmaster.pid")
  log "agent-eventsd on PostgreSQL up (pid $PGAEV_PID)"
  AEV_TARGETS+=(pg)
fi
pg_tree() {  # the postmaster and its children (backends, WAL writer, checkpointer)
  [ -n "$PG_PIDS" ] || return 0
  echo "$PG_PIDS" $(pgrep -P "$PG_PIDS" | tr '\n' ' ')
}

for t in "${AEV_TARGETS[@]}"; do
  event_json "${CHANNEL[aev-$t]}" 0 >"$work/body-$t.json"
  { printf '{"events":['
    for i in $(seq 1 $BATCH); do [ "$i" -gt 1 ] && printf ','; event_json "${CHANNEL[aev-$t]}" 0; done
    printf ']}'; } >"$work/batch-$t.json"
done
cp "$work/body-sqlite.json" "$work/body-peer.json"
BODY_BYTES=$(wc -c <"$work/body-peer.json")
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "nproc: $(nproc); $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
  echo "mem: $(free -g | awk '/Mem:/ {print $2}') GiB; kernel $(uname -r)"
  echo "loadavg before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "nginx: $(nginx -v 2>&1 | sed 's/.*\///'); nchan: $(dpkg-query -W -f='${Version}' libnginx-mod-nchan 2>/dev/null)"
  echo "wrk: $(dpkg-query -W -f='${Version}' wrk 2>/dev/null); postgres: $([ -n "$PGBIN" ] && "$PGBIN/postgres" --version | awk '{print $3}')"
  if [ "$BUILD_BIN" = 1 ]; then
    echo "daemon: $BIN, work tree at git $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null)$(git -C "$ROOT" diff --quiet HEAD -- daemon 2>/dev/null || echo ' + uncommitted changes in daemon/')"
  else
    echo "daemon: $BIN (built $(stat -c %y "$BIN" | cut -d. -f1))"
  fi
  echo "body: $BODY_BYTES bytes; batch: $BATCH events, $(wc -c <"$work/batch-sqlite.json") bytes"
  echo "pinning: servers on CPU $SERVER_CPUS, load generators on CPU $CLIENT_CPUS"
  # The disk's write+fdatasync latency bounds durable single publishes: at c connections
  # at most c events can share one commit, so c / latency is their ceiling.
  fsync_ms=$(cd "$work" && LC_ALL=C dd if=/dev/zero of=fsync.probe bs=4k count=300 oflag=dsync 2>&1 |
    awk '/copied/ { for (i = 1; i <= NF; i++) if ($i == "s," || $(i+1) == "s,") { print $i * 1000 / 300; exit } }')
  rm -f "$work/fsync.probe"
  echo "fdatasync: ${fsync_ms} ms per 4 KiB write (dd oflag=dsync); durable single-publish ceiling $(awk -v f="$fsync_ms" 'BEGIN { if (f > 0) printf "%.0f/s at c=16, %.0f/s at c=64", 16000 / f, 64000 / f }')"
  echo "settings: REPEAT=$REPEAT DURATION=$DURATION CONNS='$CONNS' NS='$NS' PACED=min(${PACED_RATE}/s, ${PACED_DELIVERIES}/N) x ${PACED_SECS}s"
} >"$OUT/machine.txt"
cat "$OUT/machine.txt" >&2
if awk '{ exit !($1 > 1.0) }' /proc/loadavg; then
  log "WARNING: load average $(cut -d' ' -f1 /proc/loadavg) before the run: other work shares these 2 cores; expect noise"
fi

# ---------------------------------------------------------------------------------------
# 0. Memory per idle subscriber, on the servers as started (nothing published yet, so no
#    freed memory to reuse): N idle subscribers, RSS growth / N; then 1 event to all.
# ---------------------------------------------------------------------------------------
closed_m() { case $1 in 1) echo 1000 ;; 100) echo 500 ;; 1000) echo 150 ;; *) echo 20 ;; esac; }
paced_rate() {  # the same offered load in deliveries/s at every N (at most PACED_RATE publishes/s)
  awk -v n="$1" -v r="$PACED_RATE" -v d="$PACED_DELIVERIES" 'BEGIN { x = d / n; if (x > r) x = r; print x }'
}
paced_m() { awk -v r="$(paced_rate "$1")" -v s="$PACED_SECS" 'BEGIN { m = int(r * s + 0.5); print (m < 10 ? 10 : m) }'; }
fanout_run() {  # server n m[,m2...] rate[,rate2...] rep modes: one JSON line per phase
  # modes: one name per phase ("closed,matched,paced"), or "memory" (a single idle phase).
  local server=$1 n=$2 m=$3 rate=$4 rep=$5 modes=$6 args
  local body=$work/fan-body.json
  if [ "$server" = nchan ]; then
    local ch=f${rep}n${n}${modes//,/}${RANDOM}  # Nchan channel ids here are \w+
    event_json 0 BENCH_TS >"$body"
    args=(--port "$P_NCHAN" --sub "/sub/$ch" --pub "/pub/$ch" --pid "$NGINX_WORKER")
  else
    local ch
    ch=$(new_channel aev-sqlite "$P_SQLITE" "fan-$rep-$n-${modes//,/-}")
    event_json "$ch" BENCH_TS >"$body"
    args=(--port "$P_SQLITE" --sub "/channel/$ch/subscribe" --pub /event --pid "$SQLITE_PID"
      --header "X-API-Key: ${KEY[aev-sqlite]}")
  fi
  local idle=0
  [ "$n" -ge 1000 ] && idle=1
  [ "$modes" = memory ] && idle=2
  taskset -c "$CLIENT_CPUS" "$FANOUT" "${args[@]}" --body-file "$body" -n "$n" -m "$m" --rate "$rate" \
    --idle "$idle" --label "$server" 2>>"$OUT/fanout-stderr.txt" |
    jq -c --arg server "$server" --arg modes "$modes" --argjson rep "$rep" \
      '. + {kind:"fanout",server:$server,rep:$rep,mode:($modes | split(","))[.phase]}' |
    tee -a "$OUT/fanout.jsonl" >&2 || true
}
# The publish rate Nchan reached in its closed loop at N in repeat rep (empty if none).
nchan_closed_rate() {  # n rep
  jq -r --argjson n "$1" --argjson rep "$2" \
    'select(.server == "nchan" and .mode == "closed" and .n == $n and .rep == $rep and .published > 0)
     | .publishes_per_sec' "$OUT/fanout.jsonl" | tail -1
}
NMAX=$(printf '%s\n' $NS | sort -n | tail -1)
log "memory: $NMAX idle subscribers on each server"
: >"$OUT/fanout.jsonl"
for s in nchan aev; do fanout_run $s "$NMAX" 1 0 0 memory; done

# ---------------------------------------------------------------------------------------
# 1. Publish throughput: wrk -t1 against each target, interleaved within each repeat.
# ---------------------------------------------------------------------------------------
to_ms() {  # wrk latency (12.3us / 1.2ms / 1.1s) -> ms
  awk -v v="$1" 'BEGIN { u = v; sub(/^[0-9.]+/, "", u); n = v + 0;
    if (u == "us") n /= 1000; else if (u == "s") n *= 1000; else if (u == "m") n *= 60000; printf "%.3f", n }'
}
commit_counters() {  # port -> "events-stored commits commit-microseconds", from one /metrics read
  curl -fs "http://127.0.0.1:$1/metrics" | awk '$1 == "agent_events_events_stored_total" { s = $2 }
    $1 == "agent_events_commits_total" { c = $2 } $1 == "agent_events_commit_microseconds_total" { u = $2 }
    END { print s + 0, c + 0, u + 0 }'
}
wrk_run() {  # target conns rep
  local target=$1 c=$2 rep=$3 url body key="" per=1 pids port=""
  case $target in
    nginx-200) url=http://127.0.0.1:$P_CEIL/event; body=$work/body-peer.json; pids=$NGINX_WORKER ;;
    nchan-pub) url=http://127.0.0.1:$P_NCHAN/pub/wrkpub; body=$work/body-peer.json; pids=$NGINX_WORKER ;;
    aev-healthz) url=http://127.0.0.1:$P_SQLITE/healthz; body=""; pids=$SQLITE_PID ;;  # GET: the HTTP stack's ceiling
    aev-*-event | aev-*-batch)
      local st=${target#aev-}; st=${st%-*}
      port=$P_SQLITE; pids=$SQLITE_PID
      [ "$st" = pg ] && { port=$P_PGAEV; pids="$PGAEV_PID $(pg_tree)"; }
      key=${KEY[aev-$st]}
      if [ "${target##*-}" = batch ]; then
        url=http://127.0.0.1:$port/events/batch; body=$work/batch-$st.json; per=$BATCH
      else
        url=http://127.0.0.1:$port/event; body=$work/body-$st.json
      fi ;;
  esac
  # The daemon's own count of what it stored, in how many commits, and their wall time.
  local stored0=0 stored1=0 commits0=0 commits1=0 commit_us0=0 commit_us1=0
  [ -n "$port" ] && read -r stored0 commits0 commit_us0 < <(commit_counters "$port")
  local cpu0 t0 t1 cpu1 out
  cpu0=$(cpu_ticks $pids); t0=$(date +%s%N)
  local script=(-s "$ROOT/bench/wrk_post.lua")
  [ -z "$body" ] && script=()
  out=$(BODY_FILE=$body API_KEY=$key taskset -c "$CLIENT_CPUS" wrk -t1 -c"$c" -d"${DURATION}s" --timeout 10s \
    --latency "${script[@]}" "$url" 2>&1)
  t1=$(date +%s%N); cpu1=$(cpu_ticks $pids)
  [ -n "$port" ] && read -r stored1 commits1 commit_us1 < <(commit_counters "$port")
  local rps p50 p99 non2xx errs
  rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
  p50=$(to_ms "$(awk '$1 == "50%" {print $2}' <<<"$out")")
  p99=$(to_ms "$(awk '$1 == "99%" {print $2}' <<<"$out")")
  non2xx=$(awk '/Non-2xx/ {print $NF}' <<<"$out")
  errs=$(awk '/Socket errors/ {gsub(",", ""); print $4 + $6 + $8 + $10}' <<<"$out")
  local cpu
  cpu=$(awk -v a="$cpu0" -v b="$cpu1" -v t="$TCK" -v s=$(( (t1 - t0) / 1000000 )) \
    'BEGIN { printf "%.0f", 100 * (b - a) / t / (s / 1000) }')
  jq -nc --arg target "$target" --argjson c "$c" --argjson rep "$rep" --argjson rps "${rps:-0}" \
    --argjson per "$per" --argjson p50 "$p50" --argjson p99 "$p99" --argjson non2xx "${non2xx:-0}" \
    --argjson errors "${errs:-0}" --argjson cpu "$cpu" --argjson stored "$((stored1 - stored0))" \
    --argjson commits "$((commits1 - commits0))" --argjson commit_us "$((commit_us1 - commit_us0))" \
    '{kind:"http",target:$target,c:$c,rep:$rep,rps:$rps,events_per_sec:($rps*$per),p50_ms:$p50,p99_ms:$p99,
      non2xx:$non2xx,socket_errors:$errors,server_cpu_pct:$cpu,stored:$stored,commits:$commits,
      events_per_commit:(if $commits > 0 then $stored / $commits else null end),
      commit_ms:(if $commits > 0 then $commit_us / $commits / 1000 else null end)}' | tee -a "$OUT/http.jsonl" >&2
  echo "$out" >>"$OUT/wrk-raw.txt"
}

HTTP_TARGETS=(nginx-200 nchan-pub aev-healthz)
for t in "${AEV_TARGETS[@]}"; do HTTP_TARGETS+=("aev-$t-event" "aev-$t-batch"); done
log "publish throughput: ${HTTP_TARGETS[*]} x c={$CONNS} x $REPEAT, ${DURATION}s each"
# Warm-up (thread pools, page cache, prepared statements), not recorded.
for t in "${HTTP_TARGETS[@]}"; do DURATION=1 wrk_run "$t" 16 0 2>/dev/null; done
: >"$OUT/http.jsonl"
for rep in $(seq 1 "$REPEAT"); do
  for c in $CONNS; do
    for t in "${HTTP_TARGETS[@]}"; do wrk_run "$t" "$c" "$rep"; done
  done
done

# ---------------------------------------------------------------------------------------
# 2. Fan-out: N subscribers on one fresh channel, M publishes (closed loop and paced).
# ---------------------------------------------------------------------------------------
log "fan-out: N={$NS}, closed loop, matched to Nchan's closed-loop rate, and paced at $PACED_DELIVERIES deliveries/s (<= $PACED_RATE publishes/s), x $REPEAT"
login_aev aev-sqlite "$P_SQLITE"
for rep in $(seq 1 "$REPEAT"); do
  for n in $NS; do
    # Nchan: closed loop, then paced. The daemon, on its own N subscribers: closed loop (as
    # fast as it acknowledges), matched (its publisher capped at the rate Nchan's closed loop
    # just reached, so both are measured at the same offered load), then paced.
    cm=$(closed_m "$n") pm=$(paced_m "$n") pr=$(paced_rate "$n")
    fanout_run nchan "$n" "$cm,$pm" "0,$pr" "$rep" closed,paced
    matched=$(nchan_closed_rate "$n" "$rep")
    if [ -n "$matched" ]; then
      fanout_run aev "$n" "$cm,$cm,$pm" "0,$matched,$pr" "$rep" closed,matched,paced
    else
      log "no closed-loop rate from Nchan at N=$n (repeat $rep): no matched phase"
      fanout_run aev "$n" "$cm,$pm" "0,$pr" "$rep" closed,paced
    fi
  done
done

# ---------------------------------------------------------------------------------------
# 3. Where the time goes: perf (DWARF call graphs) on the daemon while wrk publishes (c=16,
#    SQLite): inclusive ("children") shares per function, and context switches per request.
# ---------------------------------------------------------------------------------------
if [ "$PROFILE" = 1 ] && command -v perf >/dev/null; then
  for kind in event batch; do
    log "profile: POST /$([ $kind = batch ] && echo events/batch || echo event) on SQLite, c=16"
    url=http://127.0.0.1:$P_SQLITE/event; body=$work/body-sqlite.json
    [ $kind = batch ] && { url=http://127.0.0.1:$P_SQLITE/events/batch; body=$work/batch-sqlite.json; }
    BODY_FILE=$body API_KEY=${KEY[aev-sqlite]} taskset -c "$CLIENT_CPUS" wrk -t1 -c16 -d6s \
      -s "$ROOT/bench/wrk_post.lua" "$url" >"$OUT/profile-$kind-wrk.txt" 2>&1 &
    wrk_pid=$!
    sleep 0.5
    perf stat -p "$SQLITE_PID" -e task-clock,context-switches,cpu-migrations -- sleep 2 \
      >"$OUT/profile-$kind-stat.txt" 2>&1 || true
    perf record -q -F 499 --call-graph dwarf,16384 -p "$SQLITE_PID" -o "$work/perf-$kind.data" -- sleep 2.5 \
      >/dev/null 2>&1 || true
    wait $wrk_pid || true
    if [ -s "$work/perf-$kind.data" ]; then
      perf report -i "$work/perf-$kind.data" --children --stdio -g none --sort sym --percent-limit 1.5 \
        2>/dev/null | grep -v '^#' | grep -v '^$' >"$OUT/profile-$kind-children.txt" || true
      perf report -i "$work/perf-$kind.data" --no-children --stdio -g none --sort dso,sym --percent-limit 1 \
        2>/dev/null | grep -v '^#' | grep -v '^$' >"$OUT/profile-$kind-self.txt" || true
    fi
  done
  for task in /proc/"$SQLITE_PID"/task/*; do
    printf '%s %s\n' "$(cut -d' ' -f14,15 "$task/stat" | awk '{print $1 + $2}')" "$(cat "$task/comm")"
  done | sort -rn | head -8 >"$OUT/threads-cpu-ticks.txt"
fi

echo "loadavg after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/machine.txt"

# ---------------------------------------------------------------------------------------
# Summary: medians over repeats, ratios computed per repeat then the median.
# ---------------------------------------------------------------------------------------
jq -s -r -f "$ROOT/bench/summary.jq" "$OUT/http.jsonl" "$OUT/fanout.jsonl" | tee "$OUT/summary.md"
for kind in event batch; do
  f=$OUT/profile-$kind-children.txt
  [ -s "$f" ] || continue
  echo
  echo "### Profile, POST /$([ $kind = batch ] && echo events/batch || echo event) at c=16 on SQLite: inclusive CPU share of selected functions (perf, DWARF)"
  echo
  echo '```'
  grep -E 'aev::(http::Server::(serve|deliver)|http::Dispatcher::handle|http::Request::jsonBody|auth::Authenticator::userOrApiKey|events::EventService::(publish|publishAsync|publishBatch|prepare)|events::EventWriter::(commit|Pending::succeed)|store::EventRepository::insertBatch|store::Transaction::commit|http::\(anonymous namespace\)::parseEvent|http::stringify)|sqlite3_step$|fdatasync|Poco::JSON::Parser::parse|__GI___libc_malloc|__GI___libc_free|\[k\] (schedule|finish_task_switch.isra.0)$' "$f" |
    awk '!seen[$NF]++' | head -24 || true
  grep -E 'task-clock|context-switches' "$OUT/profile-$kind-stat.txt" | sed 's/  */ /g' || true
  echo '```'
done | tee -a "$OUT/summary.md"
echo
echo "results: $OUT (raw: http.jsonl, fanout.jsonl, wrk-raw.txt, profile-*.txt)"
log "done"
