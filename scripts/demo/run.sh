#!/usr/bin/env bash
# make demo: the daemon in its own data dir (./data-demo, never ./data), a demo
# organization filled with generated agent traffic, and live traffic until Ctrl-C.
#   bash scripts/demo/run.sh path/to/agent-eventsd
# Knobs: DEMO_PORT (8080), DEMO_DATA_DIR (./data-demo), DEMO_ARGS (more demo.mjs options).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:?usage: run.sh path/to/agent-eventsd}
port=${DEMO_PORT:-8080}
data=${DEMO_DATA_DIR:-./data-demo}
command -v node >/dev/null || { echo "make demo needs node (bash scripts/deps.sh installs it)" >&2; exit 1; }
mkdir -p "$data"
daemon_pid=""
demo_pid=""
stop() {
  trap - INT TERM EXIT
  [ -n "$demo_pid" ] && kill -TERM "$demo_pid" 2>/dev/null && wait "$demo_pid" 2>/dev/null
  [ -n "$daemon_pid" ] && kill -TERM "$daemon_pid" 2>/dev/null && wait "$daemon_pid" 2>/dev/null
  echo "demo stopped; its data stays in $data (delete it to start afresh)"
}
trap stop INT TERM EXIT
# The demo's webhook receiver is on loopback, and alerts are evaluated every 5 s so the
# error alert fires while you watch.
"$bin" --host 127.0.0.1 --port "$port" --data-dir "$data" \
  --set outbound.allow_private_addresses=true --set alerts.evaluate_interval_seconds=5 \
  --set log.file="$data/daemon.log" >"$data/daemon.out" 2>&1 &
daemon_pid=$!
for _ in $(seq 1 200); do
  curl -fs -o /dev/null "http://127.0.0.1:$port/readyz" && break
  kill -0 "$daemon_pid" 2>/dev/null || { cat "$data/daemon.out"; echo "agent-eventsd did not start" >&2; exit 1; }
  sleep 0.1
done
echo "agent-eventsd is up on http://127.0.0.1:$port (log: $data/daemon.log)"
# shellcheck disable=SC2086
node "$root/scripts/demo/demo.mjs" --base "http://127.0.0.1:$port" ${DEMO_ARGS:-} &
demo_pid=$!
wait "$demo_pid"
