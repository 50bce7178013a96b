#!/usr/bin/env bash
# Installs the app's .deb with apt, checks what it put where (binary, desktop entry,
# icons), starts the app from the installed desktop entry under a private Xvfb display
# and D-Bus session (scripts/e2e.sh, tests/e2e/installed_app.py), checks that it opens
# on the demo profile, then removes the package again.
# Usage: scripts/test-deb.sh [PATH/TO/package.deb]   (default: the newest `make package` built)
set -euo pipefail
target=${CARGO_TARGET_DIR:-$HOME/.cache/aas-browser/target}
deb=${1:-$(ls -t "$target"/release/bundle/deb/*.deb | head -1)}
deb=$(realpath "$deb")
pkg=$(dpkg-deb -f "$deb" Package)
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
fail() { echo "test-deb: $*" >&2; exit 1; }

if dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
  fail "$pkg is already installed; remove it first (this test removes what it installs)"
fi
trap 'DEBIAN_FRONTEND=noninteractive $sudo apt-get remove -y -qq "$pkg" >/dev/null' EXIT
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$deb" >/dev/null
files=$(dpkg -L "$pkg")

# The binary, on PATH.
grep -qx /usr/bin/aas-browser <<<"$files" || fail "no /usr/bin/aas-browser in $pkg"
[ -x /usr/bin/aas-browser ] || fail "/usr/bin/aas-browser is not executable"

# One desktop entry that desktops accept, naming the program, an icon and categories.
desktop=$(grep '^/usr/share/applications/.*\.desktop$' <<<"$files") || fail "no desktop entry in $pkg"
[ "$(wc -l <<<"$desktop")" -eq 1 ] || fail "more than one desktop entry: $desktop"
desktop-file-validate "$desktop" || fail "$desktop does not validate"
key() { sed -n "s/^$1=//p" "$desktop" | head -1; }
exec_line=$(key Exec) icon=$(key Icon) categories=$(key Categories)
[ -n "$categories" ] || fail "$desktop has no Categories"
[ -n "$icon" ] || fail "$desktop has no Icon"
# The program (the first word; the rest may only be field codes such as %U, which the
# desktop fills in and which a plain start leaves empty).
read -r program args <<<"$exec_line"
[ -z "$(sed 's/%[fFuUik]//g; s/ //g' <<<"${args:-}")" ] || fail "Exec has arguments besides field codes: $exec_line"
bin=$(command -v "$program") || fail "Exec names $program, which is not on PATH"
[ "$(realpath "$bin")" = /usr/bin/aas-browser ] || fail "Exec starts $bin, not /usr/bin/aas-browser"

# .aasx files open with the app: the entry takes files and names the AASX type, which
# the package defines for the desktop's MIME database.
mime=application/asset-administration-shell-package
grep -q "^MimeType=.*$mime;" "$desktop" || fail "$desktop names no $mime"
case "$exec_line" in *%F* | *%f*) ;; *) fail "Exec takes no file: $exec_line" ;; esac
grep -qx /usr/share/mime/packages/aas-browser.xml <<<"$files" || fail "no MIME definition of .aasx in $pkg"
[ "$(gio info -a standard::content-type "$(dirname "$0")/../../shared/aas-files/C-v3.0/FAAAST-Service/model.aasx" |
  sed -n 's/^ *standard::content-type: //p')" = "$mime" ] || fail "the desktop does not know .aasx as $mime"

# The icon the entry names, in the hicolor theme at the sizes in icons/.
for size in 32x32 128x128 512x512; do
  png=/usr/share/icons/hicolor/$size/apps/$icon.png
  grep -qx "$png" <<<"$files" || fail "no $png in $pkg"
  [ "$(identify -format '%wx%h' "$png")" = "$size" ] || fail "$png is not $size"
done
echo "test-deb: $pkg installs $(wc -l <<<"$files") paths; entry $desktop: Exec=$exec_line Icon=$icon Categories=$categories"

E2E_TESTS=installed_app.py E2E_OUT=${E2E_OUT:-$PWD/tests/e2e/out/deb} DESKTOP_ENTRY=$desktop \
  "$(dirname "$0")/e2e.sh" "$bin"
echo "test-deb: passed"
