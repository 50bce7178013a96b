#!/usr/bin/env bash
# Every bench once, small and quick, on the debug builds (`make bench-smoke`, part of
# `make test`): that each still runs to its end against today's app and aasmd, so that
# none rots unseen. No figure is judged (debug builds, tiny plants, one round): a bench
# passes when it exits 0 and has written its report. The reports go to BENCH_SMOKE_OUT
# (default $CARGO_TARGET_DIR/bench-smoke, emptied first), never to bench/RESULTS.md or
# bench/APP-RESULTS.md. About 2 minutes on 2 cores once the debug builds are there.
#
#   bench/smoke.sh            # every bench
#   bench/smoke.sh app table  # those whose name contains one of the words
#
# Needs what `scripts/install-deps.sh test` installs (Xvfb, WebKitWebDriver, GNOME Keyring,
# PostgreSQL, wrk, GNU time, Python's requests and httpx from Debian).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/aas-browser/target}
debug=$CARGO_TARGET_DIR/debug
out=${BENCH_SMOKE_OUT:-$CARGO_TARGET_DIR/bench-smoke}
rm -rf "$out"
mkdir -p "$out"
peer_python=/usr/bin/python3

for tool in wrk /usr/bin/time taskset psql xvfb-run WebKitWebDriver; do
  command -v "$tool" >/dev/null || { echo "bench/smoke.sh: $tool is missing: scripts/install-deps.sh test" >&2; exit 2; }
done
"$peer_python" -c 'import requests, httpx' 2>/dev/null ||
  { echo "bench/smoke.sh: $peer_python lacks requests or httpx: scripts/install-deps.sh test" >&2; exit 2; }

# The app as `make e2e` builds it (so nothing is built twice), the examples the team-store
# bench searches with and the file-open bench reads with, and the empty window (the
# memory floor of bench/app.sh); or, all five given (AAS_BROWSER_BIN, AASMD_BIN,
# EMPTY_WINDOW_BIN, SEARCH_LATENCY_BIN, READ_FILE_BIN), those.
if [ -z "${AAS_BROWSER_BIN:-}" ] || [ -z "${AASMD_BIN:-}" ] || [ -z "${EMPTY_WINDOW_BIN:-}" ] ||
  [ -z "${SEARCH_LATENCY_BIN:-}" ] || [ -z "${READ_FILE_BIN:-}" ]; then
  cargo build -p aas-browser -p aas-cli --features aas-browser/e2e-hooks
  cargo build -p aas-snapshot --example search_latency
  cargo build -p aas-file --example read_file
  cargo build --manifest-path bench/empty-window/Cargo.toml
  AAS_BROWSER_BIN=$debug/aas-browser AASMD_BIN=$debug/aasmd EMPTY_WINDOW_BIN=$debug/empty-window
  SEARCH_LATENCY_BIN=$debug/examples/search_latency READ_FILE_BIN=$debug/examples/read_file
fi
export AAS_BROWSER_BIN AASMD_BIN EMPTY_WINDOW_BIN SEARCH_LATENCY_BIN READ_FILE_BIN E2E_OUT=$out/webdriver
# The window benches (bench/app_bench.py and those built on it): small plants, one round.
export APP_BENCH_RUNS=1 APP_BENCH_SHELLS=300 APP_BENCH_ASSETS=50 APP_BENCH_REPEATS=2 \
  APP_BENCH_FRAMES=20 APP_BENCH_SETTLE_S=0.2

passed=() failed=()
# smoke NAME REPORT MARK COMMAND...: runs COMMAND (its output in $out/NAME.out and .log);
# it passes if it exits 0 and REPORT (a file) holds a line starting with MARK.
smoke() {
  local name=$1 report=$2 mark=$3; shift 3
  selected "$name" || return 0
  echo "bench/smoke.sh: $name: $*" >&2
  local start=$SECONDS status=0
  timeout --kill-after=10 600 "$@" >"$out/$name.out" 2>"$out/$name.log" || status=$?
  local took=$((SECONDS - start))
  if [ "$status" -eq 0 ] && grep -q "^$mark" "$report" 2>/dev/null; then
    passed+=("$name (${took} s)")
  else
    echo "bench/smoke.sh: $name FAILED (exit $status, ${took} s; no '$mark' in $report unless it exited 0); its last lines:" >&2
    tail -n 25 "$out/$name.log" "$out/$name.out" >&2 || true
    failed+=("$name")
  fi
}
words=("$@")
selected() {
  [ ${#words[@]} -eq 0 ] && return 0
  local w; for w in "${words[@]}"; do [[ $1 == *"$w"* ]] && return 0; done
  return 1
}

# The command line's benches (bench/common.sh): one round of a 200-asset plant.
smoke table "$out/table.out" '| census' bench/table.sh 200 1
smoke audit "$out/audit.out" '| xlsx' bench/audit.sh 200 1
smoke snapshot "$out/snapshot.out" '| export env' bench/snapshot.sh 200
smoke v3-export "$out/v3-export.out" '| v3.1-aasx-xml' bench/v3-export.sh 200 1
smoke file-open "$out/file-open.out" '| BaSyx' bench/file-open.sh 200 1
smoke v3-server "$out/v3-server.out" '| V3 snapshot' env PEER_PYTHON="$peer_python" bench/v3-server.sh 200 5
smoke team-store "$out/team-store.out" '| diff' env READERS=2 READER_PAUSES=0.2 bench/team-store.sh 300 200
smoke large-value "$out/large-value.out" '| `aasmd export' bench/large-value.sh 2
smoke demo-service-load "$out/demo-service-load.out" 'Requests/sec' bench/demo-service-load.sh 50 1 4
# The suite: crawl, ceiling, peers, scaling, latency; the criterion benches once each as tests.
smoke run "$out/RESULTS.md" '## Targets' env BENCH_ASSETS=50 BENCH_REPS=1 BENCH_WRK_SECONDS=1 \
  BENCH_CONCURRENCY="1 8" BENCH_SCALING=20 BENCH_LATENCY_MS=5 BENCH_CRITERION_TEST=1 PARSE_ASSETS=50 \
  BENCH_OUT="$out/RESULTS.md" PEER_PYTHON="$peer_python" bench/run.sh
# The audit's own bench (not part of the suite), once as a test.
smoke audit-criterion "$out/audit-criterion.out" 'audit of' env AUDIT_ASSETS=300 \
  cargo test -q -p aas-audit --bench audit
# The real window: start-up, scrolling, snapshots, search, Changes; the table; Quality; search p95.
smoke app "$out/APP-RESULTS.md" '| Cold start' env APP_BENCH_OUT="$out/APP-RESULTS.md" bench/app.sh
smoke table-app "$out/table-app.out" '| sort by' bench/table-app.sh 400 1
smoke quality "$out/quality.out" '| asking' bench/quality.sh 300 2
smoke search-p95 "$out/search-p95.md" '| all' env SEARCH_BENCH_N=6 SEARCH_BENCH_OUT="$out/search-p95.md" \
  bench/search-p95.sh

echo "bench/smoke.sh: passed: ${passed[*]:-none}" >&2
echo "bench/smoke.sh: the reports are in $out" >&2
if [ ${#failed[@]} -gt 0 ]; then
  echo "bench/smoke.sh: FAILED: ${failed[*]}" >&2
  exit 1
fi
