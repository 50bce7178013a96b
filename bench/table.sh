#!/usr/bin/env bash
# Issue 27's figures: `aasmd table` over one snapshot of a --demo N plant (release
# build), time and peak memory (GNU time): the column list (the picker's census) and a
# table of 12 columns (11 by idShort path, one by semanticId) as CSV and as XLSX, for
# every asset type together; each ROUNDS times, interleaved. The build of one asset
# type's table in the app is the same code over fewer shells.
# Usage: bench/table.sh [ASSETS] [ROUNDS]   (defaults 10000 and 3)
set -euo pipefail
assets=${1:-10000}
rounds=${2:-3}
target=${CARGO_TARGET_DIR:-$HOME/.cache/aas-browser/target}
cargo build --release -p aas-cli >&2
aasmd=$target/release/aasmd
work=$(mktemp -d)
trap 'kill $pid 2>/dev/null || true; rm -rf "$work"' EXIT
"$aasmd" sandbox --demo "$assets" >"$work/line.json" 2>/dev/null &
pid=$!
for _ in $(seq 6000); do [ -s "$work/line.json" ] && break; sleep 0.1; done
export AASMD_STORE=$work/store.sqlite3
"$aasmd" --config "$work/line.json" snapshot take --plant DEMO-01 >&2
kill $pid
columns=(shell:idShort Nameplate/ManufacturerName Nameplate/ManufacturerProductDesignation
  Nameplate/SerialNumber Nameplate/YearOfConstruction Nameplate/Address/CityTown
  Nameplate/Address/NationalCode TechnicalData/TechnicalProperties/Weight
  TechnicalData/TechnicalProperties/AmbientTemperature TechnicalData/FurtherInformation/ValidDate
  TechnicalData/GeneralInformation/ManufacturerOrderCode 'semanticId:0173-1#02-AAO676#003')
args=()
for c in "${columns[@]}"; do args+=(--column "$c"); done
run() { # NAME ARGS…: "seconds peak-kB"
  local name=$1; shift
  /usr/bin/time -f "%e %M" -o "$work/time" "$aasmd" table --snapshot 1 "$@" >/dev/null 2>&1
  cat "$work/time"
}
declare -A secs kbs
for r in $(seq "$rounds"); do
  for what in census csv xlsx; do
    case $what in
      census) read -r s kb < <(run census --list-columns) ;;
      csv) read -r s kb < <(run csv "${args[@]}" --out "$work/t.csv") ;;
      xlsx) read -r s kb < <(run xlsx "${args[@]}" --format xlsx --out "$work/t.xlsx") ;;
    esac
    secs[$what]+="$s "; kbs[$what]+="$kb "
  done
done
median() { printf '%s\n' $1 | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "| aasmd table ($assets shells, 12 columns, $(nproc) cores, $(date -u +%F)) | seconds (each run) | median s | peak MB (max) |"
echo "|---|---|---|---|"
for what in census csv xlsx; do
  peak=$(printf '%s\n' ${kbs[$what]} | sort -n | tail -1)
  printf '| %s | %s| %s | %d |\n' "$what" "${secs[$what]}" "$(median "${secs[$what]}")" $((peak / 1024))
done
