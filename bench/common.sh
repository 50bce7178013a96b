# What the bench scripts share (sourced, not run): the release
# aasmd, a demo service of a generated plant, timing a command, the search queries, changing
# 1% of the machines, percentiles, and a throwaway PostgreSQL server.
# Each script sets `work` (a temporary folder) before calling these.

target=${CARGO_TARGET_DIR:-$HOME/.cache/aas-browser/target}
# AASMD_BIN: that aasmd, nothing built (`make bench-smoke` passes its debug build).
aasmd=${AASMD_BIN:-$target/release/aasmd}

# build_aasmd: the release aasmd built, unless AASMD_BIN names one.
build_aasmd() {
  [ -n "${AASMD_BIN:-}" ] || cargo build --release -p aas-cli >&2
}

# The search queries: serial numbers of machines, and words (each twice: 20 searches).
QUERIES=(Stuttgart "SN-M-0001" "Acme Tools" "Operating manual" "0173-1#02" pump "SN-T-00" urn:demo-platform Wartung CNC)

# start_demo_service DIR ASSETS [ARGS...]: `aasmd demo-service --demo ASSETS ARGS` in the background,
# its start-up line in DIR/line.json once it listens; its pid in $demo_service_pid.
start_demo_service() {
  local dir=$1 assets=$2; shift 2
  mkdir -p "$dir"
  "$aasmd" demo-service --demo "$assets" "$@" >"$dir/line.json" 2>/dev/null &
  demo_service_pid=$!
  for _ in $(seq 6000); do [ -s "$dir/line.json" ] && return; sleep 0.1; done
  echo "the demo service did not start" >&2; return 1
}

# demo_snapshot ASSETS: the release aasmd built (build_aasmd), then one snapshot of the plant DEMO-01
# of `aasmd demo-service --demo ASSETS` (a 100,000-asset plant takes minutes to generate) in
# $work/store.sqlite3, exported as AASMD_STORE; the demo service stopped again. Sets `work`
# (a temporary folder, removed at exit), `taken` (the snapshot's line) and `shells`.
demo_snapshot() {
  build_aasmd
  work=$(mktemp -d)
  trap 'kill $demo_service_pid 2>/dev/null || true; rm -rf "$work"' EXIT
  start_demo_service "$work" "$1"
  export AASMD_STORE=$work/store.sqlite3
  taken=$("$aasmd" --config "$work/line.json" snapshot take --plant DEMO-01)
  shells=$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["shells"])' "$taken")
  kill $demo_service_pid
}

# median "N N N": the middle of the numbers.
median() { printf '%s\n' $1 | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# run NAME COMMAND...: prints "seconds peak-kB" of COMMAND (GNU time; RUN_FORMAT, if
# set, says what else: "%U %S" adds its user and system CPU seconds); its stdout in
# $work/NAME.out. An exit status other than RUN_OK's (default "0") is said on stderr
# and recorded for runs_ok.
run() {
  local name=$1; shift
  /usr/bin/time -f "%x %e %M ${RUN_FORMAT:-}" -o "$work/$name.time" "$@" >"$work/$name.out" 2>"$work/$name.err" || true
  local status figures
  read -r status figures < <(tail -1 "$work/$name.time")
  case " ${RUN_OK:-0} " in
    *" $status "*) ;;
    *) failed "$name: $* exited with $status: $(tail -3 "$work/$name.err")" ;;
  esac
  echo "$figures"
}

# failed WHAT: says WHAT on stderr and records it for runs_ok (run and millis are called
# in subshells, so in a file).
failed() {
  echo "bench: $1" >&2
  echo "$1" >>"$work/failed"
}

# runs_ok: exits 1 if a command run by run or millis failed (its figures are not figures).
runs_ok() {
  if [ -s "$work/failed" ]; then
    echo "bench: $(wc -l <"$work/failed") command(s) failed; the figures above are not to be trusted" >&2
    exit 1
  fi
}

# line_field LINE_FILE NAME: a field of a demo service's start-up line.
line_field() {
  python3 -c "import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"
}

# change_one_percent LINE_FILE ASSETS: a new ManufacturerName for 1% of the assets (the
# first machines), through the demo service's admin surface (it needs --admin-token).
change_one_percent() {
  local token admin
  token=$(line_field "$1" admin_token)
  admin="$(line_field "$1" registry_url)/demo-service/admin/elements"
  python3 - "$2" <<'PY' | while read -r body; do curl -sf -o /dev/null -X PATCH -H "Authorization: Bearer $token" -H 'Content-Type: application/json' -d "$body" "$admin" || true; done
import json, sys
n = min(int(sys.argv[1]) // 100, int(sys.argv[1]) // 8) or 1
for i in range(1, n + 1):
    print(json.dumps({"aas_id": f"urn:demo-platform:acme:DEMO-01:aas:machine#M-{i:04d}", "submodel": "Nameplate",
                      "path": ["ManufacturerName"], "value": f"Changed {i}"}))
PY
}

# median_p95 < numbers: "median p95" of one number a line.
median_p95() {
  sort -n | awk '{a[NR]=$1} END {i=int(NR*0.95); if (i < 1) i = 1; print a[int(NR/2)+1], a[i]}'
}

# millis COMMAND...: runs it, prints its wall time in milliseconds (a failure recorded
# for runs_ok).
millis() {
  local start; start=$(date +%s%N)
  "$@" >/dev/null 2>&1 || failed "$* failed"
  echo $(( ($(date +%s%N) - start) / 1000000 ))
}

# start_postgres DIR: a throwaway cluster of Debian's server in DIR (as the `postgres`
# user when run as root: initdb refuses root), scram passwords, on a free loopback port;
# sets pg_url_of (a function: DATABASE → URL without the password) and exports
# PGPASSFILE for aasmd and psql. stop_postgres stops it.
start_postgres() {
  pg_dir=$1
  local bin; bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  pg_bin=$bin
  mkdir -p "$pg_dir"
  pg_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  local password; password=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
  echo "$password" >"$pg_dir/pw"
  as_postgres=()
  if [ "$(id -u)" -eq 0 ]; then chown -R postgres: "$pg_dir"; as_postgres=(runuser -u postgres --); fi
  "${as_postgres[@]}" "$bin/initdb" -D "$pg_dir/data" -A scram-sha-256 --pwfile="$pg_dir/pw" -U postgres >/dev/null
  "${as_postgres[@]}" "$bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/log" -w \
    -o "-p $pg_port -k $pg_dir -c listen_addresses=127.0.0.1" start >/dev/null
  export PGPASSFILE=$work/pgpass
  (umask 077; echo "127.0.0.1:$pg_port:*:postgres:$password" >"$PGPASSFILE")
}

pg_url_of() { echo "postgres://postgres@127.0.0.1:$pg_port/$1"; }

psql_in() { psql -X -q -At -h 127.0.0.1 -p "$pg_port" -U postgres -d "$1" -c "$2"; }

stop_postgres() {
  [ -n "${pg_dir:-}" ] && "${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -m fast stop >/dev/null 2>&1 || true
}
