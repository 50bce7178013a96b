#!/usr/bin/env bash
# Installs what building (`run`) or testing (`test`) needs on Debian 12.
# Idempotent: packages already present are skipped quickly.
set -euo pipefail
what=${1:-run}

build_pkgs=(libwebkit2gtk-4.1-dev libgtk-3-dev libsoup-3.0-dev libjavascriptcoregtk-4.1-dev
  librsvg2-dev libayatana-appindicator3-dev libxdo-dev build-essential pkg-config libssl-dev curl)
test_pkgs=(xvfb webkit2gtk-driver gnome-keyring dbus-daemon xauth imagemagick)

pkgs=("${build_pkgs[@]}")
[ "$what" = test ] && pkgs+=("${test_pkgs[@]}")

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

if [ "$what" = test ]; then
  command -v node >/dev/null || { echo "Node.js is needed for the UI unit tests" >&2; exit 1; }
fi
