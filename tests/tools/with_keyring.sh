#!/usr/bin/env bash
# Runs "$@" with an unlocked gnome-keyring Secret Service on the current (private) D-Bus session.
# Called by run_suite.sh inside `dbus-run-session`; the keyring lives in throwaway directories.
set -euo pipefail
XDG_DATA_HOME=$(mktemp -d)
XDG_RUNTIME_DIR=$(mktemp -d)
export XDG_DATA_HOME XDG_RUNTIME_DIR
chmod 700 "$XDG_RUNTIME_DIR"
# The unlock password must not be empty: an empty one makes gnome-keyring prompt (and fail headless).
printf 'ci-keyring-password' | gnome-keyring-daemon --unlock --components=secrets --foreground \
    >/dev/null 2>&1 &
keyring_pid=$!
trap 'kill "$keyring_pid" 2>/dev/null || true; rm -rf "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR"' EXIT
for _ in $(seq 1 100); do
    if dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null \
        | grep -q "boolean true"; then
        break
    fi
    sleep 0.1
done
"$@"
