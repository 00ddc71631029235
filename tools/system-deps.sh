#!/usr/bin/env bash
# Install the system tools the set-up step needs when they are missing (Debian/Ubuntu):
# Node.js and npm (to vendor PyScript, Pyodide and lit-html from the npm registry), and
# Python's venv and pip (test tools; the pinned wheels for Pyodide).
set -euo pipefail
missing=()
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
python3 -c "import venv, ensurepip" >/dev/null 2>&1 || missing+=(python3-venv)
python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)  # vendor.py downloads the pinned wheels
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "Please install: ${missing[*]}" >&2
  exit 1
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "[setup] installing ${missing[*]} with apt-get"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
