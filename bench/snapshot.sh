#!/usr/bin/env bash
# Issue 16's figures for the snapshot store, on the release build:
#  - peak memory and time of `aasmd snapshot take` of a --demo N plant, beside a raw
#    crawl of the same plant in the same run;
#  - how much a second snapshot of the unchanged plant grows the store;
#  - `aasmd search` wall time (process start included), median and p95 of 20 queries;
#  - `aasmd diff` after 1% of the assets had a value changed (PATCH /demo-service/admin/elements);
#  - `aasmd export --snapshot --format env` peak memory.
# Usage: bench/snapshot.sh [ASSETS]   (default 30000); prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
assets=${1:-30000}
source bench/common.sh
build_aasmd
work=$(mktemp -d)
trap 'kill $demo_service_pid 2>/dev/null || true; rm -rf "$work"' EXIT
start_demo_service "$work" "$assets" --admin-token
export AASMD_STORE=$work/store.sqlite3
c=(--config "$work/line.json")

read -r crawl_s crawl_kb < <(run crawl "$aasmd" "${c[@]}" crawl --plant DEMO-01 --format raw --out "$work/raw.json")
read -r take_s take_kb < <(run take "$aasmd" "${c[@]}" snapshot take --plant DEMO-01)
first=$(stat -c %s "$AASMD_STORE")
read -r again_s _ < <(run again "$aasmd" "${c[@]}" snapshot take --plant DEMO-01)
second=$(stat -c %s "$AASMD_STORE")

read -r search_median search_p95 < <(for q in "${QUERIES[@]}" "${QUERIES[@]}"; do
  millis "$aasmd" search "$q" --limit 100; done | median_p95)

# 1% of the assets (machines) get a new ManufacturerName, then a third snapshot and the diff.
change_one_percent "$work/line.json" "$assets"
run third "$aasmd" "${c[@]}" snapshot take --plant DEMO-01 >/dev/null
read -r diff_s diff_kb < <(run diff "$aasmd" diff --json)
changes=$(python3 -c "import json; print(len(json.load(open('$work/diff.out'))))")
read -r export_s export_kb < <(run export "$aasmd" export --snapshot 1 --format env --out "$work/env.json")

cat <<TABLE
| what ($assets assets, $(nproc) cores, $(date -u +%F)) | figure |
|---|---|
| raw crawl: time, peak memory | ${crawl_s} s, $((crawl_kb / 1024)) MB |
| snapshot take: time, peak memory | ${take_s} s, $((take_kb / 1024)) MB |
| snapshot take ÷ raw crawl (time) | $(python3 -c "print(round($take_s / max($crawl_s, 0.01), 2))") |
| store after one snapshot | $((first / 1048576)) MB |
| second snapshot of the unchanged plant: time, growth | ${again_s} s, $(python3 -c "print(round(100 * ($second - $first) / $first, 2))") % |
| search (20 queries, whole process): median, p95 | ${search_median} ms, ${search_p95} ms |
| diff after 1% of the machines changed: time, peak memory, entries | ${diff_s} s, $((diff_kb / 1024)) MB, ${changes} |
| export env from a snapshot: time, peak memory | ${export_s} s, $((export_kb / 1024)) MB |
TABLE
runs_ok
