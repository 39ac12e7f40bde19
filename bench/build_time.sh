#!/usr/bin/env bash
# Build time from a fresh clone, without ccache: the figures of bench/README.md's
# "set-up" rows (issue 29).
#
#   bash bench/build_time.sh [REV] [-- extra cmake arguments]
#
# Clones this repository at REV (default HEAD: commit first) into a temporary directory,
# then, with CCACHE_DISABLE=1 and JOBS (2) compile jobs, measures one after the other:
#   run    what `make run` does: configure, build the daemon and its plugins (aev_runtime),
#          start the daemon and wait for its first answer on /healthz;
#   rest   the rest of what `make test` builds (the tests) in the same build tree, so that
#          run + rest is the full `make test` build from a fresh clone;
#   touch  the rebuild `make run` does after one .cpp is touched (TOUCH: a route file, in a
#          full unity batch of 11);
#   touch-all  the same touch, rebuilding everything `make test` builds.
# Each line gives wall seconds, CPU seconds (user + sys of every compiler and linker), the
# number of compiler calls, and `uptime`'s load before it: the machine is shared, so compare
# two builds measured back to back (e.g. REV=main, then this branch) and look at the CPU
# seconds too. Extra cmake arguments (after --) go to the configure step, e.g.
# `-- -DAEV_UNITY=OFF -DAEV_PCH=OFF`. STEPS="run touch" measures only those (in order;
# rest and touch-all need run first). KEEP=1 keeps the clone.
set -euo pipefail
cd "$(dirname "$0")/.."
REV=${1:-HEAD}
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
CMAKE_EXTRA=("$@")
JOBS=${JOBS:-2}
TOUCH=${TOUCH:-daemon/src/http/routes/app_routes.cpp}
STEPS=${STEPS:-run rest touch touch-all}
export CCACHE_DISABLE=1

work=$(mktemp -d /tmp/aev-build-time.XXXXXX)
cleanup() {
  stop_daemon
  [ "${KEEP:-0}" = 1 ] && echo "kept $work" >&2 || rm -rf "$work"
}
trap cleanup EXIT

git clone --quiet --no-hardlinks "$PWD" "$work/src"
git -C "$work/src" checkout --quiet "$REV"
commit=$(git -C "$work/src" rev-parse --short HEAD)
cd "$work/src"

load() { uptime | sed 's/.*load average: //'; }
# step name command...: wall and CPU seconds of the command and its children, compiler calls.
step() {
  local name=$1 before
  shift
  before=$(load)
  /usr/bin/time -f '%e %U %S' -o "$work/time" "$@" >"$work/$name.log" 2>&1 || {
    tail -30 "$work/$name.log" >&2
    exit 1
  }
  read -r wall user sys <"$work/time"
  printf '%-9s wall %7.1f s  cpu %7.1f s  compiles %4d  load before: %s\n' "$name" "$wall" \
    "$(echo "$user + $sys" | bc)" "$(grep -c 'Building C' "$work/$name.log" || true)" "$before"
}

stop_daemon() {  # the daemon first_answer started (not our child: wait for it by polling)
  local pid
  [ -f "$work/daemon.pid" ] || return 0
  pid=$(cat "$work/daemon.pid")
  rm -f "$work/daemon.pid"
  kill -TERM "$pid" 2>/dev/null || return 0
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
}

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
first_answer() {  # what `make run` does, on a free port, until the daemon answers
  set -e
  # shellcheck disable=SC2086  # the extra arguments are words
  cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo $CMAKE_EXTRA_ARGS >/dev/null
  cmake --build build -j"$JOBS" --target aev_runtime
  ./build/daemon/agent-eventsd --port "$port" --data-dir "$work/data" >"$work/daemon.log" 2>&1 &
  local pid=$!
  echo $pid >"$work/daemon.pid"
  until curl -fs -o /dev/null "http://127.0.0.1:$port/healthz"; do
    kill -0 $pid 2>/dev/null || { echo "agent-eventsd exited; see $work/daemon.log" >&2; exit 1; }
    sleep 0.2
  done
}

export -f first_answer
export work port JOBS
export CMAKE_EXTRA_ARGS="${CMAKE_EXTRA[*]:-}"

echo "build time of $commit (${CMAKE_EXTRA[*]:-default options}), -j$JOBS, no ccache, $(nproc) cores"
for s in $STEPS; do
  case $s in
    run) step run bash -c first_answer; stop_daemon ;;
    rest) step rest cmake --build build -j"$JOBS" ;;
    touch) touch "$TOUCH"; step touch cmake --build build -j"$JOBS" --target aev_runtime ;;
    touch-all) touch "$TOUCH"; step touch-all cmake --build build -j"$JOBS" ;;
    *) echo "unknown step $s" >&2; exit 2 ;;
  esac
done
