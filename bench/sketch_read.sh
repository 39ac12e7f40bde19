#!/usr/bin/env bash
# Reading the rollups' latency sketches (bench/sketch_read.cpp), the work tree's
# daemon/src/analytics/sketch.cpp against BASE's (default HEAD), alternating on one core,
# ROUNDS times (default 4). Not a pass/fail test; not in CI. Needs g++ only.
#   bash bench/sketch_read.sh [BASE]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BASE=${1:-HEAD}
ROUNDS=${ROUNDS:-4}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$ROOT" show "$BASE:daemon/src/analytics/sketch.cpp" >"$tmp/base_sketch.cpp"
for side in base work; do
  src=$([ "$side" = base ] && echo "$tmp/base_sketch.cpp" || echo "$ROOT/daemon/src/analytics/sketch.cpp")
  g++ -O2 -std=c++20 -I"$ROOT/daemon/src" "$ROOT/bench/sketch_read.cpp" "$src" -o "$tmp/$side"
done
for _ in $(seq "$ROUNDS"); do
  echo "base ($BASE): $(taskset -c 1 "$tmp/base")"
  echo "work tree:    $(taskset -c 1 "$tmp/work")"
done
