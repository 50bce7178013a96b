#!/usr/bin/env bash
# Issue 26's figures for the team store, on the release build, against a throwaway
# PostgreSQL cluster (Debian's server, started as the tests start it: initdb into a
# temporary folder, loopback, scram passwords) and `aasmd demo-service`:
#  - `aasmd snapshot take` of a --demo BIG plant into PostgreSQL and into a SQLite file:
#    each one's time and aasmd's peak memory; how much a second take of the unchanged
#    plant grows the database;
#  - on a --demo SMALL plant in PostgreSQL: search, median and p95 of 20 queries, as
#    `aasmd search` (the whole process: start, connection, search) and as a desktop
#    searches (the store kept open: crates/aas-snapshot/examples/search_latency.rs); then
#    READERS readers, each a desktop searching in a loop (the same queries, PAUSE seconds
#    after each answer) while a take of the unchanged plant writes, for each PAUSE: their
#    median and p95, and the take's time against the same take alone; `aasmd diff` of
#    two snapshots after 1% of the machines changed.
# Usage: bench/team-store.sh [BIG] [SMALL]   (defaults 30000 10000); prints Markdown tables.
# Knobs (environment): READERS=8, READER_PAUSES="0 0.5" (0: as fast as they can, which on
# 2 cores is a test of the CPU more than of the store); AASMD_BIN and SEARCH_LATENCY_BIN
# (that aasmd, that build of the example: nothing built; `make bench-smoke`).
set -euo pipefail
cd "$(dirname "$0")/.."
big=${1:-30000} small=${2:-10000}
readers=${READERS:-8} pauses=${READER_PAUSES:-0 0.5}
source bench/common.sh
build_aasmd
[ -n "${SEARCH_LATENCY_BIN:-}" ] || cargo build --release -p aas-snapshot --example search_latency >&2
searcher=${SEARCH_LATENCY_BIN:-$target/release/examples/search_latency}
work=$(mktemp -d)
chmod 755 "$work"
trap 'kill $demo_service_pid 2>/dev/null || true; stop_postgres; rm -rf "$work"' EXIT
start_postgres "$work/pg"
for db in big small; do
  psql_in postgres "CREATE DATABASE $db"
  "$aasmd" store init --store "$(pg_url_of $db)" 2>/dev/null
done
db_bytes() { psql_in "$1" "SELECT pg_database_size(current_database())"; }
ratio() { python3 -c "import sys; print(round(float(sys.argv[1]) / max(float(sys.argv[2]), 0.01), 2))" "$1" "$2"; }
take() { # NAME STORE [LINE]: a take of DEMO-01 from the demo service of LINE into STORE
  run "$1" "$aasmd" --config "${3:-$work/big/line.json}" snapshot take --plant DEMO-01 --store "$2"
}

# 1. BIG: into a SQLite file, then into PostgreSQL twice.
echo "team-store: $big assets" >&2
start_demo_service "$work/big" "$big"
read -r sqlite_s sqlite_kb < <(take sqlite "$work/store.sqlite3")
read -r pg_s pg_kb < <(take pg "$(pg_url_of big)")
first=$(db_bytes big)
read -r again_s again_kb < <(take pg-again "$(pg_url_of big)")
second=$(db_bytes big)
kill "$demo_service_pid"; wait "$demo_service_pid" 2>/dev/null || true

# 2. SMALL: takes, searches alone, searches beside a take, a diff.
echo "team-store: $small assets" >&2
start_demo_service "$work/small" "$small" --admin-token
small_line=$work/small/line.json
url=$(pg_url_of small)
take first "$url" "$small_line" >/dev/null
read -r alone_s _ < <(take alone "$url" "$small_line")
read -r search_median search_p95 < <(for q in "${QUERIES[@]}" "${QUERIES[@]}"; do
  millis "$aasmd" search "$q" --limit 100 --store "$url"; done | median_p95)
read -r kept_median kept_p95 < <("$searcher" "$url" 2 0 "$work/stop" "${QUERIES[@]}" | median_p95)

reader() { # N PAUSE: a desktop searching until $work/stop exists, a time a line into $work/reader-N
  "$searcher" "$url" 1000000 "$2" "$work/stop" "${QUERIES[@]}" >"$work/reader-$1"
}
busy_rows=""
for pause in $pauses; do
  rm -f "$work"/reader-* "$work/stop"
  pids=()
  for n in $(seq "$readers"); do reader "$n" "$pause" & pids+=($!); done
  sleep 1
  read -r busy_s _ < <(take busy "$url" "$small_line")
  touch "$work/stop"
  wait "${pids[@]}" 2>/dev/null || true
  searches=$(cat "$work"/reader-* | wc -l)
  read -r busy_median busy_p95 < <(cat "$work"/reader-* | median_p95)
  busy_rows+="| $readers desktops, each searching ${pause} s after its last answer, while a take writes: median, p95 ($searches searches) | ${busy_median} ms, ${busy_p95} ms | p95 ≤ 100 ms |
| that take ÷ the same take alone (time) | ${busy_s} s ÷ ${alone_s} s = $(ratio "$busy_s" "$alone_s") | ≤ 1.3 |
"
done

change_one_percent "$small_line" "$small"
take changed "$url" "$small_line" >/dev/null
read -r diff_s diff_kb < <(run diff "$aasmd" diff --json --store "$url")
changes=$(python3 -c "import json, sys; print(len(json.load(open(sys.argv[1]))))" "$work/diff.out")

cat <<TABLE
| what ($big assets, $(nproc) cores, $(date -u +%F)) | figure | target |
|---|---|---|
| take into SQLite: time, aasmd's peak memory | ${sqlite_s} s, $((sqlite_kb / 1024)) MB | |
| take into PostgreSQL: time, aasmd's peak memory | ${pg_s} s, $((pg_kb / 1024)) MB | ≤ 300 MB |
| PostgreSQL ÷ SQLite (time) | $(ratio "$pg_s" "$sqlite_s") | ≤ 2 |
| database after one snapshot | $((first / 1048576)) MB | |
| second take of the unchanged plant: time, peak memory, growth | ${again_s} s, $((again_kb / 1024)) MB, $(python3 -c "print(round(100 * ($second - $first) / $first, 2))") % | ≤ 5 % |

| what ($small assets in PostgreSQL, $(nproc) cores) | figure | target |
|---|---|---|
| search (20 queries), \`aasmd search\` (the whole process): median, p95 | ${search_median} ms, ${search_p95} ms | p95 ≤ 50 ms |
| search (20 queries), the store kept open as a desktop keeps it: median, p95 | ${kept_median} ms, ${kept_p95} ms | p95 ≤ 50 ms |
${busy_rows}| diff after 1% of the machines changed: time, peak memory, entries | ${diff_s} s, $((diff_kb / 1024)) MB, ${changes} | ≤ 1 s |
TABLE
runs_ok
