#!/usr/bin/env bash
# Idempotent setup for a fresh Debian 12 machine (or an existing checkout):
# installs the missing apt packages, runs `npm ci` when the lock file changed,
# then builds native, Wasm and dist/. Safe to run any number of times.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(cmake g++ make clang clang-format libclang-rt-14-dev emscripten chromium libgtest-dev libbenchmark-dev
  protobuf-compiler zlib1g-dev golang-go firefox-esr webkit2gtk-driver xvfb xauth locales nodejs npm)
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# A Node from outside Debian (as on the CI image) satisfies nodejs/npm.
if command -v node >/dev/null && command -v npm >/dev/null; then
  tmp=(); for p in "${missing[@]}"; do [[ $p == nodejs || $p == npm ]] || tmp+=("$p"); done
  missing=("${tmp[@]+"${tmp[@]}"}")
fi
if ((${#missing[@]})); then
  echo "[setup] apt-get install ${missing[*]}" >&2
  SUDO=""; [[ $(id -u) == 0 ]] || SUDO=sudo
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "[setup] npm ci" >&2
  npm ci --no-audit --no-fund
fi

npm run --silent build
