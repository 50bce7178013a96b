#!/usr/bin/env bash
# The benchmark suite in one command: builds what it needs in release, sets up the
# Python peers, runs every benchmark and writes bench/RESULTS.md (~5-10 minutes on 2 cores).
#
#   bench/run.sh
#
# Knobs (environment): BENCH_ASSETS=1000 BENCH_REPS=3 BENCH_WRK_SECONDS=3
# BENCH_CONCURRENCY="1 8 32 64" BENCH_SCALING="100 10000" BENCH_LATENCY_MS=20
# BENCH_PIN=1 (demo service on CPU 0, clients on the rest; needs taskset)
# BENCH_SKIP_CRITERION=1 (do not run the parse/export benches; report their last figures)
# BENCH_CRITERION_TEST=1 (run them once each as tests, `cargo test --bench`: no figures)
# BENCH_OUT=bench/RESULTS.md (where the report goes)
# AASMD_BIN (that aasmd, nothing built) PEER_PYTHON (a python with requests and httpx:
# no venv). `make bench-smoke` sets the last five.
# Needs: cargo, python3 with venv (apt-get install python3-venv), wrk (apt-get install wrk),
# and PyPI for the peers' requests and httpx (installed once into a venv).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/aas-browser/target}

if ! command -v wrk >/dev/null; then
  echo "bench/run.sh: wrk is missing: apt-get install wrk (Debian/Ubuntu)" >&2
  exit 2
fi

if [ ! -x /usr/bin/time ]; then
  echo "bench/run.sh: GNU time is missing (the crawl's peak memory): apt-get install time" >&2
  exit 2
fi

if [ -z "${AASMD_BIN:-}" ]; then
  echo "bench: cargo build --release -p aas-cli" >&2
  cargo build --release -p aas-cli
  AASMD_BIN=$CARGO_TARGET_DIR/release/aasmd
fi
if [ "${BENCH_SKIP_CRITERION:-0}" != 1 ] && [ "${BENCH_CRITERION_TEST:-0}" != 1 ]; then
  echo "bench: cargo bench --no-run -p aas-model --bench parse; -p aas-export --bench export" >&2
  cargo bench --no-run -p aas-model --bench parse
  cargo bench --no-run -p aas-export --bench export
fi

if [ -z "${PEER_PYTHON:-}" ]; then
  venv=$CARGO_TARGET_DIR/bench-venv
  if ! "$venv/bin/python" -c 'import requests, httpx' 2>/dev/null; then
    echo "bench: setting up $venv (pip install requests httpx)" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check requests httpx
  fi
  PEER_PYTHON=$venv/bin/python
fi

AASMD=$AASMD_BIN PEER_PYTHON=$PEER_PYTHON exec python3 bench/suite.py
