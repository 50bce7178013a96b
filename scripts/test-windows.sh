#!/usr/bin/env bash
# `make test-windows`: tries what scripts/package-windows.sh made (dist/windows/) under
# Wine 8 from Debian, headless, in a throwaway Wine prefix. Prints each check; exits
# non-zero on the first failure.
#   scripts/test-windows.sh LINUX_AASMD
# LINUX_AASMD: a Linux build of aasmd, the reference the Windows crawl must equal.
set -euo pipefail
cd "$(dirname "$0")/.."
linux_aasmd=$(realpath "${1:?usage: scripts/test-windows.sh PATH/TO/LINUX/aasmd}")
version=$(python3 -c 'import json; print(json.load(open("src-tauri/tauri.conf.json"))["version"])')
name=AAS-Master-Data-Browser_${version}_x64
setup=$PWD/dist/windows/$name-setup.exe
zip=$PWD/dist/windows/$name-portable.zip

work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  WINEPREFIX=$work/prefix wineserver -k 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAILED: $*" >&2; exit 1; }
ok() { echo "ok: $*"; }

export WINEPREFIX=$work/prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
unset DISPLAY  # the command-line checks need no display; Wine then makes no windows
wineboot -i >/dev/null 2>&1 || fail "wineboot could not make a prefix"
# Wine 8 lacks bcryptprimitives.dll, where Rust's std (1.78+) gets random numbers;
# every real Windows 10/11 has it. A test-only stand-in, never shipped.
x86_64-w64-mingw32-gcc -O2 -shared -s -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" \
  scripts/windows/bcryptprimitives-shim.c -ladvapi32
# Test-only helpers: one closes a window as a click on its X would, one keeps a secret in
# the Credential Manager as the keyring crate does.
x86_64-w64-mingw32-gcc -O2 -s -o "$work/close-window.exe" scripts/windows/close-window.c
x86_64-w64-mingw32-gcc -O2 -s -municode -o "$work/cred-write.exe" scripts/windows/cred-write.c -ladvapi32
C=$WINEPREFIX/drive_c

# --- The portable zip: what is in it, and its exes are the ones tested below.
7z x -bd -bso0 -o"$work/zip" "$zip"
for f in aas-browser.exe aasmd.exe WebView2Loader.dll README.txt; do
  [ -s "$work/zip/$name/$f" ] || fail "$f missing from $(basename "$zip")"
done
ok "portable zip holds aas-browser.exe, aasmd.exe, WebView2Loader.dll, README.txt"
aasmd=$work/zip/$name/aasmd.exe
gui=$work/zip/$name/aas-browser.exe

# --- aasmd.exe: help, the demo service's line, a crawl equal to the Linux build's.
wine "$aasmd" --help > "$work/help.txt" || fail "aasmd.exe --help exited $?"
grep -q '^Usage: aasmd.exe' "$work/help.txt" || fail "aasmd.exe --help printed no usage"
wine "$aasmd" demo-service --help | grep -q 'Usage: aasmd.exe demo-service' || fail "aasmd.exe demo-service --help"
ok "aasmd.exe --help and demo service --help"

wine "$aasmd" demo-service --addr 127.0.0.1:0 --admin-token > "$work/demo-service.json" 2> "$work/demo-service.err" &
pids+=($!)
for _ in $(seq 100); do [ -s "$work/demo-service.json" ] && break; sleep 0.2; done
python3 -c 'import json,sys; l=json.load(open(sys.argv[1])); assert l["plants"]==["DEMO-01"], l' \
  "$work/demo-service.json" || fail "the Windows demo service printed no start-up line: $(cat "$work/demo-service.err")"
ok "aasmd.exe demo-service printed its line: $(head -c 60 "$work/demo-service.json")…"
config="Z:${work//\//\\}\\demo-service.json"   # the same file as Windows names it

# The Windows client and the Linux client crawl the same (Windows) demo service; an --out
# with a drive letter and a space. The env JSON holds no times, so it must be equal.
mkdir -p "$C/aas exports"
wine "$aasmd" --config "$config" crawl --plant DEMO-01 --format env \
  --out 'C:\aas exports\plant.json' 2> "$work/crawl.err" || fail "crawl exited $?: $(cat "$work/crawl.err")"
[ -s "$C/aas exports/plant.json" ] || fail "crawl --out 'C:\\aas exports\\plant.json' wrote nothing"
"$linux_aasmd" --config "$work/demo-service.json" crawl --plant DEMO-01 --format env \
  --out "$work/plant-linux.json" 2>/dev/null || fail "the Linux crawl failed"
cmp "$C/aas exports/plant.json" "$work/plant-linux.json" || fail "the Windows crawl differs from the Linux one"
ok "crawl to C:\\aas exports\\plant.json ($(stat -c %s "$work/plant-linux.json") bytes) equals the Linux build's, byte for byte"

# A file name Windows refuses (a device's) is refused with words and exit code 2, before
# anything is fetched or written.
set +e
wine "$aasmd" --config "$config" crawl --plant DEMO-01 --format env \
  --out 'C:\aas exports\aux.json' 2> "$work/aux.err"
code=$?
set -e
[ "$code" = 2 ] || fail "crawl --out ...aux.json exited $code, not 2: $(cat "$work/aux.err")"
grep -q 'aux is the name of a device on Windows.*"aux_.json"' "$work/aux.err" \
  || fail "crawl --out ...aux.json did not say why: $(cat "$work/aux.err")"
ok "crawl --out 'C:\\aas exports\\aux.json' refused, exit 2: $(tail -1 "$work/aux.err" | cut -c1-150)"

# The same demo plant served by a Linux demo service: the whole stack, not only the client.
"$linux_aasmd" demo-service --addr 127.0.0.1:0 > "$work/demo-service-linux.json" 2>/dev/null &
pids+=($!)
for _ in $(seq 100); do [ -s "$work/demo-service-linux.json" ] && break; sleep 0.1; done
"$linux_aasmd" --config "$work/demo-service-linux.json" crawl --plant DEMO-01 --format env \
  --out "$work/plant-all-linux.json" 2>/dev/null || fail "the all-Linux crawl failed"
cmp "$C/aas exports/plant.json" "$work/plant-all-linux.json" || fail "Windows demo service+client differ from Linux's"
ok "Windows demo service + Windows client equal Linux demo service + Linux client, byte for byte"

# --- Snapshots in a store under a Windows path (with a space): take, change, take, search, diff.
store='C:\aas data\store.sqlite3'
mkdir -p "$C/aas data"
wine "$aasmd" snapshot take --config "$config" --plant DEMO-01 --store "$store" 2>/dev/null >/dev/null \
  || fail "snapshot take (1) exited $?"
line=$work/demo-service.json
base=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["registry_url"])' "$line")
admin=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["admin_token"])' "$line")
status=$(curl -s -o /dev/null -w '%{http_code}' -X PATCH -H "Authorization: Bearer $admin" \
  -H 'Content-Type: application/json' "$base/demo-service/admin/elements" \
  -d '{"aas_id":"urn:demo-platform:acme:DEMO-01:aas:machine#M-0001","submodel":"Nameplate","path":["Address","CityTown"],"value":"Esslingen"}')
[ "$status" = 204 ] || fail "the demo service's admin PATCH answered $status"
wine "$aasmd" snapshot take --config "$config" --plant DEMO-01 --store "$store" 2>/dev/null >/dev/null \
  || fail "snapshot take (2) exited $?"
[ -s "$C/aas data/store.sqlite3" ] || fail "no store at $store"
[ "$(wine "$aasmd" snapshot list --store "$store" 2>/dev/null | grep -c complete)" = 2 ] \
  || fail "snapshot list does not show two complete snapshots"
wine "$aasmd" search --store "$store" Esslingen 2>/dev/null | grep -q 'Nameplate/Address/CityTown' \
  || fail "search did not find the changed value"
wine "$aasmd" diff --store "$store" --json 2>/dev/null > "$work/diff.json" || fail "diff exited $?"
python3 - "$work/diff.json" <<'EOF' || fail "diff did not report exactly the one change: $(cat "$work/diff.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d) == 1 and d[0]["new"] == "Esslingen" and d[0]["path"] == ["Address", "CityTown"], d
EOF
ok "snapshot take x2, list, search, diff on $store (the one change found)"

# --- Credential Manager: `aasmd --profile` reads a profile's secrets from it (keyring's
# windows-native, CredReadW). aasmd never stores one (the app's profile form does, and
# the app cannot run under Wine): cred-write.exe keeps them as keyring does (CredWriteW).
roaming=$(find "$C/users" -mindepth 3 -maxdepth 3 -path '*/AppData/Roaming' -type d | grep -v /Public/ | head -1)
[ -n "$roaming" ] || fail "no AppData/Roaming in the Wine prefix"
settings=$roaming/org.aasbrowser.desktop/settings.json
mkdir -p "$(dirname "$settings")"
python3 -c '
import json, sys
line = json.load(open(sys.argv[1]))
fields = {k: line[k] for k in ("registry_url", "gateway_url", "auth_url", "realm", "client_id")}
profiles = [dict(fields, name=n, plants=line["plants"], allow_plain_http=True) for n in ("Wine", "Empty")]
json.dump({"profiles": profiles}, open(sys.argv[2], "w"))' "$line" "$settings"
secret=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["client_secret"])' "$line")
token=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["user_token"])' "$line")
wine "$work/cred-write.exe" aas-browser Wine/client_secret "$secret" || fail "CredWriteW failed"
wine "$work/cred-write.exe" aas-browser Wine/user_token "$token" || fail "CredWriteW failed"
wine "$aasmd" --profile Wine crawl --plant DEMO-01 --format env --out 'C:\aas exports\profile.json' \
  2> "$work/profile.err" || fail "crawl --profile Wine exited $?: $(cat "$work/profile.err")"
# The same plant as --config crawls it now (the snapshot checks changed one value).
wine "$aasmd" --config "$config" crawl --plant DEMO-01 --format env --out 'C:\aas exports\config.json' \
  2>/dev/null || fail "crawl --config exited $?"
cmp "$C/aas exports/profile.json" "$C/aas exports/config.json" || fail "the crawl with the profile differs"
set +e
wine "$aasmd" --profile Empty crawl --plant DEMO-01 --format env --out 'C:\aas exports\empty.json' \
  2> "$work/empty.err"
code=$?
set -e
{ [ "$code" = 2 ] && grep -q 'missing client_secret, user_token' "$work/empty.err"; } \
  || fail "a profile without secrets in the Credential Manager exited $code: $(cat "$work/empty.err")"
if grep -qF -e "$secret" -e "$token" "$settings"; then fail "a secret is in the settings file"; fi
ok "crawl --profile Wine read its secrets from the Credential Manager (a profile without them: exit 2, "missing client_secret, user_token"); the settings file holds none"

# --- The app's exe: only system DLLs and the WebView2 loader beside it.
x86_64-w64-mingw32-objdump -p "$gui" | sed -n 's/^\tDLL Name: //p' | sort -fu > "$work/dlls.txt"
system_dlls='^(kernel32|user32|gdi32|advapi32|shell32|ole32|oleaut32|comctl32|comdlg32|dwmapi|uxtheme|ws2_32|bcrypt|bcryptprimitives|ntdll|combase|rpcrt4|crypt32|secur32|userenv|shlwapi|version|winmm|imm32|msimg32|dbghelp|propsys|uiautomationcore|winspool\.drv|msvcrt|api-ms-win-[a-z0-9-]+)\.dll$'
others=$(grep -viE "$system_dlls" "$work/dlls.txt" | grep -vx 'WebView2Loader.dll' || true)
[ -z "$others" ] || fail "aas-browser.exe imports DLLs Windows does not have: $others"
grep -qx 'WebView2Loader.dll' "$work/dlls.txt" || fail "aas-browser.exe does not import WebView2Loader.dll"
ok "aas-browser.exe imports only system DLLs and WebView2Loader.dll: $(paste -sd' ' "$work/dlls.txt")"

# --- The app under Wine (no WebView2 there): it must say so, not vanish. Wine's first
# window in a fresh prefix sometimes fails to be made ("Error creating window"): twice.
if command -v xvfb-run >/dev/null; then
  mkdir -p dist/windows/test
  shot=$PWD/dist/windows/test/gui-under-wine.png
  for attempt in 1 2; do
    wineserver -k 2>/dev/null || true   # the display changes: start Wine afresh
    (cd "$work/zip/$name" && timeout 90 xvfb-run -a -s '-screen 0 1280x800x24' bash -c '
       wine ./aas-browser.exe > gui.log 2>&1 & app=$!
       for _ in $(seq 40); do
         xwininfo -root -tree 2>/dev/null | grep -q "\"Error\"" && break; sleep 1
       done
       sleep 2; xwininfo -root -tree > xwininfo.txt 2>&1
       import -window root "'"$shot"'" 2>/dev/null
       # Closed as a user would: the app must then end by itself, exit code 1.
       if grep -q "\"Error\"" xwininfo.txt && wine "'"$work"'/close-window.exe" Error; then
         (sleep 30; kill $app 2>/dev/null) & watchdog=$!
         wait $app; echo $? > gui.rc; kill $watchdog 2>/dev/null
       fi
       kill $app 2>/dev/null; wineserver -k') || true
    grep -q '"Error"' "$work/zip/$name/xwininfo.txt" && break
    echo "note: attempt $attempt showed no error window: $(grep -m1 ERROR "$work/zip/$name/gui.log" | cut -c1-160)"
  done
  grep -q '"Error"' "$work/zip/$name/xwininfo.txt" \
    || fail "the app under Wine showed no error window (WebView2 missing): $(tail -3 "$work/zip/$name/gui.log")"
  grep -q '"AAS Master Data Browser"' "$work/zip/$name/xwininfo.txt" || fail "the app's window was not made"
  ok "aas-browser.exe under Wine makes its window and an error dialog (Tauri's 'Could not find the WebView2 Runtime'; screenshot dist/windows/test/gui-under-wine.png)"
  # Tauri panicked here ("Failed to setup app"); the app now logs why and exits 1.
  rc=$(cat "$work/zip/$name/gui.rc" 2>/dev/null || echo "none (still running)")
  [ "$rc" = 1 ] || fail "the app did not end with exit code 1 once its dialog was closed: $rc; $(tail -3 "$work/zip/$name/gui.log")"
  if grep -q 'panicked at' "$work/zip/$name/gui.log"; then fail "the app panicked: $(grep -m1 'panicked at' "$work/zip/$name/gui.log")"; fi
  log=$(find "$C/users" -path '*/AppData/Local/org.aasbrowser.desktop/logs/aas-browser.*.log' | head -1)
  { [ -n "$log" ] && grep -q 'the app could not start' "$log"; } \
    || fail "no 'the app could not start' in a log under %LOCALAPPDATA%: $(find "$C/users" -name 'aas-browser.*.log')"
  if find "$C/users" -path '*/AppData/Roaming/org.aasbrowser.desktop/logs' | grep -q .; then fail "a logs folder in %APPDATA%"; fi
  ok "once the dialog is closed the app ends with exit code 1, no panic; ${log#"$C/"} says: $(grep -o 'the app could not start.*' "$log" | head -1 | cut -c1-120)"
  unset DISPLAY
fi

# --- The installer: its contents, a silent install into this prefix, a silent uninstall.
7z l "$setup" > "$work/setup-list.txt" || fail "7z cannot list $(basename "$setup")"
for f in aas-browser.exe aasmd.exe WebView2Loader.dll README.txt; do
  grep -qE " $f\$" "$work/setup-list.txt" || fail "$f not in the installer: $(cat "$work/setup-list.txt")"
done
ok "installer lists aas-browser.exe, aasmd.exe, WebView2Loader.dll, README.txt"
wine "$setup" /S; wineserver -w
dir=$(find "$C/users" -path '*/AppData/Local/Programs/AAS Master Data Browser' -type d | head -1)
[ -n "$dir" ] && [ -s "$dir/aas-browser.exe" ] && [ -s "$dir/uninstall.exe" ] \
  || fail "setup.exe /S installed nothing under %LOCALAPPDATA%\\Programs"
find "$C/users" -name 'AAS Master Data Browser.lnk' | grep -q 'Start Menu' || fail "no Start menu entry"
wine reg query 'HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\org.aasbrowser.desktop' \
  /v DisplayVersion 2>/dev/null | grep -q "$version" || fail "no uninstall entry in HKCU"
wine "$dir/aasmd.exe" --version | grep -q "$version" || fail "the installed aasmd.exe does not run"
ok "setup.exe /S installed into ${dir#"$C/"} with a Start menu entry and an uninstall entry; the installed aasmd.exe runs"
wine "$dir/uninstall.exe" /S; wineserver -w
[ ! -e "$dir" ] || fail "uninstall.exe /S left $(ls "$dir")"
! find "$C/users" -name 'AAS Master Data Browser.lnk' | grep -q . || fail "the Start menu entry is still there"
! wine reg query 'HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\org.aasbrowser.desktop' >/dev/null 2>&1 \
  || fail "the uninstall entry is still there"
ok "uninstall.exe /S removed the files, the Start menu entry and the uninstall entry"

echo "all Windows checks passed"
