#!/usr/bin/env bash
# Runs bench/NAME_bench.py against the real window: builds the app and aasmd in release,
# then drives them under Xvfb, in a private D-Bus session with a fresh GNOME Keyring.
# Called by bench/quality.sh and bench/table-app.sh, which set the bench's environment.
#
#   bench/in-window.sh NAME
#
# AAS_BROWSER_BIN and AASMD_BIN, both set: those binaries, nothing built (`make
# bench-smoke` passes its debug builds). Needs what `make test` installs (Xvfb,
# WebKitWebDriver, GNOME Keyring).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/aas-browser/target}
release=$CARGO_TARGET_DIR/release
if [ -z "${AAS_BROWSER_BIN:-}" ] || [ -z "${AASMD_BIN:-}" ]; then
  cargo build --release -p aas-browser -p aas-cli >&2
  AAS_BROWSER_BIN=$release/aas-browser AASMD_BIN=$release/aasmd
fi
export AAS_BROWSER_BIN AASMD_BIN
exec xvfb-run --auto-servernum --server-args="-screen 0 1280x800x24 -nolisten tcp" \
  scripts/with-keyring.sh python3 "bench/$1_bench.py"
