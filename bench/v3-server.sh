#!/usr/bin/env bash
# Issue 46's figures: a snapshot of an AAS V3 server (the demo service's Part 2 routes
# serving a --demo N plant, every request delayed LATENCY ms) taken by
# `aasmd --v3 URL snapshot take`, beside a plain sequential Python client of the same
# API (bench/peers/v3_requests.py: `requests`; once over the same pages, once following
# the shells' references to each submodel by its id) and beside the V2 snapshot of the
# same plant through the platform's gateway, in one run, release build: time and peak
# memory (GNU time); the peers' times from their own clocks.
# Usage: bench/v3-server.sh [ASSETS] [LATENCY_MS]   (defaults 11500, about 10,000 shells, and 20;
# the peer by id then makes some 70,000 requests one after the other: half an hour)
set -euo pipefail
cd "$(dirname "$0")/.."
assets=${1:-11500}
latency=${2:-20}
peer_python=${PEER_PYTHON:-/usr/bin/python3}
source bench/common.sh
build_aasmd
work=$(mktemp -d)
trap 'kill $demo_service_pid 2>/dev/null || true; rm -rf "$work"' EXIT
start_demo_service "$work" "$assets" --faults "latency=${latency}ms"
v3=$(line_field "$work/line.json" v3_url)

export AASMD_STORE=$work/store.sqlite3
read -r v3_s v3_kb < <(run v3 "$aasmd" --v3 "$v3" snapshot take)
read -r v2_s v2_kb < <(run v2 "$aasmd" --config "$work/line.json" snapshot take --plant DEMO-01)
"$peer_python" bench/peers/v3_requests.py "$v3" >"$work/peer.json"
"$peer_python" bench/peers/v3_requests.py --by-id "$v3" >"$work/peer-by-id.json"
peer() {
  python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
print(p["seconds"], p["waited"], p["requests"], p["shells"], p["submodels"])' "$1"
}
read -r peer_s peer_waited peer_requests shells submodels < <(peer "$work/peer.json")
read -r by_id_s by_id_waited by_id_requests by_id_shells by_id_submodels < <(peer "$work/peer-by-id.json")
[ "$by_id_shells $by_id_submodels" = "$shells $submodels" ] ||
  failed "the peer by id read $by_id_shells shells and $by_id_submodels submodels, the listing $shells and $submodels"
taken=$(python3 -c 'import json, sys; t = json.load(open(sys.argv[1])); print(t["shells"])' "$work/v3.out")
[ "$taken" = "$shells" ] || failed "aasmd took $taken shells, the peer read $shells"

cat <<TABLE
| what ($assets assets: $shells shells, $submodels submodels; ${latency} ms a request; $(nproc) cores; $(date -u +%F)) | seconds | peak MB |
|---|---|---|
| V3 snapshot: \`aasmd --v3 URL snapshot take\` | $v3_s | $((v3_kb / 1024)) |
| the same routes, \`bench/peers/v3_requests.py\` ($peer_requests requests, one after the other) | $peer_s | |
| of which waiting for the server's pages (what no client reading them one after the other spends less than) | $peer_waited | |
| peer ÷ aasmd (time) | $(python3 -c "print(round($peer_s / max($v3_s, 0.01), 2))") | |
| the shells' pages, then each submodel by its id, \`v3_requests.py --by-id\` ($by_id_requests requests, one after the other) | $by_id_s | |
| of which waiting for the server | $by_id_waited | |
| peer by id ÷ aasmd (time) | $(python3 -c "print(round($by_id_s / max($v3_s, 0.01), 2))") | |
| V2 snapshot of the same plant through the gateway | $v2_s | $((v2_kb / 1024)) |
TABLE
runs_ok
