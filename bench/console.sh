#!/usr/bin/env bash
# The console's weight (page + assets, gzip), the render time of a 2,000-event trace (370
# LLM calls with messages) and of a 50-trace session: see bench/console.mjs. Then
# Lighthouse on four pages (bench/console_lighthouse.mjs) when bench/lighthouse's packages
# are installed (`npm ci --prefix bench/lighthouse`; LIGHTHOUSE=0 skips it). Needs node and
# `npm ci --prefix tests/browser` (scripts/deps.sh).
#   bash bench/console.sh [path/to/agent-eventsd]
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-build/daemon/agent-eventsd}"
node bench/console.mjs "$bin"
if [ "${LIGHTHOUSE:-1}" != 0 ]; then
  if [ -d bench/lighthouse/node_modules/lighthouse ]; then
    node bench/console_lighthouse.mjs "$bin"
  else
    echo "## Lighthouse: not run (npm ci --prefix bench/lighthouse installs it)"
  fi
fi
