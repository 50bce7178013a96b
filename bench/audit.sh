#!/usr/bin/env bash
# Issue 28's figures: `aasmd audit` over one snapshot of a --demo N plant (release
# build), time and peak memory (GNU time): the text summary, and every finding written
# as CSV, JSON and XLSX, each ROUNDS times, interleaved. The demo's seeded gaps make
# error findings, so each run exits 1 (expected here).
# Usage: bench/audit.sh [ASSETS] [ROUNDS]   (defaults 30000 and 3); prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
assets=${1:-30000}
rounds=${2:-3}
source bench/common.sh
demo_snapshot "$assets"
export XDG_DATA_HOME=$work/data
export RUN_OK="0 1" # 1: error findings, which the demo's seeded gaps make
declare -A secs kbs
for r in $(seq "$rounds"); do
  for what in text csv json xlsx; do
    case $what in
      text) args=() ;;
      *) args=(--format "$what" --out "$work/findings.$what") ;;
    esac
    read -r s kb < <(run "$what" "$aasmd" audit --snapshot 1 "${args[@]}")
    secs[$what]+="$s "; kbs[$what]+="$kb "
  done
done
sed 's/^/    /' "$work/text.out" >&2
echo "| aasmd audit ($assets assets, $(nproc) cores, $(date -u +%F)) | seconds (each run) | median s | peak MB (max) |"
echo "|---|---|---|---|"
for what in text csv json xlsx; do
  peak=$(printf '%s\n' ${kbs[$what]} | sort -n | tail -1)
  printf '| %s | %s| %s | %d |\n' "$what" "${secs[$what]}" "$(median "${secs[$what]}")" $((peak / 1024))
done
runs_ok
