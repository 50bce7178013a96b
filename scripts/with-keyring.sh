#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with a fresh, unlocked GNOME Keyring (a
# real Secret Service), so keychain tests never touch the user's own keyring.
# XDG_DATA_HOME points at a temporary folder: the keyring and the app's settings live there.
# Usage: scripts/with-keyring.sh COMMAND [ARGS...]
set -euo pipefail
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
XDG_DATA_HOME="$data" dbus-run-session -- bash -c \
  'echo -n test | gnome-keyring-daemon --unlock --components=secrets >/dev/null && "$@"' _ "$@"
