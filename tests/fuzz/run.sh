#!/usr/bin/env bash
# Runs every fuzz target for a bounded time (CI: make fuzz-ci), or the ones named.
#   tests/fuzz/run.sh <build-dir> [seconds per target] [parallel jobs] [target...]
# Each target starts from its seed corpus (tests/fuzz/corpus/<target>, read only) in a
# scratch directory; what it finds new stays there. A crash, leak, timeout or sanitizer
# report fails the run and prints the reproducer (kept under <build-dir>/fuzz-findings).
# Prints a table: executions, coverage (edges) and features reached per target.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: run.sh <build-dir> [seconds] [jobs] [target...]}" && pwd)
seconds=${2:-60}
[ "$seconds" -ge 1 ] || { echo "seconds must be at least 1 (0 would run forever)" >&2; exit 2; }
jobs=${3:-2}
shift $(( $# < 3 ? $# : 3 ))
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(request_parser request_target json_view otlp_protobuf otlp_json gzip sse url audit_canonical tool_arg latency_sketch)
fi

options_for() {
  case "$1" in
    request_parser) echo "-dict=$here/http.dict -max_len=12288" ;;  # longer than every parser limit
    json_view|audit_canonical|sse) echo "-dict=$here/json.dict -max_len=8192" ;;
    otlp_json) echo "-dict=$here/otlp_json.dict -max_len=8192" ;;
    otlp_protobuf|gzip) echo "-max_len=8192" ;;
    *) echo "-max_len=4096" ;;
  esac
}

findings="$build/fuzz-findings"
logs="$build/fuzz-logs"
mkdir -p "$findings" "$logs"
run_one() {
  local t=$1 work
  work=$(mktemp -d)
  # shellcheck disable=SC2046
  if "$build/${t}_fuzzer" $(options_for "$t") -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$findings/${t}-" "$work" "$here/corpus/$t" >"$logs/$t.log" 2>&1; then
    echo ok >"$logs/$t.status"
  else
    echo failed >"$logs/$t.status"
  fi
  rm -rf "$work"
}
export -f run_one options_for
export build here seconds findings logs

printf '%s\n' "${targets[@]}" | xargs -P "$jobs" -I{} bash -c 'run_one {}'

status=0
printf '%-16s %12s %8s %8s  %s\n' target executions cov ft result
for t in "${targets[@]}"; do
  log="$logs/$t.log"
  execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  last=$(grep -E '^#[0-9]+' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' <<<"$last" | grep -o '[0-9]*' || echo "?")
  ft=$(grep -o 'ft: [0-9]*' <<<"$last" | grep -o '[0-9]*' || echo "?")
  result=$(cat "$logs/$t.status")
  printf '%-16s %12s %8s %8s  %s\n' "$t" "$execs" "$cov" "$ft" "$result"
  if [ "$result" != ok ]; then
    status=1
    echo "---- $t: last lines of $log"
    tail -40 "$log"
    ls "$findings" | grep "^$t-" | sed "s|^|reproducer: $findings/|" || true
  fi
done
exit $status
