# Summary of bench/run.sh results (jq -s over http.jsonl and fanout.jsonl): markdown tables
# of medians [min..max] over repeats; each ratio is computed within a repeat, then the median.

def median: map(select(. != null)) | sort | if length == 0 then null
  elif length % 2 == 1 then .[(length - 1) / 2] else (.[length / 2 - 1] + .[length / 2]) / 2 end;
def rnd(d): (. * pow(10; d) | round) / pow(10; d);
def sig: if . == null then "-" elif . >= 100 then (round | tostring) elif . >= 10 then (rnd(1) | tostring)
  elif . >= 1 then (rnd(2) | tostring) else (rnd(3) | tostring) end;
def mm: (map(select(. != null))) as $v | if ($v | length) == 0 then "-"
  elif ($v | length) == 1 then ($v[0] | sig)
  else "\($v | median | sig) [\($v | min | sig)..\($v | max | sig)]" end;
def verdict(ok): if ok == null then "n/a" elif ok then "**met**" else "**not met**" end;

. as $all
| ($all | map(select(.kind == "http"))) as $http
| ($all | map(select(.kind == "fanout"))) as $fan
| def peer(t; c; rep): $http | map(select(.target == t and .c == c and .rep == rep)) | .[0];
  # The daemon's "matched" phase ran at the rate of Nchan's closed loop: compare with that.
  def peermode(mode): if mode == "matched" then "closed" else mode end;
  def fpeer(mode; n; rep):
    $fan | map(select(.server == "nchan" and .mode == peermode(mode) and .n == n and .rep == rep)) | .[0];
  def ratio(a; b): if a == null or b == null or b == 0 then null else a / b end;
  # Ratios per repeat for one HTTP target and connection count.
  def hrat(t; c; field; base):
    [$http[] | select(.target == t and .c == c) | . as $r | ratio($r.events_per_sec; peer(base; c; $r.rep).rps)];
  def frat(mode; n; field):
    [$fan[] | select(.server == "aev" and .mode == mode and .n == n) | . as $r
     | ratio($r[field]; fpeer(mode; n; $r.rep)[field])];
  ($http | map(.target) | unique) as $targets
| ($http | map(.c) | unique) as $conns
| [
  "### Publish throughput (wrk -t1, \($http | map(.rep) | unique | length) repeats; median [min..max])",
  "",
  "events / commit and commit ms: the daemon's own counters over the run (events stored, commits, their wall time with the fsync); a connection with one request in flight waits for a whole commit per answer.",
  "",
  "| target | conns | events/s | requests/s | p50 ms | p99 ms | server CPU % | events / commit | commit ms | ÷ Nchan publish | ÷ nginx 200 | non-2xx |",
  "|---|---|---|---|---|---|---|---|---|---|---|---|",
  ( ["nginx-200", "nchan-pub", "aev-healthz", "aev-sqlite-event", "aev-sqlite-batch", "aev-pg-event", "aev-pg-batch"][] as $t
    | select($targets | index($t)) | $conns[] as $c
    | ($http | map(select(.target == $t and .c == $c))) as $rows
    | select($rows | length > 0)
    | "| \($t) | \($c) | \($rows | map(.events_per_sec) | mm) | \($rows | map(.rps) | mm) | \($rows | map(.p50_ms) | mm) | \($rows | map(.p99_ms) | mm) | \($rows | map(.server_cpu_pct) | mm) | \($rows | map(.events_per_commit) | mm) | \($rows | map(.commit_ms) | mm) | \(hrat($t; $c; "events_per_sec"; "nchan-pub") | mm) | \(hrat($t; $c; "events_per_sec"; "nginx-200") | mm) | \($rows | map(.non2xx + .socket_errors) | add) |"
  ),
  "",
  "### SSE fan-out (one publisher connection; median [min..max])",
  "",
  "closed: the next publish as soon as the previous is acknowledged (the daemon acknowledges after its commit, Nchan after writing to every subscriber, so their offered loads differ); matched: the daemon's publisher capped at the publish rate of Nchan's closed loop in the same repeat, ratios against that closed loop; paced: both at the same fixed rate. µs CPU / delivery: the server's CPU time (every thread) per delivered frame. first / round p50: per publish, the time to its first delivery and from its first to its last delivery (the fan-out round).",
  "",
  "| server | mode | N | connected | publishes/s | deliveries/s | p50 ms | p99 ms | first / round p50 ms | delivered % | server CPU % | µs CPU / delivery | client CPU % | deliveries ÷ Nchan | p50 ÷ Nchan | p99 ÷ Nchan |",
  "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  ( ["closed", "matched", "paced"][] as $mode | ($fan | map(select(.mode == $mode) | .n) | unique)[] as $n
    | ["nchan", "aev"][] as $s
    | ($fan | map(select(.server == $s and .mode == $mode and .n == $n))) as $rows
    | select($rows | length > 0)
    | "| \(if $s == "aev" then "agent-eventsd (SQLite)" else "Nchan" end) | \($mode) | \($n) | \($rows | map(.connected) | min) | \($rows | map(.publishes_per_sec) | mm) | \($rows | map(.deliveries_per_sec) | mm) | \($rows | map(.p50_ms) | mm) | \($rows | map(.p99_ms) | mm) | \($rows | map(.first_delivery_p50_ms) | median | sig) / \($rows | map(.round_span_p50_ms) | median | sig) | \($rows | map(if .expected > 0 then 100 * .delivered / .expected else 0 end) | mm) | \($rows | map(.server_cpu_pct) | mm) | \($rows | map(.server_cpu_us_per_delivery) | mm) | \($rows | map(.client_cpu_pct) | mm) | \(if $s == "aev" then (frat($mode; $n; "deliveries_per_sec") | mm) else "1" end) | \(if $s == "aev" then (frat($mode; $n; "p50_ms") | mm) else "1" end) | \(if $s == "aev" then (frat($mode; $n; "p99_ms") | mm) else "1" end) |"
  ),
  "",
  "### Memory per idle subscriber (fresh servers, before any publish: RSS growth / N after 2 s idle)",
  "",
  "| server | N | connected | RSS before MiB | RSS with N idle MiB | bytes per subscriber | ÷ Nchan |",
  "|---|---|---|---|---|---|---|",
  ( ($fan | map(select(.mode == "memory"))) as $mem
    | ($mem | map(select(.server == "nchan")) | .[0]) as $nc
    | $mem[]
    | "| \(if .server == "aev" then "agent-eventsd" else "Nchan (nginx worker)" end) | \(.n) | \(.connected) | \(.rss_before_kib / 1024 | sig) | \(.rss_idle_kib / 1024 | sig) | \(.rss_per_sub_bytes | sig) | \(ratio(.rss_per_sub_bytes; $nc.rss_per_sub_bytes) | sig) |"
  ),
  "",
  "### Targets (issue): same-run ratios, medians",
  "",
  ( $conns[] as $c | select($http | map(select(.target == "aev-healthz" and .c == $c)) | length > 0)
    | "- the daemon's HTTP ceiling (its epoll front end, GET /healthz), c=\($c): \(hrat("aev-healthz"; $c; "rps"; "nginx-200") | median | sig) × nginx's fixed 200, \(hrat("aev-healthz"; $c; "rps"; "nchan-pub") | median | sig) × Nchan publish"
  ),
  ( ["sqlite", "pg"][] as $st | [16, 64][] as $c
    | select($http | map(select(.target == "aev-\($st)-event" and .c == $c)) | length > 0)
    | (hrat("aev-\($st)-event"; $c; "events_per_sec"; "nchan-pub") | median) as $r
    | (hrat("aev-\($st)-event"; $c; "events_per_sec"; "nginx-200") | median) as $rc
    | (hrat("aev-\($st)-event"; $c; "events_per_sec"; "aev-healthz") | median) as $rh
    | "- POST /event on \($st), c=\($c): \($r | sig) × Nchan publish (target ≥ 0.3: \(verdict(if $r == null then null else $r >= 0.3 end))); \($rc | sig) × nginx's fixed 200; \($rh | sig) × the daemon's own GET /healthz"
  ),
  ( ["sqlite", "pg"][] as $st | $conns[] as $c
    | select($http | map(select(.target == "aev-\($st)-batch" and .c == $c)) | length > 0)
    | (hrat("aev-\($st)-batch"; $c; "events_per_sec"; "nchan-pub") | median) as $r
    | "- POST /events/batch (\(100) a request) on \($st), c=\($c): \($r | sig) × Nchan publish, in events/s (target ≥ 1.0: \(verdict(if $r == null then null else $r >= 1.0 end)))"
  ),
  ( ["closed", "matched", "paced"][] as $mode
    | select($fan | map(select(.server == "aev" and .mode == $mode and .n == 1000)) | length > 0)
    | (frat($mode; 1000; "p99_ms") | median) as $r
    | "- fan-out p99 at N=1,000 (\($mode)\(if $mode == "matched" then ": the daemon at Nchan's closed-loop publish rate" elif $mode == "closed" then ": unequal offered loads" else "" end)): \($r | sig) × Nchan's (target ≤ 1.0: \(verdict(if $r == null then null else $r <= 1.0 end)))"
  ),
  ( ($fan | map(select(.server == "aev" and .mode == "memory")) | .[0]) as $m
    | select($m != null)
    | "- memory per idle subscriber at N=\($m.n): \($m.rss_per_sub_bytes / 1024 | sig) KiB (target ≤ 16 KiB: \(verdict($m.rss_per_sub_bytes <= 16384)))"
  ),
  ( ($fan | map(select(.server == "aev") | .n) | max) as $nmax
    | select($nmax != null)
    | ($fan | map(select(.server == "aev" and .n == $nmax))) as $rows
    | "- \($nmax) subscribers held: connected \($rows | map(.connected) | min) of \($nmax) in each of \($rows | length) runs; delivered \($rows | map(.delivered) | add) of \($rows | map(.expected) | add) expected frames; \($rows | map(.closed_during_run) | add) streams closed during runs (\(verdict(($rows | map(.connected) | min) == $nmax and ($rows | map(.delivered) | add) == ($rows | map(.expected) | add))))"
  )
] | .[]
