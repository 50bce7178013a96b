#!/usr/bin/env bash
# Issue 28's figures: `aasmd audit` over one snapshot of a --demo N plant (release
# build), time and peak memory (GNU time): the text summary, and every finding written
# as CSV, JSON and XLSX, each ROUNDS times, interleaved. The demo's seeded gaps make
# findings of every kind, so the audit exits 1 (expected here).
# Usage: bench/audit.sh [ASSETS] [ROUNDS]   (defaults 30000 and 3)
set -euo pipefail
assets=${1:-30000}
rounds=${2:-3}
target=${CARGO_TARGET_DIR:-$HOME/.cache/aas-browser/target}
cargo build --release -p aas-cli >&2
aasmd=$target/release/aasmd
work=$(mktemp -d)
trap 'kill $pid 2>/dev/null || true; rm -rf "$work"' EXIT
"$aasmd" sandbox --demo "$assets" >"$work/line.json" 2>/dev/null &
pid=$!
for _ in $(seq 6000); do [ -s "$work/line.json" ] && break; sleep 0.1; done
export AASMD_STORE=$work/store.sqlite3 XDG_DATA_HOME=$work/data
"$aasmd" --config "$work/line.json" snapshot take --plant DEMO-01 >&2
kill $pid
run() { # ARGS…: "seconds peak-kB"; exit 1 (error findings) is the demo's verdict
  /usr/bin/time -f "%e %M" -o "$work/time" "$aasmd" audit --snapshot 1 "$@" \
    >"$work/out" 2>"$work/err" || [ "$(tail -1 "$work/time" | wc -w)" = 2 ]
  tail -1 "$work/time"
}
declare -A secs kbs
for r in $(seq "$rounds"); do
  for what in text csv json xlsx; do
    case $what in
      text) read -r s kb < <(run) ;;
      *) read -r s kb < <(run --format "$what" --out "$work/findings.$what") ;;
    esac
    secs[$what]+="$s "; kbs[$what]+="$kb "
  done
done
"$aasmd" audit --snapshot 1 --top 5 2>/dev/null | sed 's/^/    /' >&2 || true
median() { printf '%s\n' $1 | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "| aasmd audit ($assets assets, $(nproc) cores, $(date -u +%F)) | seconds (each run) | median s | peak MB (max) |"
echo "|---|---|---|---|"
for what in text csv json xlsx; do
  peak=$(printf '%s\n' ${kbs[$what]} | sort -n | tail -1)
  printf '| %s | %s| %s | %d |\n' "$what" "${secs[$what]}" "$(median "${secs[$what]}")" $((peak / 1024))
done
