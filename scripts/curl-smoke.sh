#!/usr/bin/env bash
# Starts `aasmd demo-service`, reads its one-line JSON, and reaches the token endpoint, the
# registry and all six gateway routes with plain curl (identifiers encoded by hand).
# Usage: scripts/curl-smoke.sh PATH/TO/aasmd
set -euo pipefail
aasmd=$1
line_file=$(mktemp)
"$aasmd" demo-service --addr 127.0.0.1:0 >"$line_file" &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -f "$line_file"' EXIT
for _ in $(seq 100); do [ -s "$line_file" ] && break; sleep 0.05; done
[ "$(wc -l <"$line_file")" -eq 1 ] || { echo "expected exactly one start-up line" >&2; exit 1; }

field() { python3 -c "import json,sys; print(json.load(open('$line_file'))['$1'])"; }
auth=$(field auth_url); realm=$(field realm); gw=$(field gateway_url); reg=$(field registry_url)
token=$(curl -sf -X POST "$auth/auth/realms/$realm/protocol/openid-connect/token" \
  -H 'content-type: application/x-www-form-urlencoded' \
  --data-urlencode grant_type=client_credentials \
  --data-urlencode "client_id=$(field client_id)" \
  --data-urlencode "client_secret=$(field client_secret)" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')
user=$(field user_token)

check() { # URL, expected status
  code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" \
    -H "UserToken: Bearer $user" "$1")
  printf '%s %s\n' "$code" "${1#"$gw"}"
  [ "$code" = "$2" ] || { echo "expected $2" >&2; exit 1; }
}
aas='urn%3Ademo-platform%3Aacme%3ADEMO-01%3Aaas%3Amachine%23M-0001'
check "$reg/api/v1/registry" 200
check "$gw/aasList?AssetType=machine&PlantCode=DEMO-01" 200
check "$gw/aasList/$aas" 200
check "$gw/aasList/$aas/aas/submodels" 200
check "$gw/aasList/$aas/aas/submodels/Nameplate" 200
check "$gw/aasList/$aas/aas/submodels/Nameplate/submodel/submodelElements" 200
check "$gw/aasList/$aas/aas/submodels/Nameplate/submodel/submodelElements/SerialNumber" 200
check "$gw/aasList/$aas/aas/submodels/Nameplate/submodel/submodelElements/Address/CityTown" 200
check "$gw/aasList?AssetType=machine" 400
check "$gw/aasList/urn%3Anope" 404
echo "curl smoke test: token, registry and all six gateway routes answered" >&2
