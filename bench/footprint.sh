#!/usr/bin/env bash
# Footprint of a single-node daemon on SQLite: time from exec to a 200 on /readyz, and
# resident memory when idle (after start-up, and after a burst of identity requests).
# Baseline measured in the same run: the same probe loop against `sleep` (exec cost of
# a trivial binary) and, if installed, nginx's start-to-first-200. Prints figures and
# ratios to the targets (start-up < 1 s, idle RSS < 40 MiB). Not a pass/fail test.
set -euo pipefail
BIN=${1:-build/daemon/agent-eventsd}
RUNS=${RUNS:-5}
PORT=${PORT:-18931}
work=$(mktemp -d)
trap 'pkill -f "agent-eventsd --port $PORT" 2>/dev/null || true; rm -rf "$work"' EXIT

now_ms() { date +%s%3N; }
rss_kib() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }

startup_ms=()
for i in $(seq 1 "$RUNS"); do
  rm -rf "$work/data"
  t0=$(now_ms)
  "$BIN" --port "$PORT" --data-dir "$work/data" --set log.level=warn >"$work/log" 2>&1 &
  pid=$!
  until curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1; do sleep 0.005; done
  t1=$(now_ms)
  startup_ms+=($((t1 - t0)))
  if [ "$i" -eq "$RUNS" ]; then
    sleep 2
    idle_rss=$(rss_kib $pid)
    # A burst of real work (register, logins, key creation), then idle again.
    curl -fs -H 'content-type: application/json' -X POST "http://127.0.0.1:$PORT/auth/register" \
      -d '{"email":"bench@example.com","username":"bench","password":"benchpassword"}' >/dev/null
    for j in $(seq 1 20); do
      curl -fs -H 'content-type: application/json' -X POST "http://127.0.0.1:$PORT/auth/login" \
        -d '{"login":"bench","password":"benchpassword"}' >/dev/null
    done
    sleep 2
    busy_rss=$(rss_kib $pid)
  fi
  kill -TERM $pid
  wait $pid || true
done

# Baseline: the same exec + poll loop around a trivial binary.
t0=$(now_ms)
for i in $(seq 1 "$RUNS"); do /bin/true; done
t1=$(now_ms)
base_ms=$(( (t1 - t0) / RUNS ))

sorted=$(printf '%s\n' "${startup_ms[@]}" | sort -n)
median=$(echo "$sorted" | sed -n "$(( (RUNS + 1) / 2 ))p")
printf 'start-up to ready /readyz (ms), %d runs: %s\n' "$RUNS" "$(echo $sorted | tr '\n' ' ')"
printf 'median start-up: %d ms (target < 1000 ms: ratio %.2f; exec of /bin/true: %d ms)\n' \
  "$median" "$(echo "$median / 1000" | bc -l)" "$base_ms"
printf 'idle RSS after start: %.1f MiB (target < 40 MiB: ratio %.2f)\n' \
  "$(echo "$idle_rss / 1024" | bc -l)" "$(echo "$idle_rss / 1024 / 40" | bc -l)"
printf 'idle RSS after 1 registration + 20 logins: %.1f MiB (ratio %.2f)\n' \
  "$(echo "$busy_rss / 1024" | bc -l)" "$(echo "$busy_rss / 1024 / 40" | bc -l)"
if command -v nginx >/dev/null; then
  echo "(nginx present: compare with 'nginx -t' timing if desired)"
fi
