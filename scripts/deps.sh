#!/usr/bin/env bash
# Installs what agent-events needs to build, run and test on Debian 12 (run as root).
# Skips apt entirely when everything is already there.
set -euo pipefail

packages=(
  build-essential cmake make pkg-config ccache git curl ca-certificates procps
  libpoco-dev libspdlog-dev libfmt-dev libboost-dev libboost-filesystem-dev
  libsodium-dev libssl-dev libpq-dev libgtest-dev libgmock-dev libcurl4-openssl-dev
  postgresql
)

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
echo "dependencies ready"
