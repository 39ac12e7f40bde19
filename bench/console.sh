#!/usr/bin/env bash
# The console's weight (page + assets, gzip) and the render time of a 2,000-event trace:
# see bench/console.mjs. Needs node and `npm ci --prefix tests/browser` (scripts/deps.sh).
#   bash bench/console.sh [path/to/agent-eventsd]
set -euo pipefail
cd "$(dirname "$0")/.."
exec node bench/console.mjs "${1:-build/daemon/agent-eventsd}"
