#!/usr/bin/env bash
# Issue 16's figures for the snapshot store, on the release build:
#  - peak memory and time of `aasmd snapshot take` of a --demo N plant, beside a raw
#    crawl of the same plant in the same run;
#  - how much a second snapshot of the unchanged plant grows the store;
#  - `aasmd search` wall time (process start included), median and p95 of 20 queries;
#  - `aasmd diff` after 1% of the assets had a value changed (PATCH /sandbox/admin/elements);
#  - `aasmd export --snapshot --format env` peak memory.
# Usage: bench/snapshot.sh [ASSETS]   (default 30000); prints a Markdown table.
set -euo pipefail
assets=${1:-30000}
target=${CARGO_TARGET_DIR:-$HOME/.cache/aas-browser/target}
cargo build --release -p aas-cli >&2
aasmd=$target/release/aasmd
work=$(mktemp -d)
trap 'kill $pid 2>/dev/null || true; rm -rf "$work"' EXIT
"$aasmd" sandbox --demo "$assets" --admin-token >"$work/line.json" 2>/dev/null &
pid=$!
for _ in $(seq 600); do [ -s "$work/line.json" ] && break; sleep 0.1; done
export AASMD_STORE=$work/store.sqlite3
run() { # NAME, command...: "seconds peak-kB" of the command, via GNU time
  local name=$1; shift
  /usr/bin/time -f "%e %M" -o "$work/$name.time" "$@" >"$work/$name.out" 2>/dev/null || true
  cat "$work/$name.time"
}
field() { python3 -c "import json; print(json.load(open('$work/line.json'))['$1'])"; }
c=(--config "$work/line.json")

read -r crawl_s crawl_kb < <(run crawl "$aasmd" "${c[@]}" crawl --plant DEMO-01 --format raw --out "$work/raw.json")
read -r take_s take_kb < <(run take "$aasmd" "${c[@]}" snapshot take --plant DEMO-01)
first=$(stat -c %s "$AASMD_STORE")
read -r again_s _ < <(run again "$aasmd" "${c[@]}" snapshot take --plant DEMO-01)
second=$(stat -c %s "$AASMD_STORE")

# 20 searches: serial numbers of machines, and words.
queries=(Stuttgart "SN-M-0001" "Acme Tools" "Operating manual" "0173-1#02" pump "SN-T-00" urn:demo-platform Wartung CNC)
times=()
for q in "${queries[@]}" "${queries[@]}"; do
  start=$(date +%s%N)
  "$aasmd" search "$q" --limit 100 >/dev/null
  times+=($(( ($(date +%s%N) - start) / 1000000 )))
done
read -r search_median search_p95 < <(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int(NR/2)+1], a[int(NR*0.95)]}')

# 1% of the assets (machines) get a new ManufacturerName, then a third snapshot and the diff.
token=$(field admin_token); admin="$(field registry_url)/sandbox/admin/elements"
python3 - "$work/line.json" "$assets" <<'PY' | while read -r body; do curl -sf -o /dev/null -X PATCH -H "Authorization: Bearer $token" -H 'Content-Type: application/json' -d "$body" "$admin" || true; done
import json, sys
n = min(int(sys.argv[2]) // 100, int(sys.argv[2]) // 8) or 1
for i in range(1, n + 1):
    print(json.dumps({"aas_id": f"urn:demo-platform:acme:DEMO-01:aas:machine#M-{i:04d}", "submodel": "Nameplate",
                      "path": ["ManufacturerName"], "value": f"Changed {i}"}))
PY
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
