#!/usr/bin/env bash
# Issue 25's and 47's figures: `aasmd export --snapshot` of one snapshot of a --demo N
# plant as AAS V2.0.1 environment JSON (env), AAS V3.0 environment JSON (v3-env), AAS
# V3.0 AASX (v3-aasx) and AAS V3.1 AASX with XML (v3.1-aasx-xml), time and peak memory
# (GNU time), release build. Each format runs
# ROUNDS times, interleaved, so that the machine's noise falls on all of them alike;
# the table gives each run, the V3/V2 ratio of the medians and the CPU seconds (user +
# system) each format took.
# Usage: bench/v3-export.sh [ASSETS] [ROUNDS]   (defaults 100000 and 3)
set -euo pipefail
cd "$(dirname "$0")/.."
assets=${1:-100000}
rounds=${2:-3}
source bench/common.sh
demo_snapshot "$assets"
declare -A secs kbs cpus
export RUN_FORMAT="%U %S"
for r in $(seq "$rounds"); do
  for f in env v3-env v3-aasx v3.1-aasx-xml; do
    read -r s kb user system < <(run "$f" "$aasmd" export --snapshot 1 --format "$f" --out "$work/out-$f")
    secs[$f]+="$s "; kbs[$f]+="$kb "; cpus[$f]+="$(echo "$user + $system" | bc) "
  done
done
env_s=$(median "${secs[env]}")
echo "| format ($assets assets, $(nproc) cores, $(date -u +%F)) | seconds (each run) | median s | × env | CPU s (median) | peak MB (max) | file MB |"
echo "|---|---|---|---|---|---|---|"
for f in env v3-env v3-aasx v3.1-aasx-xml; do
  m=$(median "${secs[$f]}")
  peak=$(printf '%s\n' ${kbs[$f]} | sort -n | tail -1)
  size=$(stat -c %s "$work/out-$f")
  printf '| %s | %s| %s | %.2f | %.2f | %d | %d |\n' "$f" "${secs[$f]}" "$m" "$(echo "$m / $env_s" | bc -l)" "$(median "${cpus[$f]}")" $((peak / 1024)) $((size / 1000000))
done
changes=$(python3 -c "import json; r=json.load(open('$work/out-v3-env.conversion.json')); print(r['total'], r['summary'])" 2>/dev/null || echo "?")
echo
echo "v3-env report: $changes"
runs_ok
