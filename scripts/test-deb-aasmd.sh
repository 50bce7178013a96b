#!/usr/bin/env bash
# Installs the aasmd server package (scripts/package-aasmd.sh), checks what it put where,
# that it made the service account and enabled nothing, that systemd accepts the units
# (systemd-analyze verify, also without a running systemd) and that aasmd runs, then
# removes it again (and the service account, if this test made it).
# Usage: scripts/test-deb-aasmd.sh [PATH/TO/aasmd.deb]   (default: the newest one built)
set -euo pipefail
target=${CARGO_TARGET_DIR:-$HOME/.cache/aas-browser/target}
deb=$(realpath "${1:-$(ls -t "$target"/release/aasmd_*.deb | head -1)}")
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
fail() { echo "test-deb-aasmd: $*" >&2; exit 1; }

if dpkg-query -W -f='${Status}' aasmd 2>/dev/null | grep -q "install ok installed"; then
  fail "aasmd is already installed; remove it first (this test removes what it installs)"
fi
had_user=$(getent passwd aasmd >/dev/null && echo yes || echo no)
cleanup() {
  DEBIAN_FRONTEND=noninteractive $sudo apt-get remove -y -qq aasmd >/dev/null || true
  [ "$had_user" = yes ] || $sudo userdel aasmd 2>/dev/null || true
  [ "$had_user" = yes ] || $sudo groupdel aasmd 2>/dev/null || true
}
trap cleanup EXIT
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$deb" >/dev/null
files=$(dpkg -L aasmd)
for path in /usr/bin/aasmd /usr/lib/systemd/system/aasmd-take@.service \
    /usr/lib/systemd/system/aasmd-take@.timer /usr/lib/sysusers.d/aasmd.conf \
    /usr/share/doc/aasmd/README.md /usr/share/doc/aasmd/scheduled-takes.md; do
  grep -qx "$path" <<<"$files" || fail "no $path in the package"
done
/usr/bin/aasmd --version >/dev/null || fail "aasmd does not run"

# The account: a system user without a login, its home /var/lib/aasmd.
IFS=: read -r _ _ uid _ _ home shell < <(getent passwd aasmd) || fail "no user aasmd"
[ "$uid" -lt 1000 ] && [ "$home" = /var/lib/aasmd ] && [ "$shell" = /usr/sbin/nologin ] ||
  fail "aasmd is not a system account without a login: uid $uid, home $home, shell $shell"

# Nothing enabled: no link in any .wants folder.
links=$(find /etc/systemd/system -name 'aasmd-take@*' 2>/dev/null || true)
[ -z "$links" ] || fail "the package enabled units: $links"

# systemd accepts them, for a plant configured as docs/scheduled-takes.md says.
root=$(mktemp -d)
trap 'cleanup; rm -rf "$root"' EXIT
mkdir -p "$root/usr/lib/systemd" "$root/usr/bin" "$root/etc/aasmd"
cp -a /usr/lib/systemd/system "$root/usr/lib/systemd/"
cp /usr/bin/aasmd "$root/usr/bin/"
printf 'PROFILE=Plant Nord\nAASMD_STORE=postgres://aasmd_writer@db.example/plants\n' \
  >"$root/etc/aasmd/take-DEMO-01.conf"
systemd-analyze verify --root="$root" aasmd-take@DEMO-01.service aasmd-take@DEMO-01.timer ||
  fail "systemd-analyze verify refuses the units"
echo "test-deb-aasmd: $(basename "$deb"): $(wc -l <<<"$files") paths, user aasmd ($uid), units verified, none enabled"
