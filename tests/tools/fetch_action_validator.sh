#!/usr/bin/env bash
# Install action-validator (the GitHub workflow linter, from npm's registry, version pinned) into
# DEST_DIR with the system's npm, and print the path of its command. A second run with it present
# prints the path at once. Progress and errors go to stderr; the workflow test skips, saying why,
# when it is missing.
#
# Usage: fetch_action_validator.sh DEST_DIR
set -euo pipefail
VERSION=0.6.0
die() { echo "fetch_action_validator: $*" >&2; exit 1; }
[ $# -eq 1 ] || die "usage: fetch_action_validator.sh DEST_DIR"
dest=$(mkdir -p "$1" && cd "$1" && pwd) || die "cannot create $1"
bin="$dest/node_modules/.bin/action-validator"
if [ -x "$bin" ] && [ "$(cat "$dest/.complete" 2>/dev/null)" = "$VERSION" ]; then
    echo "$bin"
    exit 0
fi
command -v npm >/dev/null || die "npm is not installed (Debian: npm)"
rm -rf "$dest/node_modules" "$dest/.complete"
npm install --no-audit --no-fund --no-save --prefix "$dest" \
    "@action-validator/cli@$VERSION" "@action-validator/core@$VERSION" >&2 \
    || die "npm could not install @action-validator/cli@$VERSION"
[ -x "$bin" ] || die "npm installed no action-validator command"
echo "$VERSION" >"$dest/.complete"
echo "$bin"
