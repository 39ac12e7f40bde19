#!/usr/bin/env bash
# The console's two heavy screens over an organization with 1,000,000 events (reported, not
# a pass/fail test): the traces list's first page (< 300 ms) and the analytics screen's
# default window, all of its queries (< 500 ms). The events are bench/analytics_seed.cpp's
# (the rows of bench/analytics.sh: 7 days, traces of 8 events, tags, environments),
# loaded the same way (straight into SQLite, secondary indexes rebuilt after, ANALYZE);
# the trace rollups the writer would have kept are filled from them with one INSERT ...
# SELECT (the v13 sums included). Then, against the running daemon, over HTTP with curl:
#   traces: GET /traces?since=<24 h ago>&limit=50, as the console's list asks for its first
#     page (start, newest first), and the same page sorted by tokens and by cost, filtered
#     by environment, by tag, by model;
#   analytics: the screen's requests for its default window (24 hours, hourly):
#     /analytics/overview and /analytics/breakdown?dimension=model&limit=20 at once, timed
#     as a whole; the eight requests it made before the overview existed (six time series
#     and the breakdown at once, then the latency), the same way; and each alone.
# Each figure: WARMUP (6) warm-up rounds, then the median [min..max] of REPEAT (5). The SQL plans of
# the traces queries go to OUT/plans.txt (EXPLAIN QUERY PLAN).
#
#   bash bench/console_1m.sh [path/to/agent-eventsd]     (default build/daemon/agent-eventsd)
# Knobs: STORE (sqlite, or postgresql: a throwaway PostgreSQL server in the work dir, run as
# `postgres`, loaded with COPY, the rollups by the same INSERT ... SELECT in its dialect),
# N (1000000), REPEAT (5), WARMUP (6), PORT (29180; PostgreSQL on PORT+1), KEEP (0: 1 keeps the work
# dir), REUSE (a work dir kept by KEEP=1: time again without seeding), OUT
# (bench/results/console-1m-<UTC time>). Needs sqlite3, jq, curl, g++, and PostgreSQL for
# STORE=postgresql (apt-get them). PG_SESSION: more settings for the daemon's PostgreSQL
# sessions, URL-encoded (`-cjit%3Doff`: a what-if). PG_SETTINGS, when set (even empty): the
# daemon's database.postgresql_settings instead of its default (empty: the server's settings).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=$(realpath "${1:-$ROOT/build/daemon/agent-eventsd}")
N=${N:-1000000}
REPEAT=${REPEAT:-5}
# Warm-up rounds per figure: six, so that PostgreSQL has made its choice between a custom and
# a generic plan for the daemon's prepared statements (after the fifth execution) before
# anything is timed.
WARMUP=${WARMUP:-6}
PORT=${PORT:-29180}
KEEP=${KEEP:-0}
OUT=${OUT:-$ROOT/bench/results/console-1m-$(date -u +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"
for tool in sqlite3 jq curl g++; do command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install $tool)" >&2; exit 1; }; done
STORE=${STORE:-sqlite}
case "$STORE" in
  sqlite) ;;
  postgresql)
    PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
    [ -n "$PGBIN" ] || { echo "needs PostgreSQL (apt-get install postgresql)" >&2; exit 1; } ;;
  *) echo "STORE is sqlite or postgresql" >&2; exit 2 ;;
esac
P_PG=$((PORT + 1))

REUSE=${REUSE:-}
if [ -n "$REUSE" ]; then work=$REUSE; KEEP=1; else work=$(mktemp -d /var/tmp/aev-console-1m.XXXXXX); fi
AEV_PID=""
PG_STARTED=0
cleanup() {
  [ -n "$AEV_PID" ] && kill "$AEV_PID" 2>/dev/null && wait "$AEV_PID" 2>/dev/null
  [ "$PG_STARTED" = 1 ] && runuser -u postgres -- "$PGBIN/pg_ctl" -D "$work/pg/data" -m fast -w stop >/dev/null 2>&1
  [ "$KEEP" = 1 ] && echo "kept $work" >&2 || rm -rf "$work"
}
trap cleanup EXIT
started=$(date +%s)
log() { printf '[%4ds] %s\n' $(( $(date +%s) - started )) "$*" >&2; }

# PostgreSQL: a read benchmark, so durability is off for the bulk load, as in analytics.sh;
# parallel workers at their default (the daemon's queries may use both cores).
start_pg() {
  if [ ! -d "$work/pg/data" ]; then
    chmod 755 "$work"  # mktemp's 0700 would keep the postgres user out
    mkdir -p "$work/pg/data" "$work/pg/sock"
    chown -R postgres:postgres "$work/pg"
    runuser -u postgres -- "$PGBIN/initdb" -D "$work/pg/data" -A trust -U postgres >"$OUT/pg-initdb.log" 2>&1
    NEW_PG=1
  fi
  runuser -u postgres -- "$PGBIN/pg_ctl" -D "$work/pg/data" -l "$work/pg/log" -w \
    -o "-c listen_addresses=127.0.0.1 -c port=$P_PG -c unix_socket_directories=$work/pg/sock -c shared_buffers=1GB -c max_wal_size=8GB -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c wal_level=minimal -c max_wal_senders=0 -c maintenance_work_mem=1GB -c autovacuum=off" \
    start >/dev/null
  PG_STARTED=1
  [ "${NEW_PG:-0}" = 1 ] && runuser -u postgres -- "$PGBIN/createdb" -h 127.0.0.1 -p "$P_PG" -U postgres aev_console
  return 0
}
pg_args=(-X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$P_PG" -U postgres -d aev_console)
pgsql() { psql "${pg_args[@]}" "$@"; }
sql() {  # one query's first column, from whichever store the daemon runs on
  if [ "$STORE" = postgresql ]; then pgsql -At -c "$1"; else sqlite3 "$DB" "$1"; fi
}
store_flags=()
if [ "$STORE" = postgresql ]; then
  start_pg
  # The keys PostgreSQL deployments must set (docs/operations.md), generated once per work dir.
  [ -f "$work/keys.env" ] || {
    echo "JWT=$(head -c 48 /dev/urandom | base64 -w0)"
    echo "WEBHOOK=$(head -c 32 /dev/urandom | base64 -w0)"
  } >"$work/keys.env"
  [ -f "$work/audit-signing.key" ] || head -c 32 /dev/urandom | base64 >"$work/audit-signing.key"
  # shellcheck disable=SC1091
  source "$work/keys.env"
  store_flags=(--database-url "postgresql://postgres@127.0.0.1:$P_PG/aev_console?options=-cclient_min_messages%3Dwarning${PG_SESSION:+%20$PG_SESSION}"
    --set auth.jwt_secret="$JWT" --set webhooks.secret_key="$WEBHOOK" --set audit.signing_key_file="$work/audit-signing.key")
  [ -n "${PG_SETTINGS+set}" ] && store_flags+=(--set database.postgresql_settings="$PG_SETTINGS")
fi

start_aev() {
  "$BIN" --port "$PORT" --host 127.0.0.1 --data-dir "$work/data" --set log.level=warn \
    --set plans.free.events_quota_monthly=2000000000 "${store_flags[@]}" >>"$OUT/daemon.log" 2>&1 &
  AEV_PID=$!
  for _ in $(seq 1 300); do
    curl -fs -o /dev/null "http://127.0.0.1:$PORT/readyz" && return 0
    sleep 0.05
  done
  echo "agent-eventsd did not become ready; see $OUT/daemon.log" >&2
  exit 1
}
stop_aev() { kill "$AEV_PID"; wait "$AEV_PID" 2>/dev/null || true; AEV_PID=""; }
api() {  # method path token [json]
  local args=(-fsS -X "$1" "http://127.0.0.1:$PORT$2" -H 'content-type: application/json')
  [ -n "$3" ] && args+=(-H "authorization: Bearer $3")
  [ -n "${4:-}" ] && args+=(-d "$4")
  curl "${args[@]}"
}

if [ -n "$REUSE" ]; then
  log "reusing $work (seeded before, $STORE); the daemon is $BIN"
  [ "$STORE" = sqlite ] && DB=$(ls "$work"/data/*.db | head -1)
  NOW=$(sql "SELECT MAX(ts) FROM events")
  start_aev
  TOKEN=$(api POST /auth/login "" '{"login":"bench","password":"benchpassword"}' | jq -r .access_token)
  ORG=$(api GET /users/me/organizations "$TOKEN" | jq -r '.[0].organizationId')
  KEY=$(api POST /api-keys "$TOKEN" '{"name":"console-bench-again","scopes":["read"]}' | jq -r .key)
  stop_aev
else
  log "building the seeder; the daemon is $BIN"
  g++ -O2 -std=c++20 -o "$work/seed" "$ROOT/bench/analytics_seed.cpp"
  start_aev
  api POST /auth/register "" '{"email":"bench@example.com","username":"bench","password":"benchpassword"}' >/dev/null
  TOKEN=$(api POST /auth/login "" '{"login":"bench","password":"benchpassword"}' | jq -r .access_token)
  ORG=$(api GET /users/me/organizations "$TOKEN" | jq -r '.[0].organizationId')
  APP=$(api POST /apps "$TOKEN" '{"name":"console-bench"}' | jq -r .id)
  CHANNEL=$(api POST "/apps/$APP/channels" "$TOKEN" '{"name":"telemetry"}' | jq -r .id)
  KEY=$(api POST /api-keys "$TOKEN" '{"name":"console-bench","scopes":["read"]}' | jq -r .key)
  stop_aev
  NOW=$(( $(date +%s) * 1000000 ))
fi
if [ -z "$REUSE" ] && [ "$STORE" = postgresql ]; then
  log "seeding $N events into PostgreSQL (COPY)"
  # Secondary indexes off during the load, rebuilt after, as analytics.sh does.
  pgsql -At -c "SELECT indexdef || ';' FROM pg_indexes WHERE schemaname = 'public'
      AND tablename IN ('events', 'event_attributes', 'traces')
      AND indexname NOT IN (SELECT conname FROM pg_constraint)" >"$work/indexes.sql"
  pgsql -At -c "SELECT 'DROP INDEX ' || indexname || ';' FROM pg_indexes WHERE schemaname = 'public'
      AND tablename IN ('events', 'event_attributes', 'traces')
      AND indexname NOT IN (SELECT conname FROM pg_constraint)" | pgsql
  # session_replication_role=replica: no per-row foreign-key triggers during the COPY.
  "$work/seed" pg-events "$N" "$NOW" "$ORG" "$APP" "$CHANNEL" |
    nice -n 10 psql "${pg_args[@]}" -c "SET session_replication_role = replica" \
      -c "COPY events ($("$work/seed" columns)) FROM STDIN (FORMAT csv, NULL '\\N')"
  "$work/seed" pg-attrs "$N" "$NOW" "$ORG" "$APP" "$CHANNEL" |
    nice -n 10 psql "${pg_args[@]}" -c "SET session_replication_role = replica" \
      -c "COPY event_attributes (event_id, org_id, ts, key, value) FROM STDIN (FORMAT csv)"
  # The rollups the writer keeps (trace_repository.cpp), computed at once.
  pgsql -c "SELECT setval(pg_get_serial_sequence('events', 'id'), $N)" \
    -c "UPDATE channels SET last_seq = $N WHERE id = $CHANNEL" \
    -c "INSERT INTO traces (org_id, trace_id, app_id, channel_id, start_time, end_time, event_count, error_count,
          tool_call_count, handoff_count, agents, event_types, input_tokens, output_tokens, cost_usd)
        SELECT org_id, trace_id, MIN(app_id), MIN(channel_id), MIN(COALESCE(occurred_at, received_at)),
          MAX(COALESCE(occurred_at, received_at)), COUNT(*),
          COUNT(*) FILTER (WHERE event_type = 'agent.error' OR status = 'error'),
          COUNT(*) FILTER (WHERE event_type = 'agent.tool_call.start'),
          COUNT(*) FILTER (WHERE event_type = 'agent.handoff'),
          json_agg(DISTINCT agent_id)::text, json_agg(DISTINCT event_type)::text,
          COALESCE(SUM(input_tokens), 0), COALESCE(SUM(output_tokens), 0), COALESCE(SUM(cost_usd), 0)
        FROM events WHERE trace_id IS NOT NULL GROUP BY org_id, trace_id" >/dev/null
  log "rebuilding $(wc -l <"$work/indexes.sql") indexes, VACUUM ANALYZE"
  { echo "SET maintenance_work_mem = '1GB';"; cat "$work/indexes.sql"; echo "VACUUM ANALYZE events, event_attributes, traces;"; } |
    nice -n 10 psql "${pg_args[@]}"
fi
if [ -z "$REUSE" ] && [ "$STORE" = sqlite ]; then
  DB=$(ls "$work"/data/*.db | head -1)
  log "seeding $N events into $DB"
  sqlite3 "$DB" "PRAGMA journal_mode=DELETE" >/dev/null
  sqlite3 "$DB" "SELECT sql || ';' FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
                 AND tbl_name IN ('events', 'event_attributes', 'traces')" >"$work/indexes.sql"
  sqlite3 "$DB" "SELECT 'DROP INDEX ' || name || ';' FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
                 AND tbl_name IN ('events', 'event_attributes', 'traces')" | sqlite3 "$DB"
  { echo "PRAGMA synchronous=OFF; PRAGMA cache_size=-1000000; BEGIN;"
    "$work/seed" sqlite "$N" "$NOW" "$ORG" "$APP" "$CHANNEL"
    echo "UPDATE channels SET last_seq = $N WHERE id = $CHANNEL;"
    # The rollups the writer keeps (trace_repository.cpp), computed at once.
    echo "INSERT INTO traces (org_id, trace_id, app_id, channel_id, start_time, end_time, event_count, error_count,
            tool_call_count, handoff_count, agents, event_types, input_tokens, output_tokens, cost_usd)
          SELECT org_id, trace_id, MIN(app_id), MIN(channel_id), MIN(COALESCE(occurred_at, received_at)),
            MAX(COALESCE(occurred_at, received_at)), COUNT(*),
            SUM(event_type = 'agent.error' OR status = 'error'), SUM(event_type = 'agent.tool_call.start'),
            SUM(event_type = 'agent.handoff'), json_group_array(DISTINCT agent_id), json_group_array(DISTINCT event_type),
            COALESCE(SUM(input_tokens), 0), COALESCE(SUM(output_tokens), 0), COALESCE(SUM(cost_usd), 0)
          FROM events WHERE trace_id IS NOT NULL GROUP BY org_id, trace_id;"
    echo "COMMIT;"
  } | nice -n 10 sqlite3 -bail "$DB"
  log "rebuilding $(wc -l <"$work/indexes.sql") indexes, ANALYZE"
  { echo "PRAGMA cache_size=-1000000;"; cat "$work/indexes.sql"; echo "ANALYZE;"; } | nice -n 10 sqlite3 -bail "$DB"
  sqlite3 "$DB" "PRAGMA journal_mode=WAL" >/dev/null
fi
TRACES=$(sql "SELECT COUNT(*) FROM traces WHERE org_id = $ORG")
DAY_TRACES=$(sql "SELECT COUNT(*) FROM traces WHERE org_id = $ORG AND start_time >= $((NOW - 86400000000))")
if [ "$STORE" = postgresql ]; then BYTES=$(sql "SELECT pg_database_size(current_database())"); else BYTES=$(stat -c %s "$DB"); fi
log "$N events, $TRACES traces ($DAY_TRACES in the last 24 hours); $(( BYTES / 1048576 )) MiB"
start_aev

iso() { date -u -d "@$(( $1 / 1000000 ))" +%Y-%m-%dT%H:%M:%SZ; }
SINCE=$(iso $(( $(date +%s) * 1000000 - 86400000000 )))
UNTIL=$(iso $(( $(date +%s) * 1000000 )))
get_ms() {  # path -> ms (curl time_total); fails unless 200
  local r code t
  r=$(curl -s -o "$work/answer.json" -w '%{http_code} %{time_total}' -H "X-API-Key: $KEY" "http://127.0.0.1:$PORT$1")
  read -r code t <<<"$r"
  [ "$code" = 200 ] || { echo "$1 → $code: $(head -c 300 "$work/answer.json")" >&2; exit 1; }
  awk -v t="$t" 'BEGIN { printf "%.1f", t * 1000 }'
}
stats() {  # numbers... -> "median [min..max]"
  printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { printf "%.0f [%.0f..%.0f]", v[int((NR + 1) / 2)], v[1], v[NR] }'
}
declare -A TRACE_QUERIES=(
  ["first page (start, newest first)"]="/traces?since=$SINCE&limit=50"
  ["sorted by tokens"]="/traces?since=$SINCE&limit=50&sort=tokens"
  ["sorted by cost"]="/traces?since=$SINCE&limit=50&sort=cost"
  ["environment=staging"]="/traces?since=$SINCE&limit=50&environment=staging"
  ["tag team=search"]="/traces?since=$SINCE&limit=50&filterTagKey=team&filterTagValue=search"
  ["model=gpt-4o"]="/traces?since=$SINCE&limit=50&model=gpt-4o"
)
{
  echo "## Console over $N events ($STORE), $(date -u +%Y-%m-%dT%H:%MZ), $(git -C "$ROOT" rev-parse --short HEAD)"
  echo
  echo "$TRACES traces, $DAY_TRACES of them in the default 24-hour window; loadavg $(cut -d' ' -f1-3 /proc/loadavg)."
  [ "$STORE" = postgresql ] && echo "database.postgresql_settings: ${PG_SETTINGS-the default}${PG_SESSION:+; URL options $PG_SESSION}."
  echo
  echo "| traces list, 50 a page, last 24 h | ms, median [min..max] of $REPEAT | target |"
  echo "|---|---|---|"
} >"$OUT/summary.md"
for name in "first page (start, newest first)" "sorted by tokens" "sorted by cost" "environment=staging" "tag team=search" "model=gpt-4o"; do
  path=${TRACE_QUERIES[$name]}
  for _ in $(seq 1 "$WARMUP"); do get_ms "$path" >/dev/null; done
  times=()
  for _ in $(seq 1 "$REPEAT"); do times+=("$(get_ms "$path")"); done
  total=$(jq .meta.total "$work/answer.json")
  echo "| $name ($total traces) | $(stats "${times[@]}") | < 300 |" >>"$OUT/summary.md"
  log "traces $name: $(stats "${times[@]}") ms"
done

# The analytics screen: as daemon/console/js/views/analytics.js asks (its overview and its
# breakdown at once); then, for comparison, the eight requests it made before
# /analytics/overview (six time series and the breakdown at once, then the latency).
A_BASE="since=$SINCE&until=$UNTIL"
A_SCREEN=("/analytics/overview?$A_BASE&interval=hour" "/analytics/breakdown?$A_BASE&dimension=model&limit=20")
A_BEFORE=()
for m in event_count error_count tokens cost_usd latency_p50_ms latency_p95_ms; do
  A_BEFORE+=("/analytics/timeseries?$A_BASE&metric=$m&interval=hour")
done
A_BEFORE+=("/analytics/breakdown?$A_BASE&dimension=model&limit=20")
A_LATENCY="/analytics/latency?$A_BASE"
parallel_ms() {  # paths... (then, with AFTER set, that path): wall ms of the whole
  local t0 t1 p pids=()
  t0=$(date +%s%N)
  for p in "$@"; do
    curl -fs -o /dev/null -H "X-API-Key: $KEY" "http://127.0.0.1:$PORT$p" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
  [ -n "${AFTER:-}" ] && curl -fs -o /dev/null -H "X-API-Key: $KEY" "http://127.0.0.1:$PORT$AFTER"
  t1=$(date +%s%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1e6 }'
}
{
  echo
  echo "| analytics screen, default window (24 h, hourly) | ms, median [min..max] of $REPEAT | target |"
  echo "|---|---|---|"
} >>"$OUT/summary.md"
for what in screen before; do
  for _ in $(seq 1 "$WARMUP"); do
    if [ "$what" = screen ]; then parallel_ms "${A_SCREEN[@]}" >/dev/null; else AFTER=$A_LATENCY parallel_ms "${A_BEFORE[@]}" >/dev/null; fi
  done
  times=()
  for _ in $(seq 1 "$REPEAT"); do
    if [ "$what" = screen ]; then times+=("$(parallel_ms "${A_SCREEN[@]}")"); else times+=("$(AFTER=$A_LATENCY parallel_ms "${A_BEFORE[@]}")"); fi
  done
  if [ "$what" = screen ]; then
    echo "| all its queries as the screen sends them (overview + breakdown at once) | $(stats "${times[@]}") | < 500 |" >>"$OUT/summary.md"
  else
    echo "| the eight requests before /analytics/overview (6 timeseries + breakdown at once, then latency) | $(stats "${times[@]}") | |" >>"$OUT/summary.md"
  fi
  log "analytics $what: $(stats "${times[@]}") ms"
done
for p in "${A_SCREEN[@]}" "${A_BEFORE[@]}" "$A_LATENCY"; do
  for _ in $(seq 1 "$WARMUP"); do get_ms "$p" >/dev/null; done
  times=()
  for _ in $(seq 1 "$REPEAT"); do times+=("$(get_ms "$p")"); done
  name=$(sed -E 's/since=[^&]*&until=[^&]*&?//; s/\?$//' <<<"$p")
  echo "| alone: \`$name\` | $(stats "${times[@]}") | |" >>"$OUT/summary.md"
done

# Plans of the traces queries (trace_repository.cpp's SQL, literals in place of ?).
S=$(( $(date +%s) * 1000000 - 86400000000 ))
{
  for q in "SELECT trace_id FROM traces WHERE org_id = $ORG AND start_time >= $S ORDER BY start_time DESC, id DESC LIMIT 50 OFFSET 0" \
           "SELECT COUNT(*) AS n FROM traces WHERE org_id = $ORG AND start_time >= $S" \
           "SELECT trace_id FROM traces WHERE org_id = $ORG AND start_time >= $S ORDER BY input_tokens + output_tokens DESC, start_time DESC, id DESC LIMIT 50 OFFSET 0" \
           "SELECT COUNT(*) AS n FROM traces WHERE org_id = $ORG AND start_time >= $S AND EXISTS (SELECT 1 FROM events e WHERE e.org_id = traces.org_id AND e.trace_id = traces.trace_id AND e.environment IN ('staging'))" \
           "SELECT COUNT(*) AS n FROM traces WHERE org_id = $ORG AND start_time >= $S AND EXISTS (SELECT 1 FROM events e WHERE e.org_id = traces.org_id AND e.trace_id = traces.trace_id AND EXISTS (SELECT 1 FROM event_attributes a WHERE a.event_id = e.id AND a.key = 'team' AND a.value = 'search'))"; do
    echo "-- $q"
    if [ "$STORE" = postgresql ]; then pgsql -c "EXPLAIN (ANALYZE, BUFFERS) $q"; else sqlite3 "$DB" "EXPLAIN QUERY PLAN $q"; fi
    echo
  done
} >"$OUT/plans.txt"
stop_aev
cat "$OUT/summary.md"
echo "results: $OUT (summary.md, plans.txt, daemon.log)"
