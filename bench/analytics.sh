#!/usr/bin/env bash
# Analytics benchmark: GET /analytics/breakdown (by model, by tag) and /analytics/timeseries
# (event_count per hour) over the default 24-hour window, on SQLite and on PostgreSQL, with
# 1,000,000 and 10,000,000 synthetic events seeded straight into the store. In the same run
# and against the same rows, each query is also timed
#   * written by hand in SQL against the same database (sqlite3 CLI `.timer`, psql `\timing`):
#     the daemon's overhead over its engine;
#   * on ClickHouse (Debian's clickhouse-server 18.16), a MergeTree ordered by (org_id, ts)
#     loaded with the same rows: the column-store reference.
# Each figure is taken twice: wall time (what a caller waits) and server CPU time (from
# /proc schedstat; what holds when other work shares the cores). Ratios are computed per
# repeat (same moment, same machine), then the median is reported. WHATIF=1 (default) then
# measures, on the same databases, the changes this benchmark suggests (a covering index; a
# time-series query shape), none of which is in the daemon.
# Target of the issue: breakdown over 1M events < 1.5x the hand-written SQL.
# Not a pass/fail test; not in CI nor in `make test`.
#
# Usage (as root: it installs what it lacks with apt-get; PostgreSQL runs as `postgres`,
# ClickHouse as `clickhouse`, each on a temporary data dir and loopback ports):
#   bash bench/analytics.sh                    # builds build-bench/ (incremental), 1M then 10M (~45 min)
#   SIZES=1000000 bash bench/analytics.sh      # 1M only (~7 min on 2 busy cores)
# Knobs (environment): BIN (a prebuilt daemon; plugins are looked up in BIN/../lib/agent-events/plugins
#   unless PLUGINS names the directory), SIZES ("1000000 10000000"), STORES ("sqlite pg"),
#   REPEAT (5 measured repeats), WARMUP (5 rounds first: PostgreSQL switches a prepared
#   statement to its generic plan at the 6th execution on a connection), WHATIF (1), CH (1:
#   ClickHouse too), SERVER_CPUS (0: daemon, PostgreSQL, ClickHouse and the sqlite3 CLI that
#   runs the hand-written SQL), CLIENT_CPUS (1: curl, psql), SEED_NICE (10: niceness of the
#   seeding), BUILD_JOBS (nproc), PORT_BASE (29080), KEEP (1: leave the seeded databases in the
#   work dir under /var/tmp), OUT (results dir; default bench/results/analytics-<UTC time>).
# Results: OUT/summary.md (the tables), raw timings OUT/timings.jsonl, query plans
#   OUT/plans-<store>-<N>.txt (EXPLAIN QUERY PLAN; EXPLAIN ANALYZE and the generic plan;
#   ClickHouse rows and bytes read), the three answers compared OUT/answers-*, seeding
#   OUT/seed.jsonl, OUT/machine.txt. Disk: 10M events take 10-12 GB per store (one store at a time).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_BIN=0
[ -z "${BIN:-}" ] && BUILD_BIN=1
BIN=${BIN:-$ROOT/build-bench/daemon/agent-eventsd}
SIZES=${SIZES:-"1000000 10000000"}
STORES=${STORES:-"sqlite pg"}
REPEAT=${REPEAT:-5}
WARMUP=${WARMUP:-5}
WHATIF=${WHATIF:-1}
SUFFIX=""
CUR_STORE=""
CH=${CH:-1}
SERVER_CPUS=${SERVER_CPUS:-0}
CLIENT_CPUS=${CLIENT_CPUS:-1}
SEED_NICE=${SEED_NICE:-10}
BUILD_JOBS=${BUILD_JOBS:-$(nproc)}
PORT_BASE=${PORT_BASE:-29080}
KEEP=${KEEP:-0}
OUT=${OUT:-$ROOT/bench/results/analytics-$(date -u +%Y%m%d-%H%M%S)}

P_AEV=$((PORT_BASE + 10))
P_CH_HTTP=$((PORT_BASE + 20))
P_CH_TCP=$((PORT_BASE + 21))
P_PG=$((PORT_BASE + 352))

started_at=$(date +%s)
log() { printf '[%4ds] %s\n' $(( $(date +%s) - started_at )) "$*" >&2; }

# ---------------------------------------------------------------------------------------
# Prerequisites
# ---------------------------------------------------------------------------------------
need=()
command -v sqlite3 >/dev/null || need+=(sqlite3)
command -v jq >/dev/null || need+=(jq)
command -v curl >/dev/null || need+=(curl)
command -v g++ >/dev/null || need+=(g++)
if [[ " $STORES " == *" pg "* ]] && ! ls -d /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  need+=(postgresql)
fi
if [ "$CH" = 1 ]; then
  command -v clickhouse-server >/dev/null || need+=(clickhouse-server)
  command -v clickhouse-client >/dev/null || need+=(clickhouse-client)
fi
if [ ${#need[@]} -gt 0 ]; then
  log "installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  # policy-rc.d may refuse to start the packaged services; we start our own instances.
  apt-get install -y -qq "${need[@]}" >/dev/null
fi

if [ "$BUILD_BIN" = 1 ]; then  # incremental: a no-op when the daemon is up to date
  log "building the daemon in $ROOT/build-bench (RelWithDebInfo)"
  # RelWithDebInfo, not Release: the build type the Debian package ships (packaging/cpack.cmake).
  buildlog=$(mktemp)
  if ! { cmake -S "$ROOT" -B "$ROOT/build-bench" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAEV_BUILD_TESTS=OFF &&
    nice -n 10 cmake --build "$ROOT/build-bench" -j"$BUILD_JOBS"; } >"$buildlog" 2>&1; then
    tail -40 "$buildlog" >&2
    echo "the daemon did not build (log: $buildlog)" >&2
    exit 1
  fi
  rm -f "$buildlog"
fi
PLUGINS=${PLUGINS:-$(dirname "$BIN")/../lib/agent-events/plugins}
if [ ! -e "$PLUGINS/dimension_standard.so" ]; then
  echo "no dimension_standard.so in $PLUGINS (the analytics dimensions come from it): set PLUGINS" >&2
  exit 1
fi

for p in $P_AEV $P_CH_HTTP $P_CH_TCP $P_PG; do
  if ss -ltnH "sport = :$p" | grep -q .; then echo "port $p is in use; set PORT_BASE" >&2; exit 1; fi
done

work=""
AEV_PID=""; PG_STARTED=0; PGBIN=""; CH_PID=""
stop_pid() {  # pid: SIGTERM, wait up to 10 s, then SIGKILL
  [ -n "$1" ] || return 0
  kill -TERM "$1" 2>/dev/null || return 0
  for _ in $(seq 1 100); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL "$1" 2>/dev/null || true
}
cleanup() {
  set +e
  stop_pid "$AEV_PID"
  stop_pid "$CH_PID"
  if [ "$PG_STARTED" = 1 ]; then
    runuser -u postgres -- "$PGBIN/pg_ctl" -D "$work/pg/data" -m fast -w stop >/dev/null 2>&1
  fi
  if [ "$KEEP" = 1 ]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# Under /var/tmp (disk, not a tmpfs): 10M events take ~8 GB per store.
work=$(mktemp -d /var/tmp/aev-analytics.XXXXXX)
chmod 755 "$work"
mkdir -p "$OUT"
SEED=$work/analytics_seed
g++ -O2 -std=c++20 -o "$SEED" "$ROOT/bench/analytics_seed.cpp"
: >"$OUT/timings.jsonl"
: >"$OUT/seed.jsonl"

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "nproc: $(nproc); $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
  echo "mem: $(free -g | awk '/Mem:/ {print $2}') GiB; kernel $(uname -r)"
  echo "loadavg before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "sqlite: $(sqlite3 --version | cut -d' ' -f1) (the CLI and the daemon use the same libsqlite3)"
  if [[ " $STORES " == *" pg "* ]]; then
    echo "postgres: $("$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)/postgres" --version | awk '{print $3}')"
  fi
  [ "$CH" = 1 ] && echo "clickhouse: $(dpkg-query -W -f='${Version}' clickhouse-server 2>/dev/null)"
  if [ "$BUILD_BIN" = 1 ]; then
    echo "daemon: $BIN, work tree at git $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null)$(git -C "$ROOT" diff --quiet HEAD -- daemon 2>/dev/null || echo ' + uncommitted changes in daemon/')"
  else
    echo "daemon: $BIN (built $(stat -c %y "$BIN" | cut -d. -f1))"
  fi
  echo "pinning: servers and the sqlite3 CLI on CPU $SERVER_CPUS, curl and psql on CPU $CLIENT_CPUS"
  echo "settings: SIZES='$SIZES' STORES='$STORES' REPEAT=$REPEAT (after $WARMUP warm-up rounds) CH=$CH"
} >"$OUT/machine.txt"
cat "$OUT/machine.txt" >&2
if awk '{ exit !($1 > 1.0) }' /proc/loadavg; then
  log "WARNING: load average $(cut -d' ' -f1 /proc/loadavg) before the run: other work shares these cores; expect noise"
fi

now_us() { echo $(( $(date +%s%N) / 1000 )); }
ms_of() { awk -v s="$1" 'BEGIN { printf "%.3f", s * 1000 }'; }  # seconds -> ms
record() {  # n store query engine rep "wall_ms cpu_ms"
  local wall cpu
  read -r wall cpu <<<"$6"
  jq -nc --argjson n "$1" --arg store "$2" --arg query "$3" --arg engine "$4" --argjson rep "$5" \
    --argjson ms "$wall" --argjson cpu "$cpu" \
    '{n:$n,store:$store,query:$query,engine:$engine,rep:$rep,ms:$ms,cpu_ms:$cpu}' >>"$OUT/timings.jsonl"
}

# ---------------------------------------------------------------------------------------
# Servers: PostgreSQL (one cluster; a database per size), ClickHouse, the daemon.
# ---------------------------------------------------------------------------------------
if [[ " $STORES " == *" pg "* ]]; then
  PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  mkdir -p "$work/pg/data" "$work/pg/sock"
  chown -R postgres:postgres "$work/pg"
  runuser -u postgres -- "$PGBIN/initdb" -D "$work/pg/data" -A trust -U postgres >"$OUT/pg-initdb.log" 2>&1
  # A read benchmark: durability off for the bulk load (fsync, WAL minimal). One server
  # core: no parallel workers (they would share CPU 0 with the leader).
  taskset -c "$SERVER_CPUS" runuser -u postgres -- "$PGBIN/pg_ctl" -D "$work/pg/data" -l "$work/pg/log" -w \
    -o "-c listen_addresses=127.0.0.1 -c port=$P_PG -c unix_socket_directories=$work/pg/sock -c shared_buffers=1GB -c max_wal_size=8GB -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c wal_level=minimal -c max_wal_senders=0 -c max_parallel_workers_per_gather=0 -c maintenance_work_mem=1GB -c autovacuum=off" \
    start >/dev/null
  PG_STARTED=1
  log "postgres up on $P_PG"
fi
pgsql() {  # db [psql args...]
  local db=$1
  shift
  psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$P_PG" -U postgres -d "$db" "$@"
}

CH_USER=""
chq() {  # sql [extra clickhouse-client args...]: one statement, TabSeparated out
  local sql=$1
  shift
  clickhouse-client --host 127.0.0.1 --port "$P_CH_TCP" --query "$sql" "$@"
}
if [ "$CH" = 1 ]; then
  mkdir -p "$work/ch/data" "$work/ch/tmp" "$work/ch/user_files" "$work/ch/format_schemas"
  cat >"$work/ch/config.xml" <<EOF
<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>$work/ch/server.log</log><errorlog>$work/ch/error.log</errorlog></logger>
  <http_port>$P_CH_HTTP</http_port>
  <tcp_port>$P_CH_TCP</tcp_port>
  <listen_host>127.0.0.1</listen_host>
  <max_connections>64</max_connections>
  <max_concurrent_queries>16</max_concurrent_queries>
  <uncompressed_cache_size>1073741824</uncompressed_cache_size>
  <mark_cache_size>536870912</mark_cache_size>
  <path>$work/ch/data/</path>
  <tmp_path>$work/ch/tmp/</tmp_path>
  <user_files_path>$work/ch/user_files/</user_files_path>
  <format_schema_path>$work/ch/format_schemas/</format_schema_path>
  <users_config>$work/ch/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mlock_executable>false</mlock_executable>
  <query_log><database>system</database><table>query_log</table><flush_interval_milliseconds>1000</flush_interval_milliseconds></query_log>
</yandex>
EOF
  # One server core for ClickHouse as for the others: max_threads=1.
  cat >"$work/ch/users.xml" <<EOF
<?xml version="1.0"?>
<yandex>
  <profiles><default><max_threads>1</max_threads><max_memory_usage>8000000000</max_memory_usage></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></default></users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors><result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time></interval></default></quotas>
</yandex>
EOF
  # Not as root when the package's system user exists (newer servers refuse root).
  as=()
  if [ "$(id -u)" = 0 ] && id clickhouse >/dev/null 2>&1; then
    chown -R clickhouse: "$work/ch"
    as=(runuser -u clickhouse --)
    CH_USER=clickhouse
  fi
  (cd "$work/ch" && exec taskset -c "$SERVER_CPUS" "${as[@]}" clickhouse-server --config-file="$work/ch/config.xml") \
    >"$OUT/clickhouse.log" 2>&1 &
  CH_PID=$!
  for _ in $(seq 1 200); do
    curl -fs -o /dev/null "http://127.0.0.1:$P_CH_HTTP/?query=SELECT%201" && break
    kill -0 "$CH_PID" 2>/dev/null || break
    sleep 0.1
  done
  curl -fs -o /dev/null "http://127.0.0.1:$P_CH_HTTP/?query=SELECT%201" ||
    { echo "clickhouse did not start; see $OUT/clickhouse.log and $work/ch/error.log" >&2; cat "$work/ch/error.log" >&2; exit 1; }
  log "clickhouse $(chq 'SELECT version()') up on $P_CH_HTTP/$P_CH_TCP${CH_USER:+ (as $CH_USER)}"
fi

# ROLLUPS=0: the daemon reads raw events only (analytics.rollup_reads=false), the figures before rollups.
aev_flags=(--set "analytics.rollup_reads=$([ "${ROLLUPS:-1}" = 0 ] && echo false || echo true)" --set log.level=warn --set "plugins.dir=$PLUGINS" --set plans.free.events_quota_monthly=2000000000
  --set auth.login_max_failures=1000)
start_aev() {  # data-dir [extra args]: starts the daemon, sets AEV_PID
  local dir=$1
  shift
  taskset -c "$SERVER_CPUS" "$BIN" --port "$P_AEV" --host 127.0.0.1 --data-dir "$dir" "${aev_flags[@]}" "$@" \
    >>"$OUT/daemon.log" 2>&1 &
  AEV_PID=$!
  for _ in $(seq 1 300); do
    curl -fs -o /dev/null "http://127.0.0.1:$P_AEV/readyz" && return 0
    kill -0 "$AEV_PID" 2>/dev/null || break
    sleep 0.05
  done
  echo "agent-eventsd did not become ready; see $OUT/daemon.log" >&2
  exit 1
}
stop_aev() { stop_pid "$AEV_PID"; AEV_PID=""; }
# The seeded events are folded into the analytics rollups by the daemon's background
# backfill (docs/features.md#analytics-rollups); analytics reads raw events until it is
# done, so timing starts after it. Its duration is recorded in seed.jsonl.
wait_backfill() {  # store n
  local t0 m
  t0=$(date +%s)
  while :; do
    m=$(curl -fs "http://127.0.0.1:$P_AEV/metrics" || true)
    if grep -q '^agent_events_rollup_backfill_remaining 0$' <<<"$m" &&
      ! grep -q '^agent_events_rollup_backfill_events_total 0$' <<<"$m"; then break; fi
    sleep 1
  done
  log "  rollups backfilled in $(( $(date +%s) - t0 )) s"
  jq -nc --arg store "$1" --argjson n "$2" --argjson s $(( $(date +%s) - t0 )) '{store:$store,n:$n,backfill_s:$s}' \
    >>"$OUT/seed.jsonl"
}

api() {  # method path token tenant [json]
  local args=(-fsS -X "$1" "http://127.0.0.1:$P_AEV$2" -H 'content-type: application/json')
  [ -n "$3" ] && args+=(-H "authorization: Bearer $3")
  [ -n "$4" ] && args+=(-H "x-tenant-id: $4")
  [ -n "${5:-}" ] && args+=(-d "$5")
  curl "${args[@]}"
}
setup_aev() {  # sets ORG APP CHANNEL KEY: a user (the first: admin), its personal org, an app, a channel, a read key
  api POST /auth/register "" "" '{"email":"bench@example.com","username":"bench","password":"benchpassword"}' >/dev/null
  local token
  token=$(api POST /auth/login "" "" '{"login":"bench","password":"benchpassword"}' | jq -r .access_token)
  ORG=$(api GET /users/me/organizations "$token" "" | jq -r '.[0].organizationId')
  APP=$(api POST /apps "$token" "$ORG" '{"name":"analytics-bench"}' | jq -r .id)
  CHANNEL=$(api POST "/apps/$APP/channels" "$token" "$ORG" '{"name":"telemetry"}' | jq -r .id)
  KEY=$(api POST /api-keys "$token" "$ORG" '{"name":"analytics-bench","scopes":["read"]}' | jq -r .key)
  [[ "$ORG" =~ ^[0-9]+$ && "$APP" =~ ^[0-9]+$ && "$CHANNEL" =~ ^[0-9]+$ && "$KEY" == aes_* ]] ||
    { echo "setup failed: org=$ORG app=$APP channel=$CHANNEL key=${KEY:0:8}" >&2; exit 1; }
}

# ---------------------------------------------------------------------------------------
# Seeding: straight into the store's tables, in one transaction, secondary indexes dropped
# before and rebuilt after (what a bulk load does), then ANALYZE.
# ---------------------------------------------------------------------------------------
attribute_keys_sql() {  # org now: the keys /analytics/dimensions lists, per environment
  local env key vals=""
  for env in production staging; do
    for key in team tier region; do
      vals+="${vals:+,}($1, '$env', '$key', 'api', $2)"
    done
  done
  echo "INSERT INTO attribute_keys (org_id, environment, key, source, last_seen) VALUES $vals;"
}
seed_sqlite() {  # db n now
  local db=$1 n=$2 now=$3 t0 t1 t2
  t0=$(date +%s)
  sqlite3 "$db" "PRAGMA journal_mode=DELETE" >/dev/null  # the daemon is stopped; WAL back at the end
  sqlite3 "$db" "SELECT sql || ';' FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
                 AND tbl_name IN ('events', 'event_attributes')" >"$work/indexes.sql"
  sqlite3 "$db" "SELECT 'DROP INDEX ' || name || ';' FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
                 AND tbl_name IN ('events', 'event_attributes')" | sqlite3 "$db"
  { echo "PRAGMA synchronous=OFF; PRAGMA cache_size=-1000000; BEGIN;"
    "$SEED" sqlite "$n" "$now" "$ORG" "$APP" "$CHANNEL"
    echo "UPDATE channels SET last_seq = $n WHERE id = $CHANNEL;"
    attribute_keys_sql "$ORG" "$now"
    # Rows loaded behind the daemon's back: its rollups backfill them when it starts.
    echo "UPDATE analytics_rollup_state SET backfill_until = (SELECT MAX(id) FROM events), backfilled_to = 0;"
    echo "COMMIT;"
  } | nice -n "$SEED_NICE" sqlite3 -bail "$db"
  t1=$(date +%s)
  log "  rows in ($((t1 - t0)) s); rebuilding $(wc -l <"$work/indexes.sql") indexes, ANALYZE"
  { echo "PRAGMA cache_size=-1000000;"; cat "$work/indexes.sql"; echo "ANALYZE;"; } | nice -n "$SEED_NICE" sqlite3 -bail "$db"
  sqlite3 "$db" "PRAGMA journal_mode=WAL" >/dev/null
  t2=$(date +%s)
  jq -nc --argjson n "$n" --argjson load $((t1 - t0)) --argjson index $((t2 - t1)) \
    --argjson bytes "$(stat -c %s "$db")" '{store:"sqlite",n:$n,load_s:$load,index_analyze_s:$index,db_bytes:$bytes}' |
    tee -a "$OUT/seed.jsonl" >&2
}
seed_pg() {  # db n now
  local db=$1 n=$2 now=$3 t0 t1 t2
  t0=$(date +%s)
  pgsql "$db" -At -c "SELECT indexdef || ';' FROM pg_indexes WHERE schemaname = 'public'
      AND tablename IN ('events', 'event_attributes')
      AND indexname NOT IN (SELECT conname FROM pg_constraint)" >"$work/indexes.sql"
  pgsql "$db" -At -c "SELECT 'DROP INDEX ' || indexname || ';' FROM pg_indexes WHERE schemaname = 'public'
      AND tablename IN ('events', 'event_attributes')
      AND indexname NOT IN (SELECT conname FROM pg_constraint)" | pgsql "$db"
  # session_replication_role=replica: no per-row foreign-key triggers during the COPY.
  "$SEED" pg-events "$n" "$now" "$ORG" "$APP" "$CHANNEL" |
    nice -n "$SEED_NICE" psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$P_PG" -U postgres -d "$db" \
      -c "SET session_replication_role = replica" \
      -c "COPY events ($("$SEED" columns)) FROM STDIN (FORMAT csv, NULL '\\N')"
  "$SEED" pg-attrs "$n" "$now" "$ORG" "$APP" "$CHANNEL" |
    nice -n "$SEED_NICE" psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$P_PG" -U postgres -d "$db" \
      -c "SET session_replication_role = replica" \
      -c "COPY event_attributes (event_id, org_id, ts, key, value) FROM STDIN (FORMAT csv)"
  pgsql "$db" -c "SELECT setval(pg_get_serial_sequence('events', 'id'), $n)" \
    -c "UPDATE channels SET last_seq = $n WHERE id = $CHANNEL" -c "$(attribute_keys_sql "$ORG" "$now")" \
    -c "UPDATE analytics_rollup_state SET backfill_until = (SELECT MAX(id) FROM events), backfilled_to = 0" >/dev/null
  t1=$(date +%s)
  log "  rows in ($((t1 - t0)) s); rebuilding $(wc -l <"$work/indexes.sql") indexes, VACUUM ANALYZE"
  { echo "SET maintenance_work_mem = '1GB';"; cat "$work/indexes.sql"; echo "VACUUM ANALYZE events, event_attributes;"; } |
    nice -n "$SEED_NICE" psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$P_PG" -U postgres -d "$db"
  t2=$(date +%s)
  jq -nc --argjson n "$n" --argjson load $((t1 - t0)) --argjson index $((t2 - t1)) \
    --argjson bytes "$(pgsql "$db" -At -c "SELECT pg_database_size(current_database())")" \
    '{store:"pg",n:$n,load_s:$load,index_analyze_s:$index,db_bytes:$bytes}' | tee -a "$OUT/seed.jsonl" >&2
}
CH_TABLE=""
seed_ch() {  # n now: table ev<n>, the same rows (same generator, seed, NOW and ids)
  local n=$1 now=$2 t0 t1
  CH_TABLE=ev$n
  CH_ORG=$ORG
  t0=$(date +%s)
  chq "DROP TABLE IF EXISTS $CH_TABLE"
  chq "CREATE TABLE $CH_TABLE (id UInt64, org_id UInt64, app_id UInt64, channel_id UInt64, seq UInt64,
    event_type String, agent String, model String, provider String, status String, tool String,
    environment String, end_user String, input_tokens Int64, output_tokens Int64, cost_usd Float64,
    duration_ms Nullable(Float64), ts Int64, tags Nested(key String, value String))
    ENGINE = MergeTree() ORDER BY (org_id, ts)"
  "$SEED" ch "$n" "$now" "$ORG" "$APP" "$CHANNEL" | nice -n "$SEED_NICE" clickhouse-client --host 127.0.0.1 \
    --port "$P_CH_TCP" --query "INSERT INTO $CH_TABLE FORMAT TabSeparated"
  chq "OPTIMIZE TABLE $CH_TABLE FINAL"  # one part, as after background merges
  t1=$(date +%s)
  jq -nc --argjson n "$n" --argjson load $((t1 - t0)) \
    --argjson bytes "$(chq "SELECT sum(bytes) FROM system.parts WHERE table = '$CH_TABLE' AND active")" \
    '{store:"clickhouse",n:$n,load_s:$load,db_bytes:$bytes}' | tee -a "$OUT/seed.jsonl" >&2
}

# ---------------------------------------------------------------------------------------
# The queries: the daemon's (over HTTP), the same SQL by hand, ClickHouse's equivalent.
# ---------------------------------------------------------------------------------------
# dimensions: the smallest authenticated analytics request (6 rows of attribute_keys), the
# daemon's floor per request (HTTP, API-key check, pool, JSON).
# overview: the analytics screen's first request (six time series and the latency
# percentiles, all and per kind); screen: what the analytics screen asks on opening
# (overview, then the breakdown by model); latency: the percentiles alone. These three have
# no hand SQL (the daemon answers them from its rollups and sketches; raw, it runs several
# statements) and are checked against ClickHouse by their counts only.
QUERIES=(breakdown_model breakdown_tag timeseries_hour dimensions overview screen latency)
CHECKED=(breakdown_model breakdown_tag timeseries_hour dimensions)
HOUR_US=3600000000
DAY_US=86400000000
AGG="COUNT(*) AS n, SUM(CASE WHEN e.status = 'error' THEN 1 ELSE 0 END) AS errors, COALESCE(SUM(e.input_tokens), 0) AS input_tokens, COALESCE(SUM(e.output_tokens), 0) AS output_tokens, COALESCE(SUM(e.cost_usd), 0) AS cost, AVG(e.duration_ms) AS duration"
path_of() {  # query [since-rfc3339 until-rfc3339]
  local window=""
  [ -n "${2:-}" ] && window="&since=$2&until=$3"
  case $1 in
    breakdown_model) echo "/analytics/breakdown?dimension=model$window" ;;
    breakdown_tag) echo "/analytics/breakdown?dimension=tag&tagKey=team$window" ;;
    timeseries_hour) echo "/analytics/timeseries?metric=event_count&interval=hour$window" ;;
    dimensions) echo "/analytics/dimensions" ;;
    overview) echo "/analytics/overview?interval=hour$window" ;;
    screen) echo "/analytics/overview?interval=hour$window /analytics/breakdown?dimension=model$window" ;;
    latency) echo "/analytics/latency?${window#&}" ;;
    *) ;;  # hand SQL only
  esac
}
sql_of() {  # query org since until: the SQL the daemon runs (analytics_repository.cpp), literals in place of ?
  local o=$2 s=$3 u=$4
  case $1 in
    breakdown_model)
      echo "SELECT e.model AS k, $AGG FROM events e WHERE e.org_id = $o AND e.ts >= $s AND e.ts < $u AND e.model IS NOT NULL GROUP BY e.model ORDER BY n DESC, k LIMIT 50" ;;
    breakdown_tag)
      echo "SELECT a.value AS k, $AGG FROM event_attributes a JOIN events e ON e.id = a.event_id WHERE e.org_id = $o AND e.ts >= $s AND e.ts < $u AND a.org_id = $o AND a.key = 'team' AND a.ts >= $s AND a.ts < $u GROUP BY a.value ORDER BY n DESC, k LIMIT 50" ;;
    timeseries_hour)
      echo "SELECT (e.ts / $HOUR_US) * $HOUR_US AS bucket, COUNT(*) AS v FROM events e WHERE e.org_id = $o AND e.ts >= $s AND e.ts < $u GROUP BY bucket ORDER BY bucket" ;;
    dimensions)
      echo "SELECT key, MAX(last_seen) AS last_seen, MIN(source) AS source FROM attribute_keys WHERE org_id = $o GROUP BY key ORDER BY last_seen DESC, key LIMIT 50" ;;
    timeseries_buckets)  # what-if: one index range count per bucket, no GROUP BY sort
      local hi=min lo=max
      [ "$CUR_STORE" = pg ] && { hi=LEAST; lo=GREATEST; }
      echo "WITH RECURSIVE b(t0) AS (SELECT ($s / $HOUR_US) * $HOUR_US UNION ALL SELECT t0 + $HOUR_US FROM b WHERE t0 + $HOUR_US < $u) SELECT t0 AS bucket, (SELECT COUNT(*) FROM events e WHERE e.org_id = $o AND e.ts >= $lo(b.t0, $s) AND e.ts < $hi(b.t0 + $HOUR_US, $u)) AS v FROM b" ;;
  esac
}
ch_of() {  # query org since until: the same answer on the ClickHouse table (tags: ARRAY JOIN of the Nested)
  local o=$2 s=$3 u=$4
  local agg="count() AS n, countIf(status = 'error') AS errors, sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens, sum(cost_usd) AS cost, avg(duration_ms) AS duration"
  case $1 in
    breakdown_model)
      echo "SELECT model AS k, $agg FROM $CH_TABLE WHERE org_id = $o AND ts >= $s AND ts < $u AND model != '' GROUP BY model ORDER BY n DESC, k LIMIT 50" ;;
    breakdown_tag)
      echo "SELECT tags.value AS k, $agg FROM $CH_TABLE ARRAY JOIN tags WHERE org_id = $o AND ts >= $s AND ts < $u AND tags.key = 'team' GROUP BY k ORDER BY n DESC, k LIMIT 50" ;;
    timeseries_hour)
      echo "SELECT intDiv(ts, $HOUR_US) * $HOUR_US AS bucket, count() AS v FROM $CH_TABLE WHERE org_id = $o AND ts >= $s AND ts < $u GROUP BY bucket ORDER BY bucket" ;;
    latency)
      echo "SELECT quantiles(0.5, 0.95, 0.99)(duration_ms) FROM $CH_TABLE WHERE org_id = $o AND ts >= $s AND ts < $u" ;;
    overview)  # the six series per hour, and the percentiles: all, LLM calls, tool calls
      echo "SELECT intDiv(ts, $HOUR_US) * $HOUR_US AS bucket, count() AS n, countIf(status = 'error') AS errors, sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens, sum(cost_usd) AS cost, avg(duration_ms) AS duration, (SELECT tuple(quantiles(0.5, 0.95, 0.99)(duration_ms), quantilesIf(0.5, 0.95, 0.99)(duration_ms, model != ''), quantilesIf(0.5, 0.95, 0.99)(duration_ms, tool != '')) FROM $CH_TABLE WHERE org_id = $o AND ts >= $s AND ts < $u) AS latency FROM $CH_TABLE WHERE org_id = $o AND ts >= $s AND ts < $u GROUP BY bucket ORDER BY bucket" ;;
    screen)  # one statement per line: the overview's, then the breakdown's
      ch_of overview "$2" "$3" "$4"
      ch_of breakdown_model "$2" "$3" "$4" ;;
    *) ;;  # no ClickHouse counterpart
  esac
}

# Each timing prints "wall_ms cpu_ms". Wall: what a caller waits (curl time_total, or the
# engine's own statement timer). CPU: what the servers spent on it, from /proc schedstat
# (all threads): the daemon (+ every PostgreSQL process when on PostgreSQL), the sqlite3
# CLI (.timer user+sys), the psql session's backend, ClickHouse's server. CPU is the
# figure that holds when other work shares the cores; wall time then includes run-queue waits.
tree_pids() {  # pid: it and its descendants
  local c
  echo "$1"
  for c in $(pgrep -P "$1" 2>/dev/null); do tree_pids "$c"; done
}
sched_ns() {  # pids...: summed on-CPU time (ns) of all their threads
  local pid
  for pid in "$@"; do cat /proc/"$pid"/task/*/schedstat 2>/dev/null || true; done | awk '{ s += $1 } END { printf "%.0f", s }'
}
daemon_pids() {
  echo "$AEV_PID"
  [ "$CUR_STORE" = pg ] && tree_pids "$(head -1 "$work/pg/data/postmaster.pid")"
  return 0
}
time_daemon() {  # query -> wall cpu (curl time_total: connect + request + answer; summed over a screen's requests)
  local r code t c0 c1 pids path total=0
  pids=$(daemon_pids)
  c0=$(sched_ns $pids)
  for path in $(path_of "$1"); do
    r=$(taskset -c "$CLIENT_CPUS" curl -s -o "$work/answer.json" -w '%{http_code} %{time_total}' \
      -H "X-API-Key: $KEY" "http://127.0.0.1:$P_AEV$path")
    read -r code t <<<"$r"
    [ "$code" = 200 ] || { echo "daemon answered $code to $path: $(head -c 300 "$work/answer.json")" >&2; exit 1; }
    total=$(awk -v a="$total" -v b="$t" 'BEGIN { print a + b }')
  done
  c1=$(sched_ns $pids)
  echo "$(ms_of "$total") $(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.3f", (b - a) / 1e6 }')"
}
# The hand-written SQL runs under the settings the daemon gives its own PostgreSQL sessions
# (database.postgresql_settings, read from the binary's defaults), so that both sides plan
# alike: "jit=off, random_page_cost=1.1" becomes PGOPTIONS="-c jit=off -c random_page_cost=1.1".
pg_session_options() {
  "$BIN" --print-config-file | sed -n 's/^database\.postgresql_settings = //p' |
    tr ', ' '\n\n' | awk 'NF { printf "%s-c %s", sep, $0; sep = " " }'
}
time_sql() {  # store db query -> wall cpu: the statement run twice in one session, the second timed
  local store=$1 db=$2 q=$3 now sql
  now=$(now_us)
  sql=$(sql_of "$q" "$ORG" $((now - DAY_US)) "$now")
  [ -n "$sql" ] || return 0  # no hand-written counterpart
  if [ "$store" = sqlite ]; then
    # .timer prints "Run Time: real S user S sys S" per statement (real: ms resolution).
    printf '.timer on\n.output /dev/null\n%s;\n%s;\n' "$sql" "$sql" | taskset -c "$SERVER_CPUS" sqlite3 "$db" |
      awk '/^Run Time:/ { t = $4; c = $6 + $8 } END { printf "%.3f %.3f", t * 1000, c * 1000 }'
  else
    # \timing: the client's round trip; the backend's CPU from its schedstat around it.
    printf '\\timing on\n\\o /dev/null\nSELECT pg_backend_pid() AS bpid \\gset\n\\setenv BPID :bpid\n%s;\n\\! cat /proc/$BPID/schedstat\n%s;\n\\! cat /proc/$BPID/schedstat\n' "$sql" "$sql" |
      PGOPTIONS=$PG_SESSION_OPTIONS taskset -c "$CLIENT_CPUS" psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$P_PG" -U postgres -d "$db" |
      awk '/^Time:/ { t = $2 } /^[0-9]+ [0-9]+ [0-9]+$/ { c[++n] = $1 } END { printf "%.3f %.3f", t, (c[2] - c[1]) / 1e6 }'
  fi
}
time_ch() {  # query -> wall cpu (curl time_total over ClickHouse's HTTP interface, like the daemon's; a screen's statements summed)
  local now r code t c0 c1 pids stmt total=0
  now=$(now_us)
  pids=$(tree_pids "$CH_PID")
  c0=$(sched_ns $pids)
  while IFS= read -r stmt; do
    r=$(printf '%s' "$stmt" | taskset -c "$CLIENT_CPUS" curl -s -o "$work/ch-answer.txt" \
      -w '%{http_code} %{time_total}' --data-binary @- "http://127.0.0.1:$P_CH_HTTP/")
    read -r code t <<<"$r"
    [ "$code" = 200 ] || { echo "clickhouse answered $code: $(head -c 300 "$work/ch-answer.txt")" >&2; exit 1; }
    total=$(awk -v a="$total" -v b="$t" 'BEGIN { print a + b }')
  done < <(ch_of "$1" "$CH_ORG" $((now - DAY_US)) "$now")
  c1=$(sched_ns $pids)
  echo "$(ms_of "$total") $(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.3f", (b - a) / 1e6 }')"
}

# The same answer from the three: counts per key over a fixed window [NOW-24h, NOW).
check_answers() {  # store db n now
  local store=$1 db=$2 n=$3 now=$4 since until q ok=1
  since=$(date -u -d "@$(( now / 1000000 - 86400 ))" +%Y-%m-%dT%H:%M:%SZ)
  until=$(date -u -d "@$(( now / 1000000 ))" +%Y-%m-%dT%H:%M:%SZ)
  for q in "${CHECKED[@]}"; do
    local f=$OUT/answers-$store-$n-$q
    curl -fsS -H "X-API-Key: $KEY" "http://127.0.0.1:$P_AEV$(path_of "$q" "$since" "$until")" >"$f.json"
    local sql
    sql=$(sql_of "$q" "$ORG" $((now - DAY_US)) "$now")
    if [ "$q" = timeseries_hour ]; then
      jq -r '.points[] | select(.value > 0) | "\(.value)"' "$f.json" | awk '{ s += $1; c++ } END { printf "%.0f %.0f\n", c, s }' >"$f.daemon"
      sql="SELECT COUNT(*), SUM(v) FROM ($sql) x"
    elif [ "$q" = dimensions ]; then
      jq -r '.dimensions[] | .key' "$f.json" >"$f.daemon"
      sql="SELECT key FROM ($sql) x"
    else
      jq -r '.rows[] | "\(.key) \(.eventCount) \(.inputTokens)"' "$f.json" >"$f.daemon"
      sql="SELECT k, n, input_tokens FROM ($sql) x"
    fi
    if [ "$store" = sqlite ]; then
      sqlite3 -separator ' ' "$db" "$sql" >"$f.sql"
    else
      pgsql "$db" -At -F ' ' -c "$sql" >"$f.sql"
    fi
    local verdict="daemon = hand SQL"
    cmp -s "$f.daemon" "$f.sql" || { verdict="daemon != hand SQL"; ok=0; }
    if [ "$CH" = 1 ] && [ "$q" != dimensions ]; then
      local chsql
      chsql=$(ch_of "$q" "$CH_ORG" $((now - DAY_US)) "$now")
      if [ "$q" = timeseries_hour ]; then
        chq "SELECT count(), sum(v) FROM ($chsql)" | tr '\t' ' ' >"$f.ch"
      else
        chq "SELECT k, n, input_tokens FROM ($chsql)" | tr '\t' ' ' >"$f.ch"
      fi
      if cmp -s "$f.daemon" "$f.ch"; then verdict+=" = ClickHouse"; else verdict+=", != ClickHouse"; ok=0; fi
    fi
    log "  answers $q: $verdict ($(wc -l <"$f.daemon") rows; first: $(head -1 "$f.daemon"))"
  done
  [ "$ok" = 1 ] || log "  WARNING: the answers differ; see $OUT/answers-$store-$n-*"
}

# Plans: what each engine does for each query (same fixed window).
record_plans() {  # store db n now [queries...]
  local store=$1 db=$2 n=$3 now=$4 q f=$OUT/plans-$1-$3.txt
  shift 4
  local qs=("$@")
  [ ${#qs[@]} -gt 0 ] || qs=("${QUERIES[@]}")
  : >"$f"
  for q in "${qs[@]}"; do
    local sql
    sql=$(sql_of "$q" "$ORG" $((now - DAY_US)) "$now")
    [ -n "$sql" ] || continue  # no hand SQL (overview, screen, latency)
    { echo "== $q"; echo "$sql"; } >>"$f"
    if [ "$store" = sqlite ]; then
      sqlite3 "$db" "EXPLAIN QUERY PLAN $sql" >>"$f"
    else
      PGOPTIONS=$PG_SESSION_OPTIONS pgsql "$db" -c "EXPLAIN (ANALYZE, BUFFERS) $sql" >>"$f"
      # The daemon runs prepared statements (libpq): after 5 executions PostgreSQL may
      # switch to a generic plan. Its shape, for the record:
      echo "-- the same as a prepared statement, generic plan (plan_cache_mode = force_generic_plan):" >>"$f"
      PGOPTIONS=$PG_SESSION_OPTIONS pgsql "$db" -c "SET plan_cache_mode = force_generic_plan" \
        -c "PREPARE q(bigint, bigint, bigint) AS $(sql_of "$q" '$1' '$2' '$3')" \
        -c "EXPLAIN EXECUTE q($ORG, $((now - DAY_US)), $now)" >>"$f" 2>&1 || true
    fi
    if [ "$CH" = 1 ] && [ -n "$(ch_of "$q" 0 0 0)" ]; then
      # No EXPLAIN in 18.16: run it once with log_queries=1 and read what it read.
      local chsql qid=plan-$store-$n-$q-$RANDOM
      chsql=$(ch_of "$q" "$CH_ORG" $((now - DAY_US)) "$now")
      if [ -n "$chsql" ]; then
        curl -fsS -o /dev/null --data-binary "$chsql" "http://127.0.0.1:$P_CH_HTTP/?log_queries=1&query_id=$qid" || true
        chq "SYSTEM FLUSH LOGS" || true
        { echo "-- clickhouse: $chsql"
          chq "SELECT concat('read_rows=', toString(read_rows), ' read_bytes=', toString(read_bytes),
                 ' query_duration_ms=', toString(query_duration_ms), ' memory_usage=', toString(memory_usage))
               FROM system.query_log WHERE query_id = '$qid' AND type = 2" || true; } >>"$f"
      fi
    fi
  done
}

measure() {  # store db n [queries...]: WARMUP rounds, then REPEAT, interleaved per query
  local store=$1 db=$2 n=$3 rep q
  shift 3
  local qs=("$@")
  [ ${#qs[@]} -gt 0 ] || qs=("${QUERIES[@]}")
  for rep in $(seq $((1 - WARMUP)) "$REPEAT"); do
    for q in "${qs[@]}"; do
      local d="" s c=""
      if [ -n "$(path_of "$q")" ]; then d=$(time_daemon "$q"); fi
      s=$(time_sql "$store" "$db" "$q")
      if [ "$CH" = 1 ] && [ -n "$(ch_of "$q" 0 0 0)" ]; then c=$(time_ch "$q"); fi
      if [ "$rep" -ge 1 ]; then
        [ -n "$d" ] && record "$n" "$store" "$q$SUFFIX" daemon "$rep" "$d"
        [ -n "$s" ] && record "$n" "$store" "$q$SUFFIX" sql "$rep" "$s"
        [ -n "$c" ] && record "$n" "$store" "$q$SUFFIX" clickhouse "$rep" "$c"
        log "  $store n=$n rep $rep $q$SUFFIX (wall/cpu ms): ${d:+daemon ${d/ //}}${s:+, hand SQL ${s/ //}}${c:+, clickhouse ${c/ //}}"
      fi
    done
  done
}

# What-if (WHATIF=1): the changes this benchmark suggests, measured on the same database
# after the main timings. Not in the daemon: a covering index for breakdowns by a telemetry
# column, and a time-series shape without the GROUP BY sort (hand SQL only).
whatif() {  # store db n
  local store=$1 db=$2 n=$3 t0 t1
  log "  what-if: covering index events(org_id, ts, model, status, tokens, cost, duration)"
  t0=$(date +%s)
  if [ "$store" = sqlite ]; then
    nice -n "$SEED_NICE" sqlite3 "$db" "CREATE INDEX events_org_ts_cover ON events (org_id, ts, model, status,
      input_tokens, output_tokens, cost_usd, duration_ms); ANALYZE events_org_ts_cover;"
  else
    nice -n "$SEED_NICE" psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$P_PG" -U postgres -d "$db" \
      -c "SET maintenance_work_mem = '1GB'" \
      -c "CREATE INDEX events_org_ts_cover ON events (org_id, ts) INCLUDE (model, status, input_tokens, output_tokens, cost_usd, duration_ms)" \
      -c "VACUUM ANALYZE events"
  fi
  t1=$(date +%s)
  jq -nc --arg store "$store" --argjson n "$n" --argjson s $((t1 - t0)) \
    '{store:$store,n:$n,whatif:"covering index",build_s:$s}' >>"$OUT/seed.jsonl"
  stop_aev
  start_aev "$CUR_DIR" "${CUR_EXTRA[@]}"  # fresh prepared statements
  record_plans "$store" "$db" "$n-whatif" "$NOW" breakdown_model timeseries_buckets
  SUFFIX=+cover CH=0 measure "$store" "$db" "$n" breakdown_model timeseries_buckets
}

# ---------------------------------------------------------------------------------------
# The run: per size, per store: set up, seed, restart, check, plans, measure, drop.
# ---------------------------------------------------------------------------------------
PG_SESSION_OPTIONS=$(pg_session_options)  # once: the binary is built by now
for n in $SIZES; do
  NOW=$(( $(date +%s) * 1000000 ))  # whole seconds: the check's RFC 3339 window is exact
  CH_LOADED=0
  for store in $STORES; do
    log "== $store, $n events"
    CUR_STORE=$store
    extra=()
    if [ "$store" = sqlite ]; then
      dir=$work/sqlite-$n
      db=$dir/agent-events.db
    else
      dir=$work/pgaev-$n
      db=aev_$n
      runuser -u postgres -- "$PGBIN/createdb" -h 127.0.0.1 -p "$P_PG" -U postgres "$db"
      # The keys every node on PostgreSQL must share (docs/operations.md), made once per run.
      [ -f "$work/audit-signing.key" ] || head -c 32 /dev/urandom | base64 >"$work/audit-signing.key"
      [ -n "${PG_JWT:-}" ] || { PG_JWT=$(head -c 48 /dev/urandom | base64 -w0); PG_SEAL=$(head -c 32 /dev/urandom | base64 -w0); }
      extra=(--database-url "postgresql://postgres@127.0.0.1:$P_PG/$db?options=-cclient_min_messages%3Dwarning"
        --set auth.jwt_secret="$PG_JWT" --set webhooks.secret_key="$PG_SEAL" --set audit.signing_key_file="$work/audit-signing.key")
    fi
    start_aev "$dir" "${extra[@]}"
    setup_aev
    stop_aev
    if [ "$store" = sqlite ]; then
      db=$(ls "$dir"/*.db | head -1)
      log "  seeding $n events into $db (org $ORG, app $APP, channel $CHANNEL)"
      seed_sqlite "$db" "$n" "$NOW"
    else
      log "  seeding $n events into PostgreSQL database $db (org $ORG, app $APP, channel $CHANNEL)"
      seed_pg "$db" "$n" "$NOW"
    fi
    if [ "$CH" = 1 ] && [ "$CH_LOADED" = 0 ]; then
      log "  loading the same $n rows into ClickHouse"
      seed_ch "$n" "$NOW"
      CH_LOADED=1
    fi
    CUR_DIR=$dir
    CUR_EXTRA=("${extra[@]}")
    start_aev "$dir" "${extra[@]}"
    wait_backfill "$store" "$n"
    check_answers "$store" "$db" "$n" "$NOW"
    record_plans "$store" "$db" "$n" "$NOW"
    log "  timing: $WARMUP warm-up rounds, then $REPEAT repeats of ${QUERIES[*]}"
    measure "$store" "$db" "$n"
    # Item 5 of issue 30: the daemon's peak resident memory over the whole run (start-up,
    # backfill, warm-up and every measured query), from the kernel's high-water mark.
    jq -nc --arg store "$store" --argjson n "$n" --argjson kb "$(awk '/^VmHWM:/ { print $2 }' /proc/"$AEV_PID"/status)" \
      '{store:$store,n:$n,peak_rss_kb:$kb}' | tee -a "$OUT/seed.jsonl" >&2
    [ "$WHATIF" = 1 ] && whatif "$store" "$db" "$n"
    stop_aev
    if [ "$KEEP" != 1 ]; then
      if [ "$store" = sqlite ]; then rm -rf "$dir"; else
        runuser -u postgres -- "$PGBIN/dropdb" -h 127.0.0.1 -p "$P_PG" -U postgres "$db"; rm -rf "$dir"
      fi
    fi
  done
  if [ "$CH" = 1 ] && [ "$KEEP" != 1 ]; then chq "DROP TABLE IF EXISTS ev$n"; fi
done
echo "loadavg after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/machine.txt"

# ---------------------------------------------------------------------------------------
# Summary: medians over repeats; ratios per repeat, then their median.
# ---------------------------------------------------------------------------------------
jq -s -r '
  def median: sort | if length == 0 then null elif length % 2 == 1 then .[length / 2 | floor]
    else (.[length / 2 - 1] + .[length / 2]) / 2 end;
  def r3: if . == null then "–" elif . >= 100 then (. | round | tostring)
    elif . >= 10 then ((. * 10 | round) / 10 | tostring) else ((. * 100 | round) / 100 | tostring) end;
  def qname: {breakdown_model: "breakdown by model", breakdown_tag: "breakdown by tag (team)",
               timeseries_hour: "timeseries event_count/hour", dimensions: "dimensions (floor: 6 rows)",
               overview: "overview (6 series + percentiles)", screen: "analytics screen (overview + breakdown)",
               latency: "percentiles p50/p95/p99"}[.];
  def sname: if . == "pg" then "PostgreSQL" else "SQLite" end;
  def byrep($e; $f): map(select(.engine == $e)) | map({key: (.rep | tostring), value: .[$f]}) | from_entries;
  def ratios($a; $b): [$a | keys[] | select($b[.] != null and $b[.] > 0) | $a[.] / $b[.]];
  . as $all
  | [ $all | group_by([.n, .store, .query])[] | . as $g
      | ($g | byrep("daemon"; "ms")) as $d | ($g | byrep("sql"; "ms")) as $s | ($g | byrep("clickhouse"; "ms")) as $c
      | ($g | byrep("daemon"; "cpu_ms")) as $dc | ($g | byrep("sql"; "cpu_ms")) as $sc
      | ($g | byrep("clickhouse"; "cpu_ms")) as $cc
      | { n: $g[0].n, store: $g[0].store, query: $g[0].query,
          daemon: ([$d[]] | median), dmin: ([$d[]] | min), dmax: ([$d[]] | max),
          sql: ([$s[]] | median), ch: ([$c[]] | median),
          daemon_cpu: ([$dc[]] | median), sql_cpu: ([$sc[]] | median), ch_cpu: ([$cc[]] | median),
          r_sql: (ratios($d; $s) | median), r_sql_min: (ratios($d; $s) | min), r_sql_max: (ratios($d; $s) | max),
          r_sql_cpu: (ratios($dc; $sc) | median),
          r_ch: (ratios($d; $c) | median), r_ch_cpu: (ratios($dc; $cc) | median) }
      # The floor row: its hand SQL is below the sqlite3 timer resolution (1 ms); CPU only.
      | if .query == "dimensions" then .r_sql = null | .r_sql_min = null | .r_sql_max = null else . end ] as $rows
  | ($rows | map(select(.query | test("^(breakdown_model|breakdown_tag|timeseries_hour|dimensions|overview|screen|latency)$")))
      | sort_by(({screen: 0, overview: 1, breakdown_model: 2, breakdown_tag: 3, timeseries_hour: 4, latency: 5, dimensions: 6}[.query]), .n, .store)) as $main
  | "### Analytics queries (median of the repeats; ratios per repeat, then the median [min..max])",
    "",
    "Wall: what the caller waits (curl `time_total` for the daemon and ClickHouse, the engine'"'"'s own timer for the hand SQL). CPU: what the servers spent on it (daemon + PostgreSQL backends, the sqlite3 CLI, the psql backend, the ClickHouse server).",
    "",
    "| query | store | events | daemon ms | hand SQL ms | daemon ÷ SQL | daemon ÷ SQL, CPU | ClickHouse ms | daemon ÷ ClickHouse | daemon ÷ ClickHouse, CPU |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ($main[] | "| \(.query | qname) | \(.store | sname) | \(.n) | \(.daemon | r3) [\(.dmin | r3)..\(.dmax | r3)] | \(.sql | r3) | **\(.r_sql | r3)** [\(.r_sql_min | r3)..\(.r_sql_max | r3)] | \(.r_sql_cpu | r3) | \(.ch | r3) | \(.r_ch | r3) | \(.r_ch_cpu | r3) |"),
    "",
    ( [$main[] | select(.n == 1000000 and (.query | startswith("breakdown")))] as $t
      | if ($t | length) == 0 then "Target (breakdown over 1M events < 1.5 × hand-written SQL): not measured (no 1M run)."
        else "Target (breakdown over 1M events < 1.5 × hand-written SQL, wall): "
          + (if all($t[]; .r_sql != null and .r_sql < 1.5) then "**met**" else "**not met**" end)
          + " (" + ([$t[] | "\(.query | qname), \(.store | sname): \(.r_sql | r3)"] | join("; ")) + ")."
        end ),
    ( [$main[] | select(.query == "screen")] as $t
      | if ($t | length) == 0 then empty else
        "Target (analytics screen ≤ 150 ms at 30M on both stores, wall): "
          + ([$t[] | "\(.store | sname), \(.n): \(.daemon | r3) ms (CPU \(.daemon_cpu | r3))"] | join("; ")) + "."
        end ),
    ( [$rows[] | select(.query | endswith("+cover"))] as $w
      | if ($w | length) == 0 then empty else
        "",
        "### What-if (not in the daemon): covering index events(org_id, ts, model, status, input_tokens, output_tokens, cost_usd, duration_ms); time series as one index range count per bucket",
        "",
        "| change | store | events | before: wall ms (CPU ms) | after: wall ms (CPU ms) | speed-up, wall (CPU) |",
        "|---|---|---|---|---|---|",
        ( $w | sort_by(.query, .n, .store)[] | . as $a
          | if $a.query == "breakdown_model+cover" then
              ($main[] | select(.n == $a.n and .store == $a.store and .query == "breakdown_model")) as $b
              | "| breakdown by model, daemon, + covering index | \($a.store | sname) | \($a.n) | \($b.daemon | r3) (\($b.daemon_cpu | r3)) | \($a.daemon | r3) (\($a.daemon_cpu | r3)) | \(if $a.daemon > 0 then ($b.daemon / $a.daemon | r3) else "–" end) (\(if $a.daemon_cpu > 0 then ($b.daemon_cpu / $a.daemon_cpu | r3) else "–" end)) |",
                "| breakdown by model, hand SQL, + covering index | \($a.store | sname) | \($a.n) | \($b.sql | r3) (\($b.sql_cpu | r3)) | \($a.sql | r3) (\($a.sql_cpu | r3)) | \(if $a.sql > 0 then ($b.sql / $a.sql | r3) else "–" end) (\(if $a.sql_cpu > 0 then ($b.sql_cpu / $a.sql_cpu | r3) else "–" end)) |"
            else
              ($main[] | select(.n == $a.n and .store == $a.store and .query == "timeseries_hour")) as $b
              | "| timeseries/hour, hand SQL, one range count per bucket | \($a.store | sname) | \($a.n) | \($b.sql | r3) (\($b.sql_cpu | r3)) | \($a.sql | r3) (\($a.sql_cpu | r3)) | \(if $a.sql > 0 then ($b.sql / $a.sql | r3) else "–" end) (\(if $a.sql_cpu > 0 then ($b.sql_cpu / $a.sql_cpu | r3) else "–" end)) |"
            end )
        end )
' "$OUT/timings.jsonl" | tee "$OUT/summary.md"
{
  echo
  echo "Seeding:"
  jq -r 'if .backfill_s then "- \(.store), \(.n) events: rollups backfilled by the daemon in \(.backfill_s) s"
    elif .peak_rss_kb then "- \(.store), \(.n) events: the daemon'"'"'s peak RSS over the run \((.peak_rss_kb / 1024) | floor) MiB"
    elif .whatif then "- \(.store), \(.n) events: what-if \(.whatif) built in \(.build_s) s"
    else "- \(.store), \(.n) events: \(.load_s) s to load\(if .index_analyze_s then ", \(.index_analyze_s) s to index and analyze" else "" end); \((.db_bytes / 1048576) | floor) MiB" end' "$OUT/seed.jsonl"
  echo
  sed 's/^/    /' "$OUT/machine.txt"
} | tee -a "$OUT/summary.md"
echo
echo "results: $OUT (timings.jsonl, plans-*.txt, answers-*, seed.jsonl, machine.txt)"
df -h "$(dirname "$work")" | tail -1 >&2
log "done"
