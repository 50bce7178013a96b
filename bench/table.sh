#!/usr/bin/env bash
# Issue 27's figures: `aasmd table` over one snapshot of a --demo N plant (release
# build), time and peak memory (GNU time): the column list (the picker's census) and a
# table of 12 columns (11 by idShort path, one by semanticId) as CSV and as XLSX, for
# every asset type together; each ROUNDS times, interleaved. The app's figures (one
# asset type's table in the real window) are bench/table-app.sh's.
# Usage: bench/table.sh [ASSETS] [ROUNDS]   (defaults 10000 and 3)
set -euo pipefail
cd "$(dirname "$0")/.."
assets=${1:-10000}
rounds=${2:-3}
source bench/common.sh
demo_snapshot "$assets"
columns=(shell:idShort Nameplate/ManufacturerName Nameplate/ManufacturerProductDesignation
  Nameplate/SerialNumber Nameplate/YearOfConstruction Nameplate/Address/CityTown
  Nameplate/Address/NationalCode TechnicalData/TechnicalProperties/Weight
  TechnicalData/TechnicalProperties/AmbientTemperature TechnicalData/FurtherInformation/ValidDate
  TechnicalData/GeneralInformation/ManufacturerOrderCode 'semanticId:0173-1#02-AAO676#003')
args=()
for c in "${columns[@]}"; do args+=(--column "$c"); done
declare -A secs kbs
for r in $(seq "$rounds"); do
  for what in census csv xlsx; do
    case $what in
      census) read -r s kb < <(run census "$aasmd" table --snapshot 1 --list-columns) ;;
      csv) read -r s kb < <(run csv "$aasmd" table --snapshot 1 "${args[@]}" --out "$work/t.csv") ;;
      xlsx) read -r s kb < <(run xlsx "$aasmd" table --snapshot 1 "${args[@]}" --format xlsx --out "$work/t.xlsx") ;;
    esac
    secs[$what]+="$s "; kbs[$what]+="$kb "
  done
done
echo "| aasmd table ($shells shells of --demo $assets, 12 columns, $(nproc) cores, $(date -u +%F)) | seconds (each run) | median s | peak MB (max) |"
echo "|---|---|---|---|"
for what in census csv xlsx; do
  peak=$(printf '%s\n' ${kbs[$what]} | sort -n | tail -1)
  printf '| %s | %s| %s | %d |\n' "$what" "${secs[$what]}" "$(median "${secs[$what]}")" $((peak / 1024))
done
runs_ok
