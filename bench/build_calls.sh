#!/usr/bin/env bash
# Times every compiler and linker call of a build, one line each, for bench/build_replay.py:
# on a shared machine the wall time of a whole build says nothing, the CPU time of each
# call does (bench/NOTEBOOK.md, 2026-11-28 12:35).
#
#   BUILD_CALLS_LOG=/tmp/calls.log CXX="$PWD/bench/build_calls.sh c++" CC="$PWD/bench/build_calls.sh cc" \
#     cmake -S . -B build-fresh ...          # a fresh build tree: CMake keeps its first compiler
#   BUILD_CALLS_LOG=/tmp/calls.log CCACHE_DISABLE=1 cmake --build build-fresh -j2 --target aev_runtime
#
# Each line: start and end (epoch seconds), user and sys CPU seconds, wall seconds, output.
set -u
compiler=$1
shift
out=-
prev=
for arg in "$@"; do
  [ "$prev" = -o ] && out=$arg
  prev=$arg
done
tmp=$(mktemp)
start=$(date +%s.%N)
/usr/bin/time -f '%U %S %e' -o "$tmp" "$compiler" "$@"
rc=$?
end=$(date +%s.%N)
if [ -n "${BUILD_CALLS_LOG:-}" ] && [ $rc -eq 0 ]; then
  echo "$start $end $(tail -1 "$tmp") $out" >>"$BUILD_CALLS_LOG"
fi
rm -f "$tmp"
exit $rc
