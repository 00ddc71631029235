#!/usr/bin/env bash
# Find a Chromium for the end-to-end tests: $CHROMIUM_PATH, then Debian's /usr/bin/chromium
# (installed with apt-get when possible), else Playwright's own download (needs the network).
set -euo pipefail
vpy="${1:-.venv/bin/python}"
if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then exit 0; fi
if [ -x /usr/bin/chromium ]; then exit 0; fi
if command -v apt-get >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "[browser] installing Debian's chromium"
  if $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium; then
    exit 0
  fi
fi
echo "[browser] no system Chromium: running playwright install chromium"
"$vpy" -m playwright install chromium
