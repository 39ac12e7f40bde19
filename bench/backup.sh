#!/usr/bin/env bash
# agent-eventsd backup of a large SQLite store while publishers write (reported, not a
# pass/fail test): the store is seeded straight into SQLite with bench/analytics_seed.cpp
# (as console_1m.sh does) until it holds SIZE_MB (1024), then the daemon runs with a paced
# publisher at RATE events/s (1000, bench/paced_publisher.mjs), and `agent-eventsd backup`
# runs in the middle of it. Reports the backup's time and size, the publisher's achieved
# rate and latencies (the backup must not stall it), and checks the copy (restore into a
# new data dir, event count at least what was acknowledged before the backup began).
#
#   bash bench/backup.sh [path/to/agent-eventsd]     (default build/daemon/agent-eventsd)
# Knobs: SIZE_MB (1024), RATE (1000), PORT (29190), KEEP (0), OUT (bench/results/backup-<UTC time>).
# Needs sqlite3, jq, curl, g++, node.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=$(realpath "${1:-$ROOT/build/daemon/agent-eventsd}")
SIZE_MB=${SIZE_MB:-1024}
RATE=${RATE:-1000}
PORT=${PORT:-29190}
KEEP=${KEEP:-0}
OUT=${OUT:-$ROOT/bench/results/backup-$(date -u +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"
for tool in sqlite3 jq curl g++ node; do command -v "$tool" >/dev/null || { echo "needs $tool" >&2; exit 1; }; done
work=$(mktemp -d /var/tmp/aev-backup-bench.XXXXXX)
AEV_PID=""
PUB_PID=""
cleanup() {
  [ -n "$PUB_PID" ] && kill "$PUB_PID" 2>/dev/null
  [ -n "$AEV_PID" ] && stop_aev
  [ "$KEEP" = 1 ] && echo "kept $work" >&2 || rm -rf "$work"
}
trap cleanup EXIT
started=$(date +%s)
log() { printf '[%4ds] %s\n' $(( $(date +%s) - started )) "$*" >&2; }

# start_aev, api and setup_aev are bench/lib.sh's (the daemon's data dir is $work/<name>).
SERVER_CPUS=${SERVER_CPUS:-0-1}
aev_flags=(--host 127.0.0.1 --set log.level=warn --set plans.free.events_quota_monthly=2000000000)
# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"
# start_aev runs in $(...), so the daemon is not this shell's child: poll until it is gone.
stop_aev() {
  kill "$AEV_PID"
  while kill -0 "$AEV_PID" 2>/dev/null; do sleep 0.05; done
  AEV_PID=""
}

log "building the seeder; the daemon is $BIN"
g++ -O2 -std=c++20 -o "$work/seed" "$ROOT/bench/analytics_seed.cpp"
AEV_PID=$(start_aev data "$PORT")
setup_aev data "$PORT"
ORG=$(api "$PORT" GET /users/me/organizations "${TOKEN[data]}" | jq -r '.[0].organizationId')
APP_ID=${APP[data]}
CHANNEL_ID=${CHANNEL[data]}
KEY_ID=${KEY[data]}
stop_aev
DB="$work/data/agent-events.db"
NOW=$(( $(date +%s) * 1000000 ))
seed() {  # db n
  { echo "PRAGMA synchronous=OFF; PRAGMA cache_size=-1000000; BEGIN;"
    "$work/seed" sqlite "$2" "$NOW" "$ORG" "$APP_ID" "$CHANNEL_ID"
    echo "COMMIT;"
  } | nice -n 10 sqlite3 -bail "$1" >/dev/null
}
# Bytes per event with its indexes and attributes, from 20,000 rows in a scratch copy; then
# the whole store in one pass (the seeder's ids are 1..N).
cp "$DB" "$work/probe.db"
empty=$(stat -c %s "$work/probe.db")
seed "$work/probe.db" 20000
per_row=$(( ($(stat -c %s "$work/probe.db") - empty) / 20000 ))
rm -f "$work/probe.db"
N=${N:-$(( SIZE_MB * 1048576 / per_row ))}
log "seeding $N events (~$per_row bytes each) into $DB"
seed "$DB" "$N"
sqlite3 "$DB" "UPDATE channels SET last_seq = (SELECT MAX(seq) FROM events WHERE channel_id = $CHANNEL_ID) WHERE id = $CHANNEL_ID"
size_mb=$(( $(stat -c %s "$DB") / 1048576 ))
events=$(sqlite3 "$DB" "SELECT COUNT(*) FROM events")
log "store: $size_mb MiB, $events events"

AEV_PID=$(start_aev data "$PORT")
node "$ROOT/bench/paced_publisher.mjs" "http://127.0.0.1:$PORT" "$KEY_ID" "$CHANNEL_ID" "$RATE" >"$OUT/publisher.json" &
PUB_PID=$!
sleep 10
before=$(sqlite3 "$DB" "SELECT COUNT(*) FROM events")
log "backup under $RATE events/s"
t0=$(date +%s.%N)
"$BIN" --data-dir "$work/data" backup "$work/backup" | tee "$OUT/backup.txt"
echo "$(date +%s.%N) - $t0" | bc -l | xargs printf '%.2f s wall\n' >"$OUT/backup.time"
sleep 10
kill -TERM "$PUB_PID"; wait "$PUB_PID" || true; PUB_PID=""
stop_aev
log "restore into a new data dir"
"$BIN" --data-dir "$work/restored" restore "$work/backup" | tee "$OUT/restore.txt"
restored=$(sqlite3 "$work/restored/agent-events.db" "SELECT COUNT(*) FROM events")
[ "$restored" -ge "$before" ] || { echo "the copy holds $restored events, fewer than the $before stored before the backup" >&2; exit 1; }
jq -n --arg time "$(cat "$OUT/backup.time")" --argjson size "$size_mb" --argjson events "$events" \
  --argjson restored "$restored" --slurpfile pub "$OUT/publisher.json" --arg rate "$RATE" \
  '{storeMiB: $size, seededEvents: $events, rateTarget: ($rate|tonumber), backup: $time,
    restoredEvents: $restored, publisher: $pub[0]}' | tee "$OUT/summary.json"
