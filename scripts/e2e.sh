#!/usr/bin/env bash
# Runs the WebDriver end-to-end tests (tests/e2e/test_*.py; E2E_TESTS=pattern picks some) against the built app under a private Xvfb
# display, in a private D-Bus session with a fresh GNOME Keyring (scripts/with-keyring.sh).
# Usage: scripts/e2e.sh PATH/TO/aas-browser   (aasmd is expected beside it)
set -euo pipefail
bin=$(realpath "$1")
out=${E2E_OUT:-$PWD/tests/e2e/out}
mkdir -p "$out"

display=":$((90 + RANDOM % 100))"
Xvfb "$display" -screen 0 "${E2E_SCREEN:-1280x800}x24" -nolisten tcp >"$out/xvfb.log" 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X${display#:}" ] && break; sleep 0.1; done

export PATH="$HOME/.cargo/bin:$PATH"
DISPLAY=$display AAS_BROWSER_BIN=$bin AASMD_BIN=$(dirname "$bin")/aasmd E2E_OUT=$out \
  "$(dirname "$0")/with-keyring.sh" python3 -m unittest discover -v -s tests/e2e -p "${E2E_TESTS:-test_*.py}"
