#!/usr/bin/env bash
# How many small GETs per second the demo service serves: wrk replays the drill-down
# routes (AAS, submodel list, element list, one element) of every asset of a
# generated plant, with valid tokens, against `aasmd demo-service` on loopback.
#
# Usage: bench/demo-service-load.sh [ASSETS] [SECONDS] [CONNECTIONS]   (needs wrk: apt install wrk)
# Uses the release build: cargo build --release -p aas-cli (another aasmd: AASMD_BIN,
# as `make bench-smoke` passes its debug build).
set -euo pipefail
assets=${1:-1000}; seconds=${2:-10}; conns=${3:-64}
target=${CARGO_TARGET_DIR:-$HOME/.cache/aas-browser/target}
aasmd=${AASMD_BIN:-${AASMD:-$target/release/aasmd}}
work=$(mktemp -d)
trap 'kill $pid 2>/dev/null || true; rm -rf "$work"' EXIT

"$aasmd" demo-service --demo "$assets" >"$work/line.json" 2>/dev/null &
pid=$!
for _ in $(seq 200); do [ -s "$work/line.json" ] && break; sleep 0.05; done
field() { python3 -c "import json; print(json.load(open('$work/line.json'))['$1'])"; }
base=$(field registry_url); gw=$(field gateway_url)
export USER_TOKEN; USER_TOKEN=$(field user_token)
export ACCESS_TOKEN; ACCESS_TOKEN=$(curl -sf -X POST "$(field auth_url)/auth/realms/$(field realm)/protocol/openid-connect/token" \
  --data-urlencode grant_type=client_credentials --data-urlencode "client_id=$(field client_id)" \
  --data-urlencode "client_secret=$(field client_secret)" | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')

# The gateway paths of every shared asset, from the registry.
curl -sf -H "Authorization: Bearer $ACCESS_TOKEN" "$base/api/v1/registry" | python3 -c '
import json, sys, urllib.parse
prefix = urllib.parse.urlparse(sys.argv[1]).path
for d in json.load(sys.stdin):
    aas = prefix + "/aasList/" + urllib.parse.quote(d["identification"]["id"], safe="")
    print(aas)
    print(aas + "/aas/submodels")
    print(aas + "/aas/submodels/Nameplate/submodel/submodelElements")
    print(aas + "/aas/submodels/Nameplate/submodel/submodelElements/ManufacturerName")
' "$gw" >"$work/paths.txt"
echo "$(wc -l <"$work/paths.txt") distinct paths, $conns connections, ${seconds}s" >&2
WRK_PATHS=$work/paths.txt wrk -t2 -c"$conns" -d"${seconds}s" -s "$(dirname "$0")/wrk-paths.lua" "$base"
