#!/usr/bin/env bash
# Issue 23 item 8: what one large element value costs, on the release build. A demo service
# serves one shell whose submodel "Big" holds a Property of SIZE_MB megabytes (read with
# --data from a generated environment file); GNU time measures each command's peak
# memory:
#  - `aasmd elements` of that answer (printed unchanged, from a temporary file),
#  - `aasmd snapshot take` of the plant (the value is stored whole, indexed by its start),
#  - `aasmd search` of a word at the value's start,
#  - `aasmd export --snapshot --format env`.
# Usage: bench/large-value.sh [SIZE_MB]   (default 200); prints a Markdown table, and
# exits 1 if a command failed. AASMD_BIN: that aasmd, nothing built (`make bench-smoke`).
set -euo pipefail
size_mb=${1:-200}
source "$(dirname "$0")/common.sh"
build_aasmd
work=$(mktemp -d)
trap 'kill $pid 2>/dev/null || true; rm -rf "$work"' EXIT
python3 - "$work/env.json" "$size_mb" <<'PY'
import json, sys
path, mb = sys.argv[1], int(sys.argv[2])
head = {"assetAdministrationShells": [{"modelType": {"name": "AssetAdministrationShell"}, "idShort": "Large",
        "identification": {"idType": "IRI", "id": "urn:bench:aas:large"},
        "asset": {"keys": [{"type": "Asset", "local": True, "value": "urn:bench:asset:large", "idType": "IRI"}]},
        "submodels": [{"keys": [{"type": "Submodel", "local": True, "value": "urn:bench:sm:big", "idType": "IRI"}]}]}],
        "assets": [{"modelType": {"name": "Asset"}, "idShort": "LargeAsset", "kind": "Instance",
                    "identification": {"idType": "IRI", "id": "urn:bench:asset:large"}}],
        "submodels": [{"modelType": {"name": "Submodel"}, "idShort": "Big", "kind": "Instance",
                       "identification": {"idType": "IRI", "id": "urn:bench:sm:big"},
                       "submodelElements": [{"modelType": {"name": "Property"}, "idShort": "Blob",
                                             "valueType": "string", "value": "@VALUE@"}]}],
        "conceptDescriptions": []}
before, after = json.dumps(head).split("@VALUE@")
with open(path, "w") as f:
    f.write(before)
    f.write("LARGE-START ")
    chunk = "0123456789abcdef" * 65536
    for _ in range(mb):
        f.write(chunk)
    f.write(after)
PY
"$aasmd" demo-service --demo 0 --data "$work/env.json" --plant LARGE-01 >"$work/line.json" 2>/dev/null &
pid=$!
for _ in $(seq 600); do [ -s "$work/line.json" ] && break; sleep 0.1; done
export AASMD_STORE=$work/store.sqlite3
run() { # NAME, command...: "seconds peak-kB exit-code" of the command, via GNU time
  local name=$1; shift
  /usr/bin/time -f "%e %M %x" -o "$work/$name.time" "$@" >"$work/$name.out" 2>"$work/$name.err" || true
  tail -1 "$work/$name.time"
}
c=(--config "$work/line.json")
read -r el_s el_kb el_x < <(run elements "$aasmd" "${c[@]}" elements urn:bench:aas:large Big)
read -r take_s take_kb take_x < <(run take "$aasmd" "${c[@]}" snapshot take --plant LARGE-01)
read -r search_s search_kb search_x < <(run search "$aasmd" search LARGE-START)
read -r export_s export_kb export_x < <(run export "$aasmd" export --snapshot 1 --format env --out "$work/out.json")
ratio() { python3 -c "print(round($1 / 1024 / $size_mb, 2))"; }
cat <<TABLE
| command (one ${size_mb} MB value, $(nproc) cores, $(date -u +%F)) | exit | time | peak memory | ÷ value size |
|---|---|---|---|---|
| \`aasmd elements\` (printed unchanged) | ${el_x} | ${el_s} s | $((el_kb / 1024)) MB | $(ratio "$el_kb") |
| \`aasmd snapshot take\` | ${take_x} | ${take_s} s | $((take_kb / 1024)) MB | $(ratio "$take_kb") |
| \`aasmd search LARGE-START\` | ${search_x} | ${search_s} s | $((search_kb / 1024)) MB | $(ratio "$search_kb") |
| \`aasmd export --snapshot 1 --format env\` | ${export_x} | ${export_s} s | $((export_kb / 1024)) MB | $(ratio "$export_kb") |
TABLE
for x in "$el_x" "$take_x" "$search_x" "$export_x"; do
  [ "$x" = 0 ] || { echo "bench/large-value.sh: a command failed (the exit column)" >&2; exit 1; }
done
