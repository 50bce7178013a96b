#!/usr/bin/env bash
# Issue 45's figures: a large AASX read whole. The package is the demo plant of ASSETS
# assets exported by aasmd as AAS V3.0 in FORMAT: v3.0-aasx-xml (an XML spec part, the
# default) or v3.0-aasx (a JSON one), both of which BaSyx Python 1.2.1 reads; it is read
# ROUNDS times, interleaved,
# by the reading the app's Open makes, alone (aas-file's example read_file: every shell,
# submodel and element into the model, counted; and when its shells were all read, which
# the window shows before the rest), by `aasmd inspect FILE --elements` (the
# same, each listed as a JSON line, to /dev/null) and by Eclipse BaSyx Python SDK
# 1.2.1's own AASXReader (bench/peers/basyx_read.py, in the virtual environment
# `scripts/install-deps.sh test` makes). Time and peak memory (GNU time), release build
# (READ_FILE_BIN names another read_file, as AASMD_BIN another aasmd), beside the spec
# part's size.
# Usage: bench/file-open.sh [ASSETS] [ROUNDS] [FORMAT]   (defaults 11500, 3, v3.0-aasx-xml)
set -euo pipefail
cd "$(dirname "$0")/.."
assets=${1:-11500}
rounds=${2:-3}
format=${3:-v3.0-aasx-xml}
case $format in
  v3.0-aasx-xml) serialisation=XML ;;
  v3.0-aasx) serialisation=JSON ;;
  *) echo "bench/file-open.sh: FORMAT is v3.0-aasx-xml or v3.0-aasx, not $format" >&2; exit 2 ;;
esac
basyx_python=${BASYX_PYTHON:-$HOME/.cache/aas-browser/basyx-server/bin/python}
[ -x "$basyx_python" ] || { echo "bench/file-open.sh: $basyx_python is missing: scripts/install-deps.sh test" >&2; exit 2; }
source bench/common.sh
read_file=${READ_FILE_BIN:-$target/release/examples/read_file}
[ -n "${READ_FILE_BIN:-}" ] || cargo build --release -p aas-file --example read_file >&2
demo_snapshot "$assets"
file=$work/plant.aasx
"$aasmd" export --snapshot 1 --format "$format" --out "$file" 2>/dev/null
part_bytes=$(python3 - "$file" <<'PY'
import sys, zipfile
parts = [i for i in zipfile.ZipFile(sys.argv[1]).infolist()
         if i.filename.endswith(('.xml', '.json')) and not i.filename.startswith('[')]
print(max(i.file_size for i in parts))
PY
)
declare -A secs kbs
first=""  # seconds until read_file had all shells, each run
for r in $(seq "$rounds"); do
  read -r s kb < <(run read "$read_file" "$file")
  secs[read]+="$s "; kbs[read]+="$kb "
  first+="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["shells_at_s"])' "$work/read.out") "
  read -r s kb < <(run aasmd sh -c 'exec "$0" inspect "$1" --elements >/dev/null' "$aasmd" "$file")
  secs[aasmd]+="$s "; kbs[aasmd]+="$kb "
  read -r s kb < <(run basyx "$basyx_python" bench/peers/basyx_read.py "$file")
  secs[basyx]+="$s "; kbs[basyx]+="$kb "
done
read -r shells submodels < <(python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
print(p["shells"], p["submodels"])' "$work/basyx.out")
read_shells=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["shells"])' "$work/read.out")
[ "$read_shells" = "$shells" ] || failed "aasmd read $read_shells shells, BaSyx $shells"
elements=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["elements"])' "$work/read.out")

part_mb=$((part_bytes / 1000000))
read_s=$(median "${secs[read]}")
basyx_s=$(median "${secs[basyx]}")
echo "| reader ($assets assets: $shells shells, $submodels submodels, $elements elements; AASX $(($(stat -c %s "$file") / 1000000)) MB, $serialisation spec part $part_mb MB; $(nproc) cores; $(date -u +%F)) | seconds (each run) | median s | peak MB (max) | peak ÷ spec part |"
echo "|---|---|---|---|---|"
for reader in read aasmd basyx; do
  peak=$(printf '%s\n' ${kbs[$reader]} | sort -n | tail -1)
  case $reader in
    read) name='the reading Open makes (`read_file`)' ;;
    aasmd) name='`aasmd inspect FILE --elements`' ;;
    basyx) name='BaSyx Python 1.2.1 `AASXReader.read_into`' ;;
  esac
  printf '| %s | %s| %s | %d | %.1f |\n' "$name" "${secs[$reader]}" "$(median "${secs[$reader]}")" \
    $((peak / 1024)) "$(echo "$peak * 1024 / $part_bytes" | bc -l)"
done
printf '| the reading Open makes, until all shells were read (the tree shows them then) | %s| %s | | |\n' "$first" "$(median "$first")"
printf '| BaSyx ÷ the reading Open makes (median time) | | %.1f | | |\n' "$(echo "$basyx_s / $read_s" | bc -l)"
runs_ok
