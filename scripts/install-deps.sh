#!/usr/bin/env bash
# Installs what building (`run`), testing (`test`), packaging (`package`) or the Windows
# cross-build and its Wine tests (`windows`) need on Debian 12.
# Idempotent: packages already present are skipped quickly.
set -euo pipefail
what=${1:-run}

build_pkgs=(libwebkit2gtk-4.1-dev libgtk-3-dev libsoup-3.0-dev libjavascriptcoregtk-4.1-dev
  librsvg2-dev libayatana-appindicator3-dev libxdo-dev build-essential pkg-config libssl-dev curl)
# postgresql: the team store's tests start a throwaway server from its binaries.
# python3-openpyxl: an independent reader of the plant table's XLSX in its tests.
# wrk, time, bc, python3-requests, python3-httpx: the benches' smoke run (`make bench-smoke`):
# the load generator, GNU time's peak memory, the Python peers' HTTP libraries.
# python3-venv: the V3 server's own Python environment (below). python3-lxml: the XML
# schema check of the V3 XML we write (tests/support/xsd_valid.py). xdotool, python3-gi,
# gir1.2-gtk-3.0: a file dragged onto the window from a GTK drag source by the X
# server's pointer (tests/e2e/drag_source.py).
test_pkgs=(xvfb webkit2gtk-driver gnome-keyring dbus-daemon xauth imagemagick xclip tinyproxy postgresql
  python3-openpyxl wrk time bc python3-requests python3-httpx python3-venv python3-lxml
  xdotool python3-gi gir1.2-gtk-3.0)
# What scripts/test-deb.sh uses besides the test tools: desktop-file-validate, xwininfo, gio.
package_pkgs=("${test_pkgs[@]}" desktop-file-utils x11-utils libglib2.0-bin)
# `make package-windows` / `test-windows`: the MinGW-w64 C compiler and binutils (linker,
# strip, objdump) for x86_64-pc-windows-gnu, makensis for the installer, 7-Zip for the
# portable zip and to list the installer, ImageMagick for the .ico, Wine 8 (64-bit only)
# and Xvfb (xwininfo to see the app's windows) to try the exes headless.
windows_pkgs=(gcc-mingw-w64-x86-64 binutils-mingw-w64-x86-64 nsis p7zip-full imagemagick
  wine wine64 xvfb xauth x11-utils)

pkgs=("${build_pkgs[@]}")
[ "$what" = test ] && pkgs+=("${test_pkgs[@]}")
[ "$what" = package ] && pkgs+=("${package_pkgs[@]}")
[ "$what" = windows ] && pkgs+=("${windows_pkgs[@]}")

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing: ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ "$what" = package ] && ! command -v cargo-tauri >/dev/null; then
  # Tauri's bundler; built in its own temporary target dir (≈7 min) so it never holds
  # the lock of the shared one.
  env -u CARGO_TARGET_DIR cargo install tauri-cli --locked --version '^2'
fi
if [ "$what" = windows ]; then
  # Rust's standard library for the Windows target (rustup downloads it from its own
  # server, as it did the toolchain).
  rustup target list --installed | grep -qx x86_64-pc-windows-gnu || rustup target add x86_64-pc-windows-gnu
fi
if [ "$what" = test ]; then
  # `make fuzz-replay`: the fuzz targets build with nightly Rust, through cargo-fuzz
  # (built in its own temporary target dir, like tauri-cli above).
  rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
  command -v cargo-fuzz >/dev/null || env -u CARGO_TARGET_DIR cargo install cargo-fuzz --locked
fi
if [ "$what" = test ]; then
  # `make lint`: licences, bans and sources of the dependencies (own target dir, as above).
  command -v cargo-deny >/dev/null || env -u CARGO_TARGET_DIR cargo install cargo-deny --locked
fi
if [ "$what" = test ]; then
  # The independent AAS checkers (V2 and V3) install themselves on their first use;
  # tests call them in parallel, and two first uses at once break each other's pip
  # install.
  scratch=$(mktemp -d)
  "$(dirname "$0")/../../shared/tools/aasv2-check" example "$scratch/example.json" >/dev/null
  echo '{}' > "$scratch/empty.json"
  "$(dirname "$0")/../../shared/tools/aasv3-check" verify "$scratch/empty.json" >/dev/null
  # What independent readers read from a file (crates/aas-file/tests/judged.rs).
  "$(dirname "$0")/../../shared/tools/aas-dump" --count "$scratch/empty.json" >/dev/null
  rm -rf "$scratch"
fi
if [ "$what" = test ]; then
  # The independent AAS V3 server of the V3-server tests (tests/v3-server/serve.py):
  # Eclipse BaSyx Python SDK from PyPI, in a virtual environment of its own (its lxml
  # and the V2 judge's cannot share one).
  venv="$HOME/.cache/aas-browser/basyx-server"
  requirements="$(dirname "$0")/../tests/v3-server/requirements.txt"
  if ! "$venv/bin/python" -c 'import basyx.aas.adapter.http' 2>/dev/null \
    || ! cmp -s "$requirements" "$venv/requirements.txt"; then
    python3 -m venv --clear "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check -r "$requirements"
    cp "$requirements" "$venv/requirements.txt"
  fi
fi
if [ "$what" = test ]; then
  # `make docs`: the book in docs/ is built with mdBook (own target dir, as above; its
  # search only: building needs neither its server nor its file watcher).
  command -v mdbook >/dev/null || env -u CARGO_TARGET_DIR cargo install mdbook --locked \
    --version 0.4.52 --no-default-features --features search
fi
if [ "$what" = test ]; then
  command -v node >/dev/null || { echo "Node.js is needed for the UI unit tests" >&2; exit 1; }
fi
