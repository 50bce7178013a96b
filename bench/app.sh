#!/usr/bin/env bash
# The app's timings and memory (issue 6, items 7 and 8; issue 17) in one command: builds the app,
# aasmd and an empty Tauri window (bench/empty-window, the memory floor) in release,
# then drives them under Xvfb, in a private D-Bus session with a fresh GNOME Keyring,
# and writes bench/APP-RESULTS.md (~6 minutes after the builds).
#
#   bench/app.sh
#
# Knobs (environment): APP_BENCH_RUNS=5 (starts for the start-up and idle figures),
# APP_BENCH_OUT=bench/APP-RESULTS.md; the sizes of a smaller run (bench/app_bench.py:
# APP_BENCH_SHELLS, APP_BENCH_ASSETS, APP_BENCH_REPEATS, APP_BENCH_FRAMES,
# APP_BENCH_SETTLE_S). AAS_BROWSER_BIN, AASMD_BIN and EMPTY_WINDOW_BIN, all three set:
# those binaries, nothing built (`make bench-smoke` passes its debug builds). Needs what
# `make test` installs (Xvfb, WebKitWebDriver, GNOME Keyring).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/aas-browser/target}
release=$CARGO_TARGET_DIR/release

if [ -z "${AAS_BROWSER_BIN:-}" ] || [ -z "${AASMD_BIN:-}" ] || [ -z "${EMPTY_WINDOW_BIN:-}" ]; then
  echo "bench/app.sh: cargo build --release (aas-browser, aas-cli, bench/empty-window)" >&2
  cargo build --release -p aas-browser -p aas-cli
  cargo build --release --manifest-path bench/empty-window/Cargo.toml
  AAS_BROWSER_BIN=$release/aas-browser EMPTY_WINDOW_BIN=$release/empty-window AASMD_BIN=$release/aasmd
fi
export AAS_BROWSER_BIN EMPTY_WINDOW_BIN AASMD_BIN
exec xvfb-run --auto-servernum --server-args="-screen 0 1280x800x24 -nolisten tcp" \
  scripts/with-keyring.sh python3 bench/app_bench.py
