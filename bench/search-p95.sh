#!/usr/bin/env bash
# The plant search's latency in the page (p50, p95, max per kind of query): one app window
# on a 10,000-machine snapshot, SEARCH_BENCH_N queries typed into its plant search
# (bench/search_p95.py), under Xvfb, in a private D-Bus session with a fresh GNOME Keyring.
# Prints a Markdown table (under a minute on 2 cores with debug builds).
#
#   bench/search-p95.sh
#   AAS_BROWSER_BIN=/tmp/before/aas-browser AASMD_BIN=/tmp/before/aasmd bench/search-p95.sh
#
# The binaries: AAS_BROWSER_BIN and AASMD_BIN, else $CARGO_TARGET_DIR/release/ if both are
# built there, else $CARGO_TARGET_DIR/debug/. Nothing is built unless neither has both:
# then `cargo build --release -p aas-browser -p aas-cli`.
# Knobs (environment): SEARCH_BENCH_N=40, SEARCH_BENCH_OUT (also write the table there),
# SEARCH_BENCH_GAP_MS (between keys; default bench/app_bench.py's TYPING_GAP_MS).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/aas-browser/target}

if [ -z "${AAS_BROWSER_BIN:-}${AASMD_BIN:-}" ]; then
  for profile in release debug; do
    dir=$CARGO_TARGET_DIR/$profile
    if [ -x "$dir/aas-browser" ] && [ -x "$dir/aasmd" ]; then
      AAS_BROWSER_BIN=$dir/aas-browser AASMD_BIN=$dir/aasmd
      break
    fi
  done
  if [ -z "${AAS_BROWSER_BIN:-}" ]; then
    echo "bench/search-p95.sh: no built app and aasmd: cargo build --release (aas-browser, aas-cli)" >&2
    cargo build --release -p aas-browser -p aas-cli
    AAS_BROWSER_BIN=$CARGO_TARGET_DIR/release/aas-browser AASMD_BIN=$CARGO_TARGET_DIR/release/aasmd
  fi
fi
for bin in "${AAS_BROWSER_BIN:?set both AAS_BROWSER_BIN and AASMD_BIN}" "${AASMD_BIN:?set both AAS_BROWSER_BIN and AASMD_BIN}"; do
  [ -x "$bin" ] || { echo "bench/search-p95.sh: $bin is not an executable" >&2; exit 2; }
done
echo "bench/search-p95.sh: $AAS_BROWSER_BIN, $AASMD_BIN" >&2

export AAS_BROWSER_BIN AASMD_BIN
exec xvfb-run --auto-servernum --server-args="-screen 0 1280x800x24 -nolisten tcp" \
  scripts/with-keyring.sh python3 bench/search_p95.py
