#!/usr/bin/env bash
# Writes the seed inputs of the five fuzz targets into OUT/TARGET: the AAS samples in
# ../shared/aas-samples and real answers of `aasmd demo-service` (its default demo plant,
# the one the demo_service_requests target serves). `cargo fuzz cmin` then keeps the seeds
# that add coverage as the committed corpus (see README.md).
# Usage: fuzz/seed.sh PATH/TO/aasmd OUT
set -euo pipefail
aasmd=$(realpath "$1")
out=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"/{model_parse,token_response,segment_round_trip,demo_service_requests,v3_convert}

line=$(mktemp)
"$aasmd" demo-service --addr 127.0.0.1:0 >"$line" &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -f "$line"' EXIT
for _ in $(seq 100); do [ -s "$line" ] && break; sleep 0.05; done
field() { jq -r ".$1" "$line"; }
export AASMD_CLIENT_SECRET=$(field client_secret) AASMD_USER_TOKEN=$(field user_token)

# model_parse: every sample, and each kind of answer the client reads.
find "$here/../../shared/aas-samples" -name '*.json' ! -path '*/schema/*' \
  -exec install -m 644 -t "$out/model_parse" {} +
# v3_convert: the same JSON samples.
find "$here/../../shared/aas-samples" -name '*.json' ! -path '*/schema/*' \
  -exec install -m 644 -t "$out/v3_convert" {} +
aas='urn:demo-platform:acme:DEMO-01:aas:machine#M-0001'
answer() { # NAME, aasmd arguments
  local name=$1
  shift
  "$aasmd" --config "$line" "$@" >"$out/model_parse/$name.json"
}
answer registry registry
answer list list --plant DEMO-01 --type machine
answer aas aas "$aas"
answer submodels submodels "$aas"
answer submodel submodel "$aas" Nameplate
answer elements elements "$aas" Nameplate
answer element element "$aas" Nameplate Address
"$aasmd" --config "$line" crawl --plant DEMO-01 --type machine --format aasx \
  --out "$out/model_parse/machines.aasx" 2>/dev/null

# token_response: the demo service's answer (its token replaced by an unsigned one: no
# credential goes into the corpus), and the shapes other servers send.
jwt="e30.$(printf '{"exp":1900000000}' | base64 -w0 | tr '+/' '-_' | tr -d '=').sig"
curl -sf -X POST "$(field auth_url)/auth/realms/$(field realm)/protocol/openid-connect/token" \
  --data-urlencode grant_type=client_credentials \
  --data-urlencode "client_id=$(field client_id)" \
  --data-urlencode "client_secret=$AASMD_CLIENT_SECRET" |
  jq -c --arg t "$jwt" '.access_token = $t' >"$out/token_response/demo-service.json"
printf '{"access_token":"opaque","expires_in":"120"}' >"$out/token_response/string-expiry.json"
printf '{"access_token":"%s","token_type":"Bearer"}' "$jwt" >"$out/token_response/jwt-only.json"

# segment_round_trip: the identifiers of the demo plant and the samples.
for f in "$out"/model_parse/*.json; do # one sample starts with a byte order mark
  sed '1s/^\xEF\xBB\xBF//' "$f" | jq -r '.. | objects | (.id?, .idShort?) | strings'
done | sort -u | while IFS= read -r id; do
    printf '%s' "$id" >"$out/segment_round_trip/$(printf '%s' "$id" | sha1sum | cut -c1-16)"
  done

# demo_service_requests: each route, with placeholders for the credentials.
enc=$(jq -rn --arg s "$aas" '$s|@uri')
gw=/gateway/aasList
both=$'Authorization: Bearer $ACCESS_TOKEN\nUserToken: Bearer $USER_TOKEN'
token=/auth/realms/demo/protocol/openid-connect/token
req() { printf '%s' "$2" >"$out/demo_service_requests/$1"; }
req token-form "POST $token"$'\nContent-Type: application/x-www-form-urlencoded\n\n'"grant_type=client_credentials&client_id=\$CLIENT_ID&client_secret=\$CLIENT_SECRET"
req token-basic "POST $token"$'\nContent-Type: application/x-www-form-urlencoded\nAuthorization: Basic $BASIC\n\ngrant_type=client_credentials'
req certs "GET /auth/realms/demo/protocol/openid-connect/certs"
req registry $'GET /api/v1/registry\nAuthorization: Bearer $ACCESS_TOKEN'
req list "GET $gw?AssetType=machine&PlantCode=DEMO-01"$'\n'"$both"
req aas "GET $gw/$enc"$'\n'"$both"
req submodels "GET $gw/$enc/aas/submodels"$'\n'"$both"
req submodel "GET $gw/$enc/aas/submodels/Nameplate"$'\n'"$both"
req elements "GET $gw/$enc/aas/submodels/Nameplate/submodel/submodelElements"$'\n'"$both"
req element "GET $gw/$enc/aas/submodels/Nameplate/submodel/submodelElements/Address/CityTown"$'\n'"$both"
req stats "GET /demo-service/stats"
req grants $'GET /demo-service/admin/grants\nAuthorization: Bearer $ADMIN_TOKEN'
req set-grant $'PUT /demo-service/admin/grants\nAuthorization: Bearer $ADMIN_TOKEN\nContent-Type: application/json\n\n'"{\"client_id\":\"\$CLIENT_ID\",\"aas_id\":\"$aas\",\"grant\":\"allowed\"}"
req user-token $'POST /demo-service/admin/user-tokens\nAuthorization: Bearer $ADMIN_TOKEN\nContent-Type: application/json\n\n{"tenant":"acme","user":"u","plants":["DEMO-01"],"ttl_secs":60}'
# Sequences: what one request changes is what the next one meets.
sep=$'\n===\n'
deny=$'PUT /demo-service/admin/grants\nAuthorization: Bearer $ADMIN_TOKEN\nContent-Type: application/json\n\n'"{\"client_id\":\"\$CLIENT_ID\",\"aas_id\":\"$aas\",\"grant\":\"denied\"}"
req deny-then-read "$deny$sep""GET $gw/$enc"$'\n'"$both$sep"$'GET /demo-service/admin/grants\nAuthorization: Bearer $ADMIN_TOKEN'
req deny-then-allow "$deny$sep${deny/denied/allowed}$sep""GET $gw/$enc/aas/submodels"$'\n'"$both"
req mint-then-read $'POST /demo-service/admin/user-tokens\nAuthorization: Bearer $ADMIN_TOKEN\nContent-Type: application/json\n\n{"tenant":"acme","user":"u","plants":[],"ttl_secs":60}'"$sep""GET $gw?AssetType=machine&PlantCode=DEMO-01"$'\n'"$both"
