#!/usr/bin/env bash
# The browsers of the end-to-end tests.
# - Chromium (Playwright): $CHROMIUM_PATH, then Debian's /usr/bin/chromium (installed with apt-get
#   when possible), else Playwright's own download (needs the network).
# - Firefox ESR (Puppeteer over WebDriver BiDi) and WebKitGTK, Safari's engine (WebKitWebDriver,
#   under Xvfb): Debian's firefox-esr, webkit2gtk-driver and xvfb, installed with apt-get when
#   missing. Where apt-get cannot run, their tests skip and say why (under CI they fail).
# - coturn (`turnserver`), the TURN server of e2e/test_live_relay.py, the same way.
set -euo pipefail
vpy="${1:-.venv/bin/python}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
can_apt() { command -v apt-get >/dev/null 2>&1 && { [ -z "$sudo" ] || command -v sudo >/dev/null 2>&1; }; }

missing=()
[ -x /usr/bin/firefox-esr ] || [ -n "${FIREFOX_PATH:-}" ] || missing+=(firefox-esr)
[ -x /usr/bin/WebKitWebDriver ] || [ -n "${WEBKIT_DRIVER_PATH:-}" ] || missing+=(webkit2gtk-driver)
command -v Xvfb >/dev/null 2>&1 || missing+=(xvfb)
# coturn: the TURN server the relay test starts on the loopback (never as a service).
command -v turnserver >/dev/null 2>&1 || [ -x /usr/bin/turnserver ] || missing+=(coturn)
chromium_found=0
if { [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; } || [ -x /usr/bin/chromium ]; then
  chromium_found=1
else
  missing+=(chromium)
fi

if [ ${#missing[@]} -gt 0 ] && can_apt; then
  echo "[browser] installing Debian's ${missing[*]}"
  if $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"; then
    # coturn just installed: its service, if Debian started it, is not what the test runs.
    if [[ " ${missing[*]} " == *" coturn "* ]]; then $sudo systemctl disable --now coturn >/dev/null 2>&1 || true; fi
    exit 0
  fi
  echo "[browser] apt-get could not install ${missing[*]}" >&2
elif [ ${#missing[@]} -gt 0 ]; then
  echo "[browser] no apt-get: missing ${missing[*]} (their browser tests skip, saying so)" >&2
fi
if [ "$chromium_found" -eq 0 ] && [ ! -x /usr/bin/chromium ]; then
  echo "[browser] no system Chromium: running playwright install chromium"
  "$vpy" -m playwright install chromium
fi
