#!/usr/bin/env bash
# The Quality view's time and memory (issue 28) in one command: builds the app and aasmd in
# release, then drives the real window under Xvfb, in a private D-Bus session with a fresh
# GNOME Keyring, over a snapshot of `aasmd sandbox --demo ASSETS`; prints a Markdown table.
#
#   bench/quality.sh [ASSETS] [RUNS]   (defaults 10000 and 3)
#
# Needs what `make test` installs (Xvfb, WebKitWebDriver, GNOME Keyring).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/aas-browser/target}
release=$CARGO_TARGET_DIR/release
cargo build --release -p aas-browser -p aas-cli >&2
export AAS_BROWSER_BIN=$release/aas-browser AASMD_BIN=$release/aasmd
export QUALITY_ASSETS=${1:-10000} QUALITY_RUNS=${2:-3}
exec xvfb-run --auto-servernum --server-args="-screen 0 1280x800x24 -nolisten tcp" \
  scripts/with-keyring.sh python3 bench/quality_bench.py
