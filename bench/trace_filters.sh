#!/usr/bin/env bash
# Trace-filter benchmark (issue 30, item 3): the traces list filtered by environment, by tag
# and by model, and the sessions and end-users lists filtered by environment, served by two
# builds side by side over the same 1,000,000 events, on SQLite and on PostgreSQL. Before
# v23 a filter probed the events of every candidate trace; from v23 it reads the trace
# facets (store/trace_facets.h). The events are seeded straight into the store
# (bench/analytics_seed.cpp: traces of 8 events, 85 % production / 15 % staging, tags team,
# tier, region), the trace rollups built from them in SQL, sessions of 5 traces; the store
# is then copied, the OLD build serves one copy and the NEW build the other (migrating it
# and backfilling its facets in the background first: the time is reported). Both answer
# every query first and the answers must be identical (else the run stops); then WARMUP
# rounds and REPEAT measured rounds, each query asked of OLD then NEW in the same seconds.
# Figures: the servers' CPU per request (daemon + every PostgreSQL process, from
# /proc/*/schedstat: what holds on a loaded machine) and curl's wall time; medians, and
# the per-round NEW ÷ OLD ratio's median. Not a pass/fail test; not in CI.
#
# Usage (as root: PostgreSQL runs as `postgres` on a temporary cluster):
#   bash bench/trace_filters.sh OLD_BINARY NEW_BINARY
# Knobs: N (1000000), STORES ("sqlite pg"), REPEAT (7), WARMUP (3), SERVER_CPUS (0),
#   CLIENT_CPUS (1), PORT_BASE (29500), SEED_NICE (10), OUT (bench/results/trace-filters-<UTC>).
#   Plugins are looked up in BIN/../lib/agent-events/plugins.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[ $# -eq 2 ] || { sed -n '2,21p' "$0" >&2; exit 2; }
OLD=$(readlink -f "$1")
NEW=$(readlink -f "$2")
for b in "$OLD" "$NEW"; do [ -x "$b" ] || { echo "not an executable: $b" >&2; exit 2; }; done
N=${N:-1000000}
STORES=${STORES:-"sqlite pg"}
REPEAT=${REPEAT:-7}
WARMUP=${WARMUP:-3}
SERVER_CPUS=${SERVER_CPUS:-0}
CLIENT_CPUS=${CLIENT_CPUS:-1}
PORT_BASE=${PORT_BASE:-29500}
SEED_NICE=${SEED_NICE:-10}
OUT=${OUT:-$ROOT/bench/results/trace-filters-$(date -u +%Y%m%d-%H%M%S)}
P_OLD=$((PORT_BASE + 1))
P_NEW=$((PORT_BASE + 2))
P_PG=$((PORT_BASE + 3))
for tool in sqlite3 jq curl g++ python3; do command -v $tool >/dev/null || { echo "$tool is missing" >&2; exit 2; }; done

started_at=$(date +%s)
log() { printf '[%4ds] %s\n' $(($(date +%s) - started_at)) "$*" >&2; }
work=$(mktemp -d /var/tmp/aev-trace-filters.XXXXXX)
chmod 755 "$work"
mkdir -p "$OUT"
: >"$OUT/timings.jsonl"
PIDS=()
PG_STARTED=0
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
stop_pid() {
  [ -n "$1" ] || return 0
  kill -TERM "$1" 2>/dev/null || return 0
  for _ in $(seq 1 100); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL "$1" 2>/dev/null || true
}
cleanup() {
  set +e
  for p in "${PIDS[@]}"; do stop_pid "$p"; done
  [ "$PG_STARTED" = 1 ] && runuser -u postgres -- "$PGBIN/pg_ctl" -D "$work/pg/data" -m fast -w stop >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

SEED=$work/analytics_seed
# Two JSON answers equal, numbers to 1e-9 relative.
cat >"$work/same.py" <<'EOF'
import json, math, sys
def same(a, b, path="$"):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        if not math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12):
            print(f"{path}: {a} != {b}"); return False
        return True
    if type(a) != type(b):
        print(f"{path}: {a!r} != {b!r}"); return False
    if isinstance(a, dict):
        if a.keys() != b.keys():
            print(f"{path}: keys {sorted(a)} != {sorted(b)}"); return False
        return all(same(a[k], b[k], f"{path}.{k}") for k in a if k != "$schema")  # names the port
    if isinstance(a, list):
        if len(a) != len(b):
            print(f"{path}: {len(a)} != {len(b)} items"); return False
        return all(same(x, y, f"{path}[{i}]") for i, (x, y) in enumerate(zip(a, b)))
    if a != b:
        print(f"{path}: {a!r} != {b!r}"); return False
    return True
sys.exit(0 if same(json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))) else 1)
EOF
g++ -O2 -std=c++20 -o "$SEED" "$ROOT/bench/analytics_seed.cpp"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ); nproc $(nproc); loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "old: $OLD ($(stat -c %y "$OLD" | cut -d. -f1)); new: $NEW ($(stat -c %y "$NEW" | cut -d. -f1))"
  echo "N=$N STORES='$STORES' REPEAT=$REPEAT WARMUP=$WARMUP; servers on CPU $SERVER_CPUS, curl on CPU $CLIENT_CPUS"
} | tee "$OUT/machine.txt" >&2

if [[ " $STORES " == *" pg "* ]]; then
  mkdir -p "$work/pg/data" "$work/pg/sock"
  chown -R postgres:postgres "$work/pg"
  runuser -u postgres -- "$PGBIN/initdb" -D "$work/pg/data" -A trust -U postgres >"$OUT/pg-initdb.log" 2>&1
  taskset -c "$SERVER_CPUS" runuser -u postgres -- "$PGBIN/pg_ctl" -D "$work/pg/data" -l "$work/pg/log" -w \
    -o "-c listen_addresses=127.0.0.1 -c port=$P_PG -c unix_socket_directories=$work/pg/sock -c shared_buffers=512MB -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_parallel_workers_per_gather=0 -c maintenance_work_mem=512MB -c autovacuum=off" \
    start >/dev/null
  PG_STARTED=1
fi
pgsql() { local db=$1; shift; psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$P_PG" -U postgres -d "$db" "$@"; }
PG_JWT=$(head -c 48 /dev/urandom | base64 -w0)
PG_SEAL=$(head -c 32 /dev/urandom | base64 -w0)
head -c 32 /dev/urandom | base64 >"$work/audit-signing.key"

start_aev() {  # bin port data-dir [extra]: prints the pid
  local bin=$1 port=$2 dir=$3
  shift 3
  taskset -c "$SERVER_CPUS" "$bin" --port "$port" --host 127.0.0.1 --data-dir "$dir" --set log.level=info \
    --set "plugins.dir=$(dirname "$bin")/../lib/agent-events/plugins" --set plans.free.events_quota_monthly=2000000000 \
    --set plans.free.retention_days=100000 "$@" >>"$OUT/daemon-$port.log" 2>&1 &
  local pid=$!
  for _ in $(seq 1 600); do
    curl -fs -o /dev/null "http://127.0.0.1:$port/readyz" && { echo "$pid"; return 0; }
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "agent-eventsd ($bin) did not become ready; see $OUT/daemon-$port.log" >&2
  exit 1
}
api() {  # port method path token tenant [json]
  local args=(-fsS -X "$2" "http://127.0.0.1:$1$3" -H 'content-type: application/json')
  [ -n "$4" ] && args+=(-H "authorization: Bearer $4")
  [ -n "$5" ] && args+=(-H "x-tenant-id: $5")
  [ -n "${6:-}" ] && args+=(-d "$6")
  curl "${args[@]}"
}
setup_aev() {  # port: sets ORG APP CHANNEL KEY
  api "$1" POST /auth/register "" "" '{"email":"bench@example.com","username":"bench","password":"benchpassword"}' >/dev/null
  local token
  token=$(api "$1" POST /auth/login "" "" '{"login":"bench","password":"benchpassword"}' | jq -r .access_token)
  ORG=$(api "$1" GET /users/me/organizations "$token" "" | jq -r '.[0].organizationId')
  APP=$(api "$1" POST /apps "$token" "$ORG" '{"name":"trace-filters"}' | jq -r .id)
  CHANNEL=$(api "$1" POST "/apps/$APP/channels" "$token" "$ORG" '{"name":"telemetry"}' | jq -r .id)
  KEY=$(api "$1" POST /api-keys "$token" "$ORG" '{"name":"trace-filters","scopes":["read"]}' | jq -r .key)
  [[ "$ORG" =~ ^[0-9]+$ && "$KEY" == aes_* ]] || { echo "setup failed" >&2; exit 1; }
}

# The trace rollups of the seeded events, as the writer would keep them for what the lists
# read (counts, times, tokens, cost, end user); sessions of 5 consecutive traces.
TRACES_SQL="INSERT INTO traces (org_id, trace_id, app_id, channel_id, start_time, end_time, event_count, error_count,
  tool_call_count, handoff_count, agents, event_types, input_tokens, output_tokens, cost_usd, session_id, user_id, tags)
  SELECT org_id, trace_id, MIN(app_id), MIN(channel_id), MIN(ts), MAX(ts), COUNT(*),
  SUM(CASE WHEN status = 'error' THEN 1 ELSE 0 END), 0, 0, '[]', '[]', COALESCE(SUM(input_tokens), 0),
  COALESCE(SUM(output_tokens), 0), COALESCE(SUM(cost_usd), 0), 'session-' || CAST(MIN(id) / 40 AS TEXT), MIN(end_user), '{}'
  FROM events WHERE trace_id IS NOT NULL GROUP BY org_id, trace_id"

seed_sqlite() {  # db now
  local db=$1 now=$2
  sqlite3 "$db" "PRAGMA journal_mode=DELETE" >/dev/null
  sqlite3 "$db" "SELECT sql || ';' FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
                 AND tbl_name IN ('events', 'event_attributes')" >"$work/indexes.sql"
  sqlite3 "$db" "SELECT 'DROP INDEX ' || name || ';' FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
                 AND tbl_name IN ('events', 'event_attributes')" | sqlite3 "$db"
  { echo "PRAGMA synchronous=OFF; PRAGMA cache_size=-500000; BEGIN;"
    "$SEED" sqlite "$N" "$now" "$ORG" "$APP" "$CHANNEL"
    echo "UPDATE channels SET last_seq = $N WHERE id = $CHANNEL;"
    echo "COMMIT;"
  } | nice -n "$SEED_NICE" sqlite3 -bail "$db"
  { echo "PRAGMA cache_size=-500000;"; cat "$work/indexes.sql"; echo "$TRACES_SQL;"; echo "ANALYZE;"; } |
    nice -n "$SEED_NICE" sqlite3 -bail "$db"
  sqlite3 "$db" "PRAGMA journal_mode=WAL" >/dev/null
}
seed_pg() {  # db now
  local db=$1 now=$2
  pgsql "$db" -At -c "SELECT indexdef || ';' FROM pg_indexes WHERE schemaname = 'public'
      AND tablename IN ('events', 'event_attributes') AND indexname NOT IN (SELECT conname FROM pg_constraint)" \
    >"$work/indexes.sql"
  pgsql "$db" -At -c "SELECT 'DROP INDEX ' || indexname || ';' FROM pg_indexes WHERE schemaname = 'public'
      AND tablename IN ('events', 'event_attributes') AND indexname NOT IN (SELECT conname FROM pg_constraint)" |
    pgsql "$db"
  "$SEED" pg-events "$N" "$now" "$ORG" "$APP" "$CHANNEL" | nice -n "$SEED_NICE" psql -X -q -v ON_ERROR_STOP=1 \
    -h 127.0.0.1 -p "$P_PG" -U postgres -d "$db" -c "SET session_replication_role = replica" \
    -c "COPY events ($("$SEED" columns)) FROM STDIN (FORMAT csv, NULL '\\N')"
  "$SEED" pg-attrs "$N" "$now" "$ORG" "$APP" "$CHANNEL" | nice -n "$SEED_NICE" psql -X -q -v ON_ERROR_STOP=1 \
    -h 127.0.0.1 -p "$P_PG" -U postgres -d "$db" -c "SET session_replication_role = replica" \
    -c "COPY event_attributes (event_id, org_id, ts, key, value) FROM STDIN (FORMAT csv)"
  pgsql "$db" -c "SELECT setval(pg_get_serial_sequence('events', 'id'), $N)" \
    -c "UPDATE channels SET last_seq = $N WHERE id = $CHANNEL" >/dev/null
  { echo "SET maintenance_work_mem = '512MB';"; cat "$work/indexes.sql"; echo "$TRACES_SQL;"
    echo "VACUUM ANALYZE;"; } | nice -n "$SEED_NICE" psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$P_PG" -U postgres -d "$db"
}

# query name -> path. The sessions and end-users lists are compared on the filter both
# builds have (environment); their tag and model filters are new in v23 (NEW only).
declare -A PATHS=(
  [traces_environment]="/traces?environment=staging&limit=20"
  [traces_tag]="/traces?filterTagKey=region&filterTagValue=ap-south&limit=20"
  [traces_model]="/traces?model=claude-3-opus&limit=20"
  [sessions_environment]="/sessions?environment=staging&limit=20"
  [end_users_environment]="/end-users?environment=staging&limit=20"
  [sessions_tag_new]="/sessions?filterTagKey=region&filterTagValue=ap-south&limit=20"
  [end_users_model_new]="/end-users?model=claude-3-opus&limit=20"
)
COMPARED=(traces_environment traces_tag traces_model sessions_environment end_users_environment)
NEW_ONLY=(sessions_tag_new end_users_model_new)

tree_pids() { local c; echo "$1"; for c in $(pgrep -P "$1" 2>/dev/null); do tree_pids "$c"; done; }
sched_ns() { local pid; for pid in "$@"; do cat /proc/"$pid"/task/*/schedstat 2>/dev/null || true; done | awk '{ s += $1 } END { printf "%.0f", s }'; }
server_pids() {  # daemon pid
  echo "$1"
  [ "$CUR_STORE" = pg ] && tree_pids "$(head -1 "$work/pg/data/postmaster.pid")"
  return 0
}
time_query() {  # port pid name -> "wall_ms cpu_ms" (answer in $work/answer-<port>.json)
  local port=$1 pid=$2 name=$3 pids c0 c1 r code t
  pids=$(server_pids "$pid")
  c0=$(sched_ns $pids)
  r=$(taskset -c "$CLIENT_CPUS" curl -s -o "$work/answer-$port.json" -w '%{http_code} %{time_total}' \
    -H "X-API-Key: $KEY" "http://127.0.0.1:$port${PATHS[$name]}")
  c1=$(sched_ns $pids)
  read -r code t <<<"$r"
  [ "$code" = 200 ] || { echo "port $port answered $code to ${PATHS[$name]}: $(head -c 300 "$work/answer-$port.json")" >&2; exit 1; }
  awk -v t="$t" -v a="$c0" -v b="$c1" 'BEGIN { printf "%.3f %.3f", t * 1000, (b - a) / 1e6 }'
}
record() {  # store query build rep "wall cpu"
  local wall cpu
  read -r wall cpu <<<"$5"
  jq -nc --arg store "$1" --arg query "$2" --arg build "$3" --argjson rep "$4" --argjson ms "$wall" --argjson cpu "$cpu" \
    '{store:$store,query:$query,build:$build,rep:$rep,ms:$ms,cpu_ms:$cpu}' >>"$OUT/timings.jsonl"
}

for store in $STORES; do
  CUR_STORE=$store
  log "== $store, $N events"
  NOW=$(($(date +%s) * 1000000))
  extra_a=() extra_b=()
  if [ "$store" = pg ]; then
    for db in tfa tfb; do runuser -u postgres -- "$PGBIN/createdb" -h 127.0.0.1 -p "$P_PG" -U postgres "$db"; done
    common=(--set auth.jwt_secret="$PG_JWT" --set webhooks.secret_key="$PG_SEAL" --set audit.signing_key_file="$work/audit-signing.key")
    extra_a=(--database-url "postgresql://postgres@127.0.0.1:$P_PG/tfa?options=-cclient_min_messages%3Dwarning" "${common[@]}")
    extra_b=(--database-url "postgresql://postgres@127.0.0.1:$P_PG/tfb?options=-cclient_min_messages%3Dwarning" "${common[@]}")
  fi
  dir_a=$work/$store-old
  dir_b=$work/$store-new
  pid=$(start_aev "$OLD" "$P_OLD" "$dir_a" "${extra_a[@]}")
  setup_aev "$P_OLD"
  stop_pid "$pid"
  t0=$(date +%s)
  if [ "$store" = sqlite ]; then
    seed_sqlite "$(ls "$dir_a"/*.db | head -1)" "$NOW"
    cp -a "$dir_a" "$dir_b"
  else
    seed_pg tfa "$NOW"
    cp -a "$dir_a" "$dir_b"
    pgsql postgres -c "DROP DATABASE tfb" -c "CREATE DATABASE tfb TEMPLATE tfa"
    # The copy is a new database (oid): recorded as this store's own, not a hand restore.
    pgsql tfb -c "UPDATE store_identity SET database_oid = (SELECT oid FROM pg_database WHERE datname = 'tfb')"
  fi
  log "  seeded and copied in $(($(date +%s) - t0)) s"
  pid_old=$(start_aev "$OLD" "$P_OLD" "$dir_a" "${extra_a[@]}")
  PIDS+=("$pid_old")
  t0=$(date +%s)
  pid_new=$(start_aev "$NEW" "$P_NEW" "$dir_b" "${extra_b[@]}")
  PIDS+=("$pid_new")
  # The new build migrates (v23) and backfills the facets of the seeded events.
  while :; do
    m=$(curl -fs "http://127.0.0.1:$P_NEW/metrics" || true)
    if grep -q '^agent_events_trace_facet_backfill_remaining 0$' <<<"$m" &&
      ! grep -q '^agent_events_trace_facet_backfill_events_total 0$' <<<"$m"; then break; fi
    sleep 1
  done
  backfill_s=$(($(date +%s) - t0))
  log "  new build: migrated and facets backfilled in $backfill_s s"
  if [ "$store" = pg ]; then
    # What autovacuum (off on this bench's server, on by default) does after that many
    # inserts: the planner's statistics of the new table, and its visibility map.
    pgsql tfb -c "VACUUM ANALYZE trace_facets"
  fi
  jq -nc --arg store "$store" --argjson s "$backfill_s" '{store:$store,backfill_s:$s}' >>"$OUT/backfill.jsonl"
  traces=$(curl -fsS -H "X-API-Key: $KEY" "http://127.0.0.1:$P_NEW/traces?limit=1" | jq .meta.total)
  log "  $traces traces"
  for q in "${COMPARED[@]}"; do
    time_query "$P_OLD" "$pid_old" "$q" >/dev/null
    time_query "$P_NEW" "$pid_new" "$q" >/dev/null
    # Numbers equal to 1e-9 relative: a sum of doubles (a session's cost) depends on the
    # order the plan adds its rows in, and the two builds' plans differ.
    if ! python3 "$work/same.py" "$work/answer-$P_OLD.json" "$work/answer-$P_NEW.json" >&2; then
      echo "the builds answer $q differently" >&2
      exit 1
    fi
    log "  $q: same answer ($(jq -c .meta "$work/answer-$P_NEW.json"))"
  done
  for q in "${NEW_ONLY[@]}"; do
    time_query "$P_NEW" "$pid_new" "$q" >/dev/null
    log "  $q (new only): $(jq -c .meta "$work/answer-$P_NEW.json")"
  done
  for rep in $(seq $((1 - WARMUP)) "$REPEAT"); do
    for q in "${COMPARED[@]}" "${NEW_ONLY[@]}"; do
      a=""
      [[ " ${COMPARED[*]} " == *" $q "* ]] && a=$(time_query "$P_OLD" "$pid_old" "$q")
      b=$(time_query "$P_NEW" "$pid_new" "$q")
      if [ "$rep" -ge 1 ]; then
        [ -n "$a" ] && record "$store" "$q" old "$rep" "$a"
        record "$store" "$q" new "$rep" "$b"
        log "  rep $rep $q (wall/cpu ms): ${a:+old ${a/ //}, }new ${b/ //}"
      fi
    done
  done
  for p in "$pid_old" "$pid_new"; do stop_pid "$p"; done
  PIDS=()
  if [ "$store" = pg ]; then for db in tfa tfb; do pgsql postgres -c "DROP DATABASE $db"; done; fi
  rm -rf "$dir_a" "$dir_b"
done
echo "loadavg after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/machine.txt"

jq -s -r '
  def median: sort | if length == 0 then null elif length % 2 == 1 then .[length / 2 | floor]
    else (.[length / 2 - 1] + .[length / 2]) / 2 end;
  def r: if . == null then "–" elif . >= 100 then (. | round | tostring) elif . >= 10 then ((. * 10 | round) / 10 | tostring)
    else ((. * 100 | round) / 100 | tostring) end;
  def by($b; $f): map(select(.build == $b)) | map({key: (.rep | tostring), value: .[$f]}) | from_entries;
  "| query | store | old CPU ms | new CPU ms | new ÷ old, CPU | old wall ms | new wall ms |",
  "|---|---|---|---|---|---|---|",
  (group_by([.store, .query])[] | . as $g
    | ($g | by("old"; "cpu_ms")) as $oc | ($g | by("new"; "cpu_ms")) as $nc
    | ($g | by("old"; "ms")) as $ow | ($g | by("new"; "ms")) as $nw
    | [$oc | keys[] | select($nc[.] != null and $oc[.] > 0) | $nc[.] / $oc[.]] as $ratios
    | "| \($g[0].query) | \(if $g[0].store == "pg" then "PostgreSQL" else "SQLite" end) | \([$oc[]] | median | r) | \([$nc[]] | median | r) | \($ratios | median | r) | \([$ow[]] | median | r) | \([$nw[]] | median | r) |")
' "$OUT/timings.jsonl" | tee "$OUT/summary.md"
{ echo; echo "Facet backfill after the upgrade:"; jq -r '"- \(.store): \(.backfill_s) s"' "$OUT/backfill.jsonl"; echo; sed 's/^/    /' "$OUT/machine.txt"; } | tee -a "$OUT/summary.md"
log "done: $OUT"
