#!/usr/bin/env bash
# `make test`: installs what the suite needs, then runs lint, types and the whole pytest suite.
#  1. Debian packages (only when root and missing): D-Bus + gnome-keyring for a real Secret Service,
#     the xcb/EGL libraries Qt needs, fonts for screenshots, Chromium for the class page's test.
#  2. ./.venv with the dev extras.
#  3. The real GNS3 server 3.0.6 in its own venv under the user cache dir (its pins must not decide
#     ours), dynamips for switch nodes (tests that need it skip with the reason when missing), and a
#     real small local model: llama-cpp-python's server (built once) with SmolLM2-135M, and the FRR
#     router appliance (packaging/router/build.sh, cached per version of its scripts), and
#     action-validator from npm for the CI workflow file.
#  4. ruff, ruff format --check, mypy --strict, then pytest inside a private D-Bus session with an
#     unlocked gnome-keyring.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PYTHON=${PYTHON:-python3}

debs=(dbus gnome-keyring libegl1 libgl1 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1 libdbus-1-3
      libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-shape0 libxcb-render-util0 libxcb-image0
      xvfb fonts-dejavu-core fonts-noto-cjk qt6-l10n-tools g++ cmake postgresql nginx
      debootstrap e2fsprogs qemu-system-x86 qemu-utils chromium-headless-shell)
# npm (for action-validator) may come with a Node.js installed otherwise: Debian's only when none is
command -v npm >/dev/null || debs+=(npm)
missing=()
for p in "${debs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "Installing Debian packages: ${missing[*]}" >&2
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    else
        echo "warning: missing Debian packages (not root, not installed): ${missing[*]}" >&2
    fi
fi

bash packaging/bootstrap.sh dev

CACHE=${GNS3_COPILOT_TEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gns3-copilot-desktop}
mkdir -p "$CACHE"
# The whole suite builds the PyInstaller bundle its tests run (tests/packaging/test_bundle.py: the
# same folders, behind build.sh's lock): started now, it builds on the core that the downloads and
# mypy leave free, not on a pytest worker's time (~1 CPU-minute).
bundle_pid=
if [ $# -eq 0 ]; then
    mkdir -p "$CACHE/bundle"
    GNS3_COPILOT_DIST="$CACHE/bundle/dist" GNS3_COPILOT_BUILD="$CACHE/bundle/work" \
        bash packaging/build.sh >"$CACHE/bundle/build.log" 2>&1 &
    bundle_pid=$!
fi
export GNS3_SERVER_VENV="$CACHE/gns3-server-3.0.6"
if [ ! -x "$GNS3_SERVER_VENV/bin/gns3server" ] || [ ! -f "$GNS3_SERVER_VENV/.complete" ]; then
    echo "Installing the real GNS3 server 3.0.6 into $GNS3_SERVER_VENV ..." >&2
    rm -rf "$GNS3_SERVER_VENV"
    "$PYTHON" -m venv "$GNS3_SERVER_VENV"
    "$GNS3_SERVER_VENV/bin/python" -m pip install -q gns3-server==3.0.6
    touch "$GNS3_SERVER_VENV/.complete"
fi
if models=$(bash tests/tools/fetch_local_model.sh "$CACHE/local-model"); then
    GNS3_COPILOT_LLAMA_PYTHON=$(sed -n 1p <<<"$models")
    GNS3_COPILOT_LLAMA_MODEL=$(sed -n 2p <<<"$models")
    export GNS3_COPILOT_LLAMA_PYTHON GNS3_COPILOT_LLAMA_MODEL
else
    echo "warning: the local model could not be had; its tests will skip" >&2
fi
if [ -f tests/tools/fetch_dynamips.sh ]; then
    if dyn=$(bash tests/tools/fetch_dynamips.sh "$CACHE/dynamips"); then
        export GNS3_DYNAMIPS_PATH="$dyn"
    else
        echo "warning: dynamips could not be had; switch tests will skip" >&2
    fi
fi

if validator=$(bash tests/tools/fetch_action_validator.sh "$CACHE/action-validator"); then
    export ACTION_VALIDATOR="$validator"
else
    echo "warning: action-validator could not be had; the workflow check will skip" >&2
fi

# The FRR router appliance (packaging/router), built once per version of its scripts; the router
# tests skip, saying why, when it could not be built (not root, no network to the Debian mirror).
ROUTER_DIR="$CACHE/router-$(bash packaging/router/version.sh)"
if [ ! -f "$ROUTER_DIR/.complete" ]; then
    echo "Building the FRR router appliance into $ROUTER_DIR ..." >&2
    bash packaging/router/build.sh "$ROUTER_DIR" >/dev/null \
        || echo "warning: the FRR router could not be built; router tests will skip" >&2
fi

echo "== ruff" >&2
.venv/bin/ruff check .
.venv/bin/ruff format --check .
echo "== mypy --strict" >&2
.venv/bin/mypy

export QT_QPA_PLATFORM=offscreen
export GNS3_COPILOT_REQUIRE_SECRET_SERVICE=1
echo "== pytest" >&2
# Most of the suite waits on servers and consoles, not the CPU: several workers (pytest-xdist) share
# the two cores. Tests are grouped by file, and by the costly fixture they share (the scheduler in
# tests/conftest.py, which also hands out the longest groups first). Five workers on two cores:
# at ed41a0a, 730 s of pytest against 835 s with four (the load stayed near 1.3 cores with four:
# the classroom and practice tests wait on consoles; one router lab now, so the emulated routers
# no longer starve as they did with six workers and two router labs).
WORKERS=${GNS3_COPILOT_TEST_WORKERS:-5}
status=0
dbus-run-session -- bash tests/tools/with_keyring.sh .venv/bin/python -m pytest --durations=30 \
    -n "$WORKERS" --dist loadscope "$@" || status=$?
# the bundle's test waited for that build (or made it again and said why it failed)
[ -z "$bundle_pid" ] || wait "$bundle_pid" || true
exit "$status"
