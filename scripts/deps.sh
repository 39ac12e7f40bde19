#!/usr/bin/env bash
# Installs what agent-events needs to build, run and test on Debian 12 (run as root).
# Skips apt entirely when everything is already there.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

packages=(
  build-essential cmake make pkg-config ccache git curl ca-certificates procps
  lld         # links the daemon and the tests several times faster than GNU ld (CMakeLists.txt)
  libpoco-dev libspdlog-dev libfmt-dev libboost-dev libboost-filesystem-dev
  libsodium-dev libre2-dev libssl-dev libpq-dev libsqlite3-dev libgtest-dev libgmock-dev libcurl4-openssl-dev
  libjemalloc-dev
  libsystemd-dev  # sd_notify: the systemd unit is Type=notify with a watchdog
  postgresql
  chromium
  dpkg-dev    # dpkg-shlibdeps: the Debian package's library dependencies (make package)
  strace      # fault injection: the store test that fails fdatasync with EIO
  sqlite3     # the console test that alters a stored audit row behind the daemon's back
  python3-h11 # the HTTP/1.1 differential test: h11 is one of the parsers ours is compared with
  clang libclang-rt-14-dev  # libFuzzer + sanitizer runtimes for the fuzz targets (make fuzz)
  clang-format  # scripts/check-format.sh: the changed lines of a commit follow .clang-format
  prometheus    # promtool: the contract test checks /metrics and the shipped alert rules
)
# Node 20+ (playwright-core drives Debian's Chromium in the browser test). Images that
# already carry a newer Node (NodeSource) must not get Debian's npm, which conflicts.
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# playwright-core and axe-core (the console's accessibility checks) from the lockfile
# (it downloads no browser); must precede CMake's configure, which registers the browser
# tests only when they are installed.
if [ ! -d "$root/tests/browser/node_modules/playwright-core" ] || [ ! -d "$root/tests/browser/node_modules/axe-core" ]; then
  npm ci --prefix "$root/tests/browser" --no-audit --no-fund >/dev/null
fi
# The official OpenTelemetry JS SDK, which the OTLP ingest test exports through.
if [ ! -d "$root/tests/otlp/node_modules/@opentelemetry/sdk-trace-base" ]; then
  npm ci --prefix "$root/tests/otlp" --no-audit --no-fund >/dev/null
fi
# The GenAI instrumentations the interop conformance test drives (OpenInference, OpenLLMetry,
# OTel contrib, Vercel AI SDK, Langfuse, OpenAI Agents) and the OpenTelemetry SDK they export through.
if [ ! -d "$root/tests/interop/node_modules/@arizeai/openinference-instrumentation-openai-agents" ]; then
  npm ci --prefix "$root/tests/interop" --no-audit --no-fund >/dev/null
fi
# The reference Standard Webhooks library, which verifies the daemon's webhook signatures.
if [ ! -d "$root/tests/webhooks/node_modules/standardwebhooks" ]; then
  npm ci --prefix "$root/tests/webhooks" --no-audit --no-fund >/dev/null
fi
# The OpenTelemetry JS protobuf code (official proto definitions) that decodes OTLP exports.
if [ ! -d "$root/tests/exports/node_modules/@opentelemetry/otlp-transformer" ]; then
  npm ci --prefix "$root/tests/exports" --no-audit --no-fund >/dev/null
fi
# The official MCP TypeScript clients that drive POST /mcp: the 1.x SDK (2025 revisions)
# and the 2.x client package (also the stateless 2026-07-28 revision).
if [ ! -d "$root/tests/mcp/node_modules/@modelcontextprotocol/sdk" ] ||
   [ ! -d "$root/tests/mcp/node_modules/@modelcontextprotocol/client" ]; then
  npm ci --prefix "$root/tests/mcp" --no-audit --no-fund >/dev/null
fi
# The contract checks: Redocly CLI, ajv, openapi-typescript + openapi-fetch + TypeScript,
# json-schema-faker (tests/contract, run by the contract_api suites).
if [ ! -d "$root/tests/contract/node_modules/@redocly/cli" ] ||
   [ ! -d "$root/tests/contract/node_modules/openapi-typescript" ]; then
  npm ci --prefix "$root/tests/contract" --no-audit --no-fund >/dev/null
fi
echo "dependencies ready"
