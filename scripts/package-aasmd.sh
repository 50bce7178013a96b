#!/usr/bin/env bash
# aasmd alone, for a server that runs the scheduled takes into a team store (no desktop,
# no WebKitGTK): a .deb with /usr/bin/aasmd, the systemd units aasmd-take@.service and
# aasmd-take@.timer (installed, never enabled), the service account `aasmd` (made by
# systemd-sysusers when the package is configured), the README and the book's chapters on
# the scheduled takes, the team store and aasmd (docs/). The app's .deb
# (make package, Tauri's bundler) does not carry aasmd.
# Usage: scripts/package-aasmd.sh   → $CARGO_TARGET_DIR/release/aasmd_VERSION_ARCH.deb
set -euo pipefail
cd "$(dirname "$0")/.."
target=${CARGO_TARGET_DIR:-$HOME/.cache/aas-browser/target}
cargo build --release -p aas-cli >&2
version=$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml)
arch=$(dpkg --print-architecture)
# The newest glibc symbol version the binary needs.
glibc=$(objdump -T "$target/release/aasmd" | sed -n 's/.*GLIBC_\([0-9.]*\).*/\1/p' | sort -Vu | tail -1)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
chmod 755 "$stage"

install -Dm755 --strip "$target/release/aasmd" "$stage/usr/bin/aasmd"
for unit in 'aasmd-take@.service' 'aasmd-take@.timer'; do
  install -Dm644 "packaging/systemd/$unit" "$stage/usr/lib/systemd/system/$unit"
done
install -Dm644 packaging/systemd/aasmd.sysusers "$stage/usr/lib/sysusers.d/aasmd.conf"
install -Dm644 README.md "$stage/usr/share/doc/aasmd/README.md"
# The book's chapters a server's administrator reads (the units' Documentation=).
for page in scheduled-takes team-store cli; do
  install -Dm644 "docs/$page.md" "$stage/usr/share/doc/aasmd/$page.md"
done
cat >"$stage/usr/share/doc/aasmd/copyright" <<TEXT
aasmd, the command line of the AAS Master Data Browser.
Copyright: AAS Master Data Browser contributors
License: MIT OR Apache-2.0
TEXT

mkdir -p "$stage/DEBIAN"
cat >"$stage/DEBIAN/control" <<TEXT
Package: aasmd
Version: $version
Architecture: $arch
Maintainer: AAS Master Data Browser contributors <noreply@aasbrowser.invalid>
Section: utils
Priority: optional
Depends: libc6 (>= $glibc)
Recommends: systemd
Installed-Size: $(du -sk "$stage/usr" | cut -f1)
Description: AAS Master Data Browser command line and scheduled takes
 aasmd browses the Asset Administration Shells of a plant through the AAS Master
 Data Access Service, crawls and exports plants, and keeps plant snapshots in a
 snapshot file or a team store (PostgreSQL). The package carries the systemd units
 of the scheduled takes (aasmd-take@PLANT.timer), installed but not enabled.
TEXT
# Makes the service account; enables nothing. A running systemd learns of the units.
cat >"$stage/DEBIAN/postinst" <<'TEXT'
#!/bin/sh
set -e
if [ "$1" = configure ]; then
  if command -v systemd-sysusers >/dev/null; then
    systemd-sysusers aasmd.conf
  fi
  if [ -d /run/systemd/system ]; then
    systemctl --system daemon-reload >/dev/null || true
  fi
fi
TEXT
cat >"$stage/DEBIAN/postrm" <<'TEXT'
#!/bin/sh
set -e
if [ -d /run/systemd/system ]; then
  systemctl --system daemon-reload >/dev/null || true
fi
TEXT
chmod 755 "$stage/DEBIAN/postinst" "$stage/DEBIAN/postrm"

deb=$target/release/aasmd_${version}_${arch}.deb
dpkg-deb --root-owner-group --build "$stage" "$deb" >&2
echo "$deb"
