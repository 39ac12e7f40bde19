#!/usr/bin/env bash
# docs/operations.md's backup and restore commands, run as the docs show them: the
# `agent-eventsd ... backup` line of its Backups section against a running daemon with
# data, then the `agent-eventsd ... restore` line of its Restore section into a new data
# dir, and a daemon started on the restored store still knows the account and the events.
# Only the paths are swapped for temporary ones (and `sudo -u agent-events` dropped: the
# test's files are root's). Usage: backup_restore_commands.sh <agent-eventsd> <repository root>
set -euo pipefail
daemon=${1:?usage: $0 <agent-eventsd> <repository root>}
root=${2:?usage: $0 <agent-eventsd> <repository root>}
doc="$root/docs/operations.md"
work=$(mktemp -d)
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

# The first `agent-eventsd ... <word> ...` command in a code block of a section,
# continuation lines joined.
command_of() {
  local section=$1 word=$2
  awk -v s="## $section" '$0 == s {on=1; next} /^## / {on=0} on && /^```/ {code=!code; next} on && code' "$doc" \
    | sed -e ':a' -e '/\\$/{N; s/\\\n//; ba' -e '}' \
    | grep -E "agent-eventsd .*\\b$word\\b" | head -n1 | sed 's/ *#.*$//'
}
backup_cmd=$(command_of "Backups" backup)
restore_cmd=$(command_of "Restore" restore)
[ -n "$backup_cmd" ] || { echo "no agent-eventsd backup command in the Backups section of $doc"; exit 1; }
[ -n "$restore_cmd" ] || { echo "no agent-eventsd restore command in the Restore section of $doc"; exit 1; }
echo "documented: $backup_cmd"
echo "documented: $restore_cmd"

# The docs' paths, swapped for this test's.
as_test() {
  sed -e 's|^sudo -u agent-events ||' -e "s|/etc/agent-events/agent-eventsd.properties|$2|g" \
      -e "s|/backup/agent-events-\\\$(date +%F)|$work/backup|g" -e "s|/backup/agent-events-[^ ]*|$work/backup|g" -e "s|^agent-eventsd |$daemon |" <<<"$1"
}
for n in 1 2; do
  printf 'data.dir = %s\nhttp.host = 127.0.0.1\nhttp.port = 0\nlog.file =\n' "$work/data$n" >"$work/config$n"
done

start() {
  (exec "$daemon" --config "$1") >"$2" 2>&1 &
  pid=$!
  port=""
  for _ in $(seq 1 150); do
    port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$2" | head -n1)
    [ -n "$port" ] && return 0
    kill -0 "$pid" 2>/dev/null || { cat "$2"; echo "the daemon exited during start-up"; exit 1; }
    sleep 0.2
  done
  cat "$2"; echo "the daemon did not start"; exit 1
}
stop() { kill -TERM "$pid"; wait "$pid"; pid=""; }

start "$work/config1" "$work/daemon1.log"
base="http://127.0.0.1:$port"
json='content-type: application/json'
curl -sf -X POST "$base/auth/register" -H "$json" \
  -d '{"email":"docs@example.com","username":"docs","password":"documented password"}' >/dev/null
login() {
  curl -sf -X POST "$base/auth/login" -H "$json" -d '{"login":"docs","password":"documented password"}' \
    | sed -nE 's/.*"access_token":"([^"]+)".*/\1/p'
}
token=$(login)
org=$(curl -sf "$base/users/me" -H "authorization: Bearer $token" | sed -nE 's/.*"organizationId":([0-9]+).*/\1/p')
auth=(-H "authorization: Bearer $token" -H "x-tenant-id: $org" -H "$json")
app=$(curl -sf -X POST "$base/apps" "${auth[@]}" -d '{"name":"docs"}' | sed -nE 's/.*"id":([0-9]+).*/\1/p')
channel=$(curl -sf -X POST "$base/channel" "${auth[@]}" -d "{\"name\":\"docs\",\"appId\":$app}" \
  | sed -nE 's/.*"id":([0-9]+).*/\1/p')
for i in 1 2 3; do
  curl -sf -X POST "$base/event" "${auth[@]}" -d "{\"identifier\":\"doc-$i\",\"channel_id\":$channel,\"payload\":{}}" \
    >/dev/null
done

echo "running: $(as_test "$backup_cmd" "$work/config1")"
bash -c "$(as_test "$backup_cmd" "$work/config1")"
stop

echo "running: $(as_test "$restore_cmd" "$work/config2")"
bash -c "$(as_test "$restore_cmd" "$work/config2")"
start "$work/config2" "$work/daemon2.log"
base="http://127.0.0.1:$port"
token=$(login)
[ -n "$token" ] || { echo "the restored store does not know the account"; exit 1; }
total=$(curl -sf "$base/event/$channel/list" -H "authorization: Bearer $token" -H "x-tenant-id: $org" \
  | sed -nE 's/.*"total":([0-9]+).*/\1/p')
[ "$total" = 3 ] || { echo "the restored store lists $total events, not 3"; exit 1; }
stop
echo "the documented backup and restore commands work: 3 events and the account restored"
