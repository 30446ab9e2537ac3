#!/usr/bin/env bash
# Creates ./.venv and installs the package into it: `app` (runtime only) or `dev` (tests, lint,
# packaging). Re-running is cheap: a stamp with the hash of pyproject.toml skips a reinstall.
set -euo pipefail
cd "$(dirname "$0")/.."
flavour=${1:-app}
PYTHON=${PYTHON:-python3}

if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "GNS3 Copilot needs Python 3.11 or newer; $PYTHON is $("$PYTHON" --version 2>&1)." >&2
    exit 1
fi

if [ ! -x .venv/bin/python ]; then
    if ! "$PYTHON" -m venv .venv 2>/dev/null; then
        rm -rf .venv
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
            echo "python venv support is missing: installing Debian's python3-venv" >&2
            apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv
            "$PYTHON" -m venv .venv
        else
            echo "Cannot create a virtual environment: install python3-venv (Debian/Ubuntu)." >&2
            exit 1
        fi
    fi
fi

case "$flavour" in
    app) extras="" ;;
    dev) extras="[dev,package,gns3gui,serve,postgres]" ;;
    *) echo "usage: bootstrap.sh app|dev" >&2; exit 2 ;;
esac
stamp=.venv/.installed-$flavour
want=$(sha256sum pyproject.toml | cut -c1-16)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "Installing gns3-copilot-desktop$extras into .venv ..." >&2
    .venv/bin/python -m pip install -q --upgrade pip >/dev/null
    .venv/bin/python -m pip install -q -e ".$extras"
    echo "$want" > "$stamp"
fi
