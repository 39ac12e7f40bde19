#!/usr/bin/env bash
# Builds the Debian package from an already-built tree, installs it and checks that the
# installed pieces work together: the package holds what it should (and no tests), the
# installed SDK builds the example plugins (a detector, an NDJSON export sink) out of tree,
# the installed daemon loads them beside the standard plugins and serves, the export sink
# is selected as a destination through the API with its own config and receives published
# events, a batch it cannot write is retried, given up (health, log) and redelivered, the
# example detector runs in a rule with detectorConfig and minScore, the systemd unit
# verifies. The package is purged at the end, also on failure, so the machine is left as
# it was found.
#
#   usage: packaging/check-deb.sh BUILD_DIR     (as root: it runs dpkg)
set -euo pipefail

readonly pkg=agent-events
readonly daemon=/usr/bin/agent-eventsd
readonly plugin_dir=/usr/lib/agent-events/plugins
readonly config=/etc/agent-events/agent-eventsd.properties
readonly unit=/usr/lib/systemd/system/agent-eventsd.service
readonly examples=/usr/share/doc/agent-events/sdk-examples

step() { printf '\n== %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }
skip() { printf 'SKIP: %s\n' "$*"; }
status_of() { dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true; }

here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 1 ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
[ -d "$1" ] || fail "no build directory $1"
build=$(cd "$1" && pwd)
[ "$(id -u)" -eq 0 ] || fail "run as root: the check installs and purges the package with dpkg"
[ -f "$build/CPackConfig.cmake" ] || fail "$build has no CPackConfig.cmake: configure it with this tree (make build)"
[ -x "$build/daemon/agent-eventsd" ] || fail "$build/daemon/agent-eventsd is missing: build first (make build)"
# The package ships the build type the benchmarks measure (packaging/cpack.cmake).
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt")
[ "$build_type" = RelWithDebInfo ] ||
  fail "$build is a ${build_type:-default} build; the package is built as RelWithDebInfo, what bench/README.md measured (make build)"

# The daemon reads AGENT_EVENTS_* from the environment; the checks below must see only
# the installed configuration and their own options.
while read -r v; do unset "$v"; done < <(compgen -e | grep '^AGENT_EVENTS_' || true)

if [ "$(status_of)" != "" ] && [ "$(status_of)" != "not-installed" ]; then
  echo "$pkg is already on this machine ($(status_of)), e.g. from an interrupted run: purging it first"
  dpkg --purge "$pkg" >/dev/null
fi
user_existed=no
getent passwd agent-events >/dev/null && user_existed=yes
work=$(mktemp -d /tmp/aev-check-deb.XXXXXX)
daemon_pid=""

cleanup() {
  local rc=$?
  if [ -n "$daemon_pid" ] && kill -0 "$daemon_pid" 2>/dev/null; then
    kill "$daemon_pid" 2>/dev/null || true
    wait "$daemon_pid" 2>/dev/null || true
  fi
  if [ "$(status_of)" != "not-installed" ] && [ "$(status_of)" != "" ]; then
    echo "cleanup: purging $pkg"
    dpkg --purge "$pkg" >/dev/null || echo "cleanup: dpkg --purge $pkg failed" >&2
  fi
  # postrm keeps the system user (Debian policy); when this check created it, it goes too.
  if [ "$user_existed" = no ] && getent passwd agent-events >/dev/null; then
    userdel agent-events 2>/dev/null || echo "cleanup: could not remove user agent-events" >&2
    getent group agent-events >/dev/null && { groupdel agent-events 2>/dev/null || true; }
  fi
  rm -rf "$work"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------------------------------
step "build the package (cpack -G DEB in $build)"
rm -f "$build"/package/"$pkg"_*.deb
(cd "$build" && cpack -G DEB) >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; fail "cpack -G DEB"; }
debs=("$build"/package/"$pkg"_*.deb)
[ -f "${debs[0]}" ] || { cat "$work/cpack.log"; fail "cpack produced no ${pkg}_*.deb in $build/package"; }
deb=${debs[0]}
echo "$deb ($(du -h "$deb" | cut -f1))"

# ---------------------------------------------------------------------------------------
step "package contents"
dpkg-deb --field "$deb" Package Version Architecture Depends Suggests
dpkg-deb -e "$deb" "$work/control"
dpkg-deb --contents "$deb" >"$work/contents"
# Regular files and symlinks, as ./path (dpkg-deb -c marks directories with a leading d).
awk '$1 !~ /^d/ { print $6 }' "$work/contents" | sort >"$work/files"
cat "$work/files"

# The standard plugins, as the build's CMake cache names them.
standard_plugins=$(sed -n 's/^AEV_STANDARD_PLUGINS:INTERNAL=//p' "$build/CMakeCache.txt" | tr ';' ' ')
[ -n "$standard_plugins" ] || fail "AEV_STANDARD_PLUGINS not found in $build/CMakeCache.txt"
required=(./usr/bin/agent-eventsd ".$config" ".$unit" ./usr/include/agentevents/plugin_abi.h
          ./usr/include/agentevents/plugin.hpp ".$examples/detector_example/CMakeLists.txt"
          ./usr/share/agent-events/prometheus/agent-events.rules.yml ./usr/share/agent-events/grafana/agent-events.json)
for p in $standard_plugins; do required+=(".$plugin_dir/$p.so"); done
for f in "${required[@]}"; do
  grep -qxF "$f" "$work/files" || fail "missing from the package: ${f#.}"
done
grep -qE '^\./usr/lib/(.+/)?cmake/AgentEventsSDK/AgentEventsSDKConfig\.cmake$' "$work/files" \
  || fail "missing from the package: the AgentEventsSDK CMake package config"
# Everything else must be one of these; in particular no test binary or test fixture.
allowed='^\./(usr/bin/agent-eventsd|usr/lib/agent-events/plugins/[A-Za-z0-9_]+\.so|etc/agent-events/agent-eventsd\.properties'
allowed+='|usr/lib/systemd/system/agent-eventsd\.service|usr/include/agentevents/.+'
allowed+='|usr/lib/(.+/)?cmake/AgentEventsSDK/[^/]+|usr/share/doc/agent-events/.+'
allowed+='|usr/share/agent-events/prometheus/agent-events\.rules\.yml|usr/share/agent-events/grafana/agent-events\.json)$'
unexpected=$(grep -vE "$allowed" "$work/files" || true)
[ -z "$unexpected" ] || fail "unexpected files in the package:"$'\n'"$unexpected"
extra_plugins=$(grep -E '^\./usr/lib/agent-events/plugins/' "$work/files" | sed 's|.*/||; s|\.so$||' \
  | grep -vxF -f <(tr ' ' '\n' <<<"$standard_plugins") || true)
[ -z "$extra_plugins" ] || fail "plugins in the package that are not standard ones (test fixtures?): $extra_plugins"
grep -qxF "$config" "$work/control/conffiles" || fail "$config is not a conffile"
for script in postinst prerm postrm; do [ -x "$work/control/$script" ] || fail "no executable $script"; done
depends=$(dpkg-deb --field "$deb" Depends)
for d in adduser libcurl4; do
  grep -qE "(^|, )$d( |,|$)" <<<"$depends" || fail "Depends lacks $d: $depends"
done
echo "contents ok: $(wc -l <"$work/files") files, no tests, $config is a conffile"

# ---------------------------------------------------------------------------------------
step "install ($deb)"
if ! dpkg -i "$deb"; then
  echo "dpkg -i could not configure $pkg (missing dependencies?): apt-get install -f"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -f -qq --no-install-recommends
fi
[ "$(status_of)" = installed ] || fail "$pkg is not installed after dpkg -i ($(status_of))"
"$daemon" --version
uid=$(id -u agent-events) || fail "postinst did not create the agent-events user"
[ "$uid" -lt 1000 ] || fail "agent-events is not a system user (uid $uid)"
[ "$(stat -c '%U:%G %a' /etc/agent-events)" = "root:agent-events 750" ] \
  || fail "/etc/agent-events is $(stat -c '%U:%G %a' /etc/agent-events), expected root:agent-events 750"
grep -qx 'data.dir = /var/lib/agent-events' "$config" || fail "$config does not set data.dir = /var/lib/agent-events"
echo "user agent-events (uid $uid), $config readable by root and the service only"

# ---------------------------------------------------------------------------------------
step "installed daemon finds the standard plugins by default ($plugin_dir)"
# From an empty directory, so the daemon takes $config (not a ./config of a checkout).
(cd "$work" && "$daemon" --check-plugins) | tee "$work/check-default.txt" \
  || fail "$daemon --check-plugins failed with the installed plugins"
for p in $standard_plugins; do
  grep -qE "^ok +$p .* $plugin_dir/$p\.so$" "$work/check-default.txt" || fail "$p not loaded from $plugin_dir"
done
# As the service user, as the unit runs it: the config must be readable by it and the
# loader's ownership rule must accept root-owned plugins for another user.
(cd / && runuser -u agent-events -- "$daemon" --config "$config" --check-plugins) >"$work/check-user.txt" 2>&1 \
  || { cat "$work/check-user.txt"; fail "--check-plugins as user agent-events failed"; }
echo "as user agent-events: $(grep -E "plugins? loaded" "$work/check-user.txt" | tail -n1)"

# ---------------------------------------------------------------------------------------
step "build sdk/examples/detector_example against the installed SDK only"
example_src="$examples/detector_example"
if [ ! -f "$example_src/CMakeLists.txt" ]; then
  # Minimal images often tell dpkg to skip /usr/share/doc (path-exclude); the checkout has it.
  example_src="$here/../sdk/examples/detector_example"
  echo "$examples is not on disk (dpkg path-exclude?): using the example from the source tree"
fi
cp -r "$example_src" "$work/example"
# /usr is the only place CMake may look for packages: no environment, no package registry,
# no /usr/local or other system prefixes.
env -u CMAKE_PREFIX_PATH -u AgentEventsSDK_DIR -u AgentEventsSDK_ROOT \
  cmake -S "$work/example" -B "$work/example-build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_PREFIX_PATH=/usr -DCMAKE_FIND_USE_CMAKE_SYSTEM_PATH=OFF \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF \
    >"$work/example-configure.log" 2>&1 || { cat "$work/example-configure.log"; fail "configuring the example"; }
sdk_dir=$(sed -n 's/^AgentEventsSDK_DIR:PATH=//p' "$work/example-build/CMakeCache.txt")
case "$sdk_dir" in
  /usr/lib/*cmake/AgentEventsSDK) echo "AgentEventsSDK_DIR=$sdk_dir" ;;
  *) fail "the example found AgentEventsSDK at '$sdk_dir', not in the installed package" ;;
esac
cmake --build "$work/example-build" -j"$(nproc)" >"$work/example-build.log" 2>&1 \
  || { cat "$work/example-build.log"; fail "building the example"; }
example_so="$work/example-build/detector_example.so"
[ -f "$example_so" ] || fail "the example build produced no detector_example.so"
if [ -x "$work/example-build/detector_example_test" ]; then
  "$work/example-build/detector_example_test" --gtest_brief=1 || fail "the example's unit test failed"
else
  skip "example unit test not built (GTest not installed)"
fi

# ---------------------------------------------------------------------------------------
step "build sdk/examples/export_sink_example against the installed SDK only"
sink_src="$examples/export_sink_example"
[ -f "$sink_src/CMakeLists.txt" ] || sink_src="$here/../sdk/examples/export_sink_example"
cp -r "$sink_src" "$work/sink"
env -u CMAKE_PREFIX_PATH -u AgentEventsSDK_DIR -u AgentEventsSDK_ROOT \
  cmake -S "$work/sink" -B "$work/sink-build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_PREFIX_PATH=/usr -DCMAKE_FIND_USE_CMAKE_SYSTEM_PATH=OFF \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF \
    >"$work/sink-configure.log" 2>&1 || { cat "$work/sink-configure.log"; fail "configuring the export sink example"; }
cmake --build "$work/sink-build" -j"$(nproc)" >"$work/sink-build.log" 2>&1 \
  || { cat "$work/sink-build.log"; fail "building the export sink example"; }
sink_so="$work/sink-build/export_sink_example.so"
[ -f "$sink_so" ] || fail "the export sink build produced no export_sink_example.so"
if [ -x "$work/sink-build/export_sink_example_test" ]; then
  "$work/sink-build/export_sink_example_test" --gtest_brief=1 || fail "the export sink's unit test failed"
else
  skip "export sink unit test not built (GTest not installed)"
fi

# ---------------------------------------------------------------------------------------
step "installed daemon loads the example plugin beside the standard ones"
# Same rules as $plugin_dir: owned by root, not writable by group or others.
install -d -m 0755 "$work/plugins"
install -m 0644 "$plugin_dir"/*.so "$example_so" "$work/plugins/"
(cd "$work" && "$daemon" --check-plugins --plugins-dir "$work/plugins") | tee "$work/check.txt" \
  || fail "--check-plugins refused a plugin"
grep -qE "^ok +detector_example 1\.0\.0 " "$work/check.txt" || fail "detector_example not loaded"
# The export sink stays in a directory of its own: plugins.dir takes a list.
install -d -m 0755 "$work/sink-plugins"
install -m 0644 "$sink_so" "$work/sink-plugins/"
plugin_dirs="$work/plugins,$work/sink-plugins"
(cd "$work" && "$daemon" --check-plugins --plugins-dir "$plugin_dirs") | tee "$work/check-list.txt" \
  || fail "--check-plugins refused a plugin of $plugin_dirs"
grep -qE "^ok +export_sink_example 1\.0\.0 .*$work/sink-plugins/export_sink_example\.so$" "$work/check-list.txt" \
  || fail "export_sink_example not loaded from the second plugins.dir directory"
# A key for a plugin that does not exist stops the daemon as an unknown core key does.
rc=0
(cd "$work" && "$daemon" --config "$config" --plugins-dir "$plugin_dirs" --port 0 --data-dir "$work/nodata" \
  --set plugins.no_such_plugin.key=1) >"$work/unknown-plugin.txt" 2>&1 || rc=$?
[ "$rc" -eq 78 ] || { cat "$work/unknown-plugin.txt"; fail "a key for a missing plugin exited $rc, not 78"; }
grep -q "no plugin named no_such_plugin" "$work/unknown-plugin.txt" || fail "the exit 78 does not name the key"

# The unit sets MemoryDenyWriteExecute=yes. The kernel's PR_SET_MDWE (Linux 6.3+; kept
# across execve) refuses the same thing, so loading every plugin under it shows that
# dlopen() and our plugins need no writable+executable or later-executable memory.
if command -v python3 >/dev/null 2>&1; then
  rc=0
  (cd "$work" && python3 "$here/run-with-mdwe.py" "$daemon" --check-plugins --plugins-dir "$work/plugins") \
    >"$work/mdwe.txt" 2>&1 || rc=$?
  case $rc in
    0) echo "all plugins load under memory-deny-write-execute (PR_SET_MDWE)" ;;
    77) skip "this kernel has no PR_SET_MDWE: MemoryDenyWriteExecute compatibility not exercised" ;;
    *) cat "$work/mdwe.txt"; fail "plugins do not load under memory-deny-write-execute: MemoryDenyWriteExecute=yes would break them" ;;
  esac
else
  skip "no python3: MemoryDenyWriteExecute compatibility not exercised"
fi

# ---------------------------------------------------------------------------------------
step "start the installed daemon (loopback, temporary data dir, example plugin)"
install -d -m 0700 "$work/data"
# Port 0: the kernel picks a free port; the start-up line names it.
# A short retry schedule, so a batch the sink cannot write is given up within seconds.
(cd "$work" && exec "$daemon" --config "$config" --host 127.0.0.1 --port 0 --data-dir "$work/data" \
  --plugins-dir "$plugin_dirs" --set delivery.retry_schedule=200ms,200ms --set delivery.poll_interval_ms=100) \
  >"$work/daemon.log" 2>&1 &
daemon_pid=$!
port=""
for _ in $(seq 1 150); do
  port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$work/daemon.log" | head -n1)
  [ -n "$port" ] && break
  kill -0 "$daemon_pid" 2>/dev/null || { cat "$work/daemon.log"; fail "the daemon exited during start-up"; }
  sleep 0.2
done
[ -n "$port" ] || { cat "$work/daemon.log"; fail "the daemon did not report listening within 30 s"; }
base="http://127.0.0.1:$port"
grep -E "plugin detector_example 1\.0\.0 .* loaded" "$work/daemon.log" || fail "the daemon log does not show detector_example loaded"
curl -sf "$base/readyz" >/dev/null || fail "GET /readyz failed"
curl -sf "$base/metrics" | grep -E '^aev_plugin(s_loaded|_info\{plugin="detector_example")' \
  || fail "/metrics does not list detector_example"
# GET /admin/plugins needs the instance administrator: the first account registered.
json='content-type: application/json'
curl -sf -X POST "$base/auth/register" -H "$json" \
  -d '{"email":"check@example.com","username":"check","password":"package check password"}' >/dev/null \
  || fail "registering the first account failed"
token=$(curl -sf -X POST "$base/auth/login" -H "$json" -d '{"login":"check","password":"package check password"}' \
  | sed -nE 's/.*"access_token":"([^"]+)".*/\1/p')
[ -n "$token" ] || fail "login failed"
curl -sf "$base/admin/plugins" -H "authorization: Bearer $token" >"$work/admin-plugins.json" \
  || fail "GET /admin/plugins failed"
for name in detector_example acme.customer_number $standard_plugins; do
  grep -qF "\"$name\"" "$work/admin-plugins.json" || fail "GET /admin/plugins does not list $name"
done
echo "GET /admin/plugins lists detector_example (acme.customer_number) and: $standard_plugins"

# ---------------------------------------------------------------------------------------
step "the example export sink is a destination kind with its own config, and receives events"
auth="authorization: Bearer $token"
first_id() { grep -oE "\"$1\":\"?[0-9]+" | head -n1 | grep -oE '[0-9]+$'; }
lines() { [ -f "$1" ] && wc -l <"$1" || echo 0; }
wait_for() {  # wait_for SECONDS DESCRIPTION COMMAND...: polls every 0.2 s
  local limit=$(($1 * 5)) what=$2; shift 2
  for _ in $(seq 1 "$limit"); do "$@" && return 0; sleep 0.2; done
  tail -n 40 "$work/daemon.log"; fail "timed out waiting for $what"
}
curl -sf "$base/export-destinations/kinds" -H "$auth" >"$work/kinds.json" || fail "GET /export-destinations/kinds failed"
grep -qF '"name":"ndjson_file"' "$work/kinds.json" || { cat "$work/kinds.json"; fail "ndjson_file is not a destination kind"; }
app=$(curl -sf -X POST "$base/apps" -H "$auth" -H "$json" -d '{"name":"package check"}' | first_id id)
channel=$(curl -sf -X POST "$base/apps/$app/channels" -H "$auth" -H "$json" -d '{"name":"check"}' | first_id id)
key=$(curl -sf -X POST "$base/api-keys" -H "$auth" -H "$json" -d '{"name":"check","scopes":["publish","read"]}' \
  | sed -nE 's/.*"key":"([^"]+)".*/\1/p')
[ -n "$app" ] && [ -n "$channel" ] && [ -n "$key" ] || fail "creating an app, a channel and an API key failed"
install -d -m 0755 "$work/export"
out="$work/export/events.ndjson"
curl -sf -X POST "$base/export-destinations" -H "$auth" -H "$json" \
  -d "{\"name\":\"file\",\"kind\":\"ndjson_file\",\"envSlug\":\"*\",\"signals\":[\"logs\"],\"config\":{\"path\":\"$out\"}}" \
  >"$work/destination.json" || fail "creating an ndjson_file destination with its config failed"
dest=$(first_id destinationId <"$work/destination.json")
grep -qF "\"config\":{\"path\":\"$out\"}" "$work/destination.json" || fail "the destination does not show its config"
publish() {
  curl -sf -X POST "$base/event" -H "x-api-key: $key" -H "$json" \
    -d "{\"channel_id\":$channel,\"identifier\":\"$1\",\"eventType\":\"agent.message\",\"payload\":{\"role\":\"user\",\"content\":\"$2\"}}" \
    | first_id id
}
e1=$(publish one "first"); e2=$(publish two "second")
wait_for 20 "two events in $out" test "$(lines "$out")" -ge 2
grep -q "\"id\":\"\?$e1\"\?," "$out" && grep -q "\"id\":\"\?$e2\"\?," "$out" || { cat "$out"; fail "$out lacks events $e1 and $e2"; }
echo "events $e1 and $e2 appended to $out"

step "a batch the sink cannot write is retried, given up (health, log, metrics) and redelivered"
mv "$work/export" "$work/export.away"   # every open() of the file fails now
e3=$(publish three "third")
given_up() { curl -sf "$base/export-destinations/$dest" -H "$auth" | grep -qE '"givenUpBatches":[1-9]'; }
wait_for 30 "the batch of event $e3 to be given up" given_up
curl -sf "$base/export-destinations/$dest" -H "$auth" | grep -qF '"state":"failing"' || fail "health does not say failing"
grep -E " error \[.*export destination $dest of organization .* given up after 3 attempt\(s\), retries exhausted: .*cannot open $out" \
  "$work/daemon.log" || { tail -n 20 "$work/daemon.log"; fail "no error line names the given-up batch"; }
curl -sf "$base/metrics" | grep -E '^agent_events_export_batches_given_up_total [1-9]' || fail "/metrics does not count it"
mv "$work/export.away" "$work/export"
curl -sf -X POST "$base/export-destinations/$dest/redeliver" -H "$auth" -H "$json" -d '{"from":"2020-01-01T00:00:00Z"}' \
  | grep -qF '"queued":1' || fail "redeliver did not queue the given-up batch"
wait_for 20 "event $e3 redelivered to $out" grep -q "\"id\":\"\?$e3\"\?," "$out"
echo "event $e3 given up, then redelivered"

step "the example detector in a rule with detectorConfig and minScore"
rule=$(curl -s -X POST "$base/moderation/rules" -H "$auth" -H "$json" \
  -d '{"name":"customer numbers","action":"flag","detector":"acme.customer_number","detectorConfig":{"digits":8},"minScore":0.8}')
grep -qF '"detectorConfig":{"digits":8}' <<<"$rule" || { echo "$rule"; fail "creating the rule with detectorConfig failed"; }
bad=$(curl -s -X POST "$base/moderation/rules" -H "$auth" -H "$json" \
  -d '{"name":"bad","action":"flag","detector":"acme.customer_number","detectorConfig":{"digits":99}}')
grep -qF 'digits must be 4..16' <<<"$bad" || { echo "$bad"; fail "the detector's refusal is not the 422's message"; }
verdict=$(curl -sf -X POST "$base/moderation/evaluate" -H "x-api-key: $key" -H "$json" \
  -d "{\"channel_id\":$channel,\"identifier\":\"m\",\"eventType\":\"agent.message\",\"payload\":{\"role\":\"user\",\"content\":\"order ACME-12345678\"}}")
grep -qF '"matches":[{"detector":"acme.customer_number","label":"customer_number","score":0.9}]' <<<"$verdict" \
  || { echo "$verdict"; fail "evaluate does not show the match's detector, label and score"; }
strict=$(curl -s -X PATCH "$base/moderation/rules/$(first_id ruleId <<<"$rule")" -H "$auth" -H "$json" -d '{"minScore":0.95}')
grep -qF '"minScore":0.95' <<<"$strict" || { echo "$strict"; fail "PATCH minScore failed"; }
verdict=$(curl -sf -X POST "$base/moderation/evaluate" -H "x-api-key: $key" -H "$json" \
  -d "{\"channel_id\":$channel,\"identifier\":\"m\",\"eventType\":\"agent.message\",\"payload\":{\"role\":\"user\",\"content\":\"order ACME-12345678\"}}")
grep -qF '"matches":[]' <<<"$verdict" || { echo "$verdict"; fail "minScore 0.95 still counts a 0.9 match"; }
echo "rule with detectorConfig {\"digits\":8}: a 0.9 match counts at minScore 0.8, not at 0.95"
kill -TERM "$daemon_pid"
rc=0; wait "$daemon_pid" || rc=$?
daemon_pid=""
[ "$rc" -eq 0 ] || { cat "$work/daemon.log"; fail "the daemon exited $rc on SIGTERM"; }
echo "stopped cleanly on SIGTERM"

# ---------------------------------------------------------------------------------------
step "systemd-analyze verify $unit"
if ! command -v systemd-analyze >/dev/null 2>&1; then
  skip "systemd-analyze is not installed"
else
  set +e
  out=$(systemd-analyze verify "$unit" 2>&1)
  rc=$?
  set -e
  # verify exits 0 even for unknown keys or unparsable values (it ignores them), so any
  # message about our unit counts as an error; messages only about other units (the
  # targets it pulls in) or the environment do not.
  ours=$(grep -F 'agent-eventsd.service' <<<"$out" || true)
  if [ -n "$ours" ]; then
    printf '%s\n' "$out"
    fail "systemd-analyze verify reports problems in agent-eventsd.service"
  elif [ "$rc" -ne 0 ]; then
    printf '%s\n' "$out"
    skip "systemd-analyze verify cannot run here (exit $rc, nothing about our unit): not booted with systemd?"
  else
    [ -z "$out" ] || printf 'note (other units): %s\n' "$out"
    echo "unit verifies"
    # Information only: systemd's own exposure rating of the sandbox.
    systemd-analyze security --offline=true "$unit" 2>/dev/null | grep -F 'Overall exposure' || true
  fi
fi

# ---------------------------------------------------------------------------------------
step "purge"
dpkg --purge "$pkg"
for gone in "$daemon" /etc/agent-events "$plugin_dir" "$unit" /usr/include/agentevents; do
  [ ! -e "$gone" ] || fail "$gone is still there after dpkg --purge"
done
echo "package purged; $pkg check passed"
