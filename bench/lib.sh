# shellcheck shell=bash disable=SC2034  # sourced: the variables it sets are the caller's
# Helpers shared by bench/run.sh and bench/ab.sh (sourced, not run). start_aev reads
# BIN, SERVER_CPUS, work, OUT and aev_flags from the script that sources this.

cpu_ticks() {  # utime+stime of the given PIDs (all threads), in clock ticks
  local t=0 pid f
  for pid in "$@"; do
    [ -r "/proc/$pid/stat" ] || continue
    f=$(sed 's/^.*) //' "/proc/$pid/stat")
    set -- $f
    t=$((t + ${12} + ${13}))
  done
  echo $t
}
TCK=$(getconf CLK_TCK)

start_aev() {  # name port [extra args]; prints the PID
  local name=$1 port=$2
  shift 2
  taskset -c "$SERVER_CPUS" "$BIN" --port "$port" --data-dir "$work/$name" "${aev_flags[@]}" "$@" \
    >"$OUT/$name.log" 2>&1 &
  local pid=$!
  for _ in $(seq 1 300); do
    curl -fs -o /dev/null "http://127.0.0.1:$port/readyz" && { echo $pid; return; }
    kill -0 $pid 2>/dev/null || break
    sleep 0.05
  done
  kill -TERM $pid 2>/dev/null
  echo "agent-eventsd ($name) did not become ready; the end of $OUT/$name.log:" >&2
  tail -n 5 "$OUT/$name.log" >&2
  exit 1
}

api() {  # port method path [token] [json]
  local args=(-fsS -X "$2" "http://127.0.0.1:$1$3" -H 'content-type: application/json')
  [ -n "${4:-}" ] && args+=(-H "authorization: Bearer $4")
  [ -n "${5:-}" ] && args+=(-d "$5")
  curl "${args[@]}"
}
declare -A TOKEN KEY CHANNEL APP
setup_aev() {  # name port: a user, an app, a channel, an API key
  local name=$1 port=$2
  api "$port" POST /auth/register "" '{"email":"bench@example.com","username":"bench","password":"benchpassword"}' >/dev/null
  login_aev "$name" "$port"
  APP[$name]=$(api "$port" POST /apps "${TOKEN[$name]}" '{"name":"bench"}' | jq -r .id)
  CHANNEL[$name]=$(new_channel "$name" "$port" wrk)
  KEY[$name]=$(api "$port" POST /api-keys "${TOKEN[$name]}" \
    '{"name":"bench","scopes":["publish","subscribe","read"]}' | jq -r .key)
}
login_aev() {
  TOKEN[$1]=$(api "$2" POST /auth/login "" '{"login":"bench","password":"benchpassword"}' | jq -r .access_token)
}
new_channel() {  # name port channel-name -> id
  api "$2" POST "/apps/${APP[$1]}/channels" "${TOKEN[$1]}" "{\"name\":\"$3\"}" | jq -r .id
}

# The event body (spec 2.7 shape, ~330 bytes); BENCH_TS becomes the send time in fan-out.
event_json() {  # channel-id bench_ts
  printf '{"identifier":"bench-event","channel_id":%s,"agentId":"agent-bench-0001","eventType":"agent.message","traceId":"4bf92f3577b34da6a3ce929d0e0e4736","spanId":"00f067aa0ba902b7","payload":{"role":"assistant","content":"The quick brown fox jumps over the lazy dog while the benchmark publishes its events now.","tokens":42,"bench_ts":%s}}' "$1" "$2"
}

telemetry_event_json() {  # channel-id k: an LLM call of trace k % 10, with telemetry and tags
  local k=$2 models=(gpt-4o gpt-4o-mini claude-3-5-sonnet) teams=(search payments growth)
  printf '{"identifier":"llm-call","channel_id":%s,"agentId":"agent-%s","eventType":"agent.message","traceId":"4bf92f3577b34da6a3ce929d0e0e47%02d","spanId":"00f067aa0ba9%04x","metadata":{"model":"%s","provider":"openai","usage":{"input_tokens":%s,"output_tokens":42},"environment":"%s","user":"user-%s","session":"session-%s","tags":{"team":"%s","tier":"pro"}},"payload":{"role":"assistant","content":"The quick brown fox jumps over the lazy dog while the benchmark publishes its events now."}}' \
    "$1" $((k % 4)) $((k % 10)) "$k" "${models[$((k % 3))]}" $((100 + k)) "$([ $((k % 5)) = 0 ] && echo staging || echo production)" \
    $((k % 7)) $((k % 10 / 2)) "${teams[$((k % 3))]}"
}

nginx_conf() {  # dir nofile ceiling-port nchan-port: writes dir/nginx.conf (one worker, access log off)
  local dir=$1 nofile=$2 ceil=$3 nchan=$4
  mkdir -p "$dir/tmp"
  cat >"$dir/nginx.conf" <<EOF
load_module /usr/lib/nginx/modules/ngx_nchan_module.so;
worker_processes 1;
worker_rlimit_nofile $nofile;
daemon off;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections $((nofile - 100)); use epoll; }
http {
  access_log off;
  keepalive_requests 10000000;
  keepalive_timeout 65;
  client_body_buffer_size 128k;
  client_max_body_size 1m;
  client_body_temp_path $dir/tmp/body;
  proxy_temp_path $dir/tmp/proxy;
  fastcgi_temp_path $dir/tmp/fastcgi;
  uwsgi_temp_path $dir/tmp/uwsgi;
  scgi_temp_path $dir/tmp/scgi;
  default_type application/json;
  server {
    listen 127.0.0.1:$ceil;
    location / { return 200 '{"ok":true}'; }
  }
  server {
    listen 127.0.0.1:$nchan;
    location ~ ^/pub/(\w+)$ {
      nchan_publisher;
      nchan_channel_id \$1;
      nchan_message_buffer_length 1000;
    }
    location ~ ^/sub/(\w+)$ {
      nchan_subscriber eventsource;
      nchan_channel_id \$1;
      nchan_subscriber_first_message newest;
    }
  }
}
EOF
}
