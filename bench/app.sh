#!/usr/bin/env bash
# The app's timings and memory (issue 6, items 7 and 8; issue 17) in one command: builds the app,
# aasmd and an empty Tauri window (bench/empty-window, the memory floor) in release,
# then drives them under Xvfb, in a private D-Bus session with a fresh GNOME Keyring,
# and writes bench/APP-RESULTS.md (~6 minutes after the builds).
#
#   bench/app.sh
#
# Knobs (environment): APP_BENCH_RUNS=5 (starts for the start-up and idle figures),
# APP_BENCH_OUT=bench/APP-RESULTS.md. Needs what `make test` installs (Xvfb,
# WebKitWebDriver, GNOME Keyring).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/aas-browser/target}
release=$CARGO_TARGET_DIR/release

echo "bench/app.sh: cargo build --release (aas-browser, aas-cli, bench/empty-window)" >&2
cargo build --release -p aas-browser -p aas-cli
cargo build --release --manifest-path bench/empty-window/Cargo.toml

export AAS_BROWSER_BIN=$release/aas-browser EMPTY_WINDOW_BIN=$release/empty-window AASMD_BIN=$release/aasmd
exec xvfb-run --auto-servernum --server-args="-screen 0 1280x800x24 -nolisten tcp" \
  scripts/with-keyring.sh python3 bench/app_bench.py
