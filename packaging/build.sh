#!/usr/bin/env bash
# `make bundle`: builds the one-folder PyInstaller bundle into dist/gns3-copilot/.
#
# The build is skipped when nothing it depends on changed: a hash of the package sources, resources,
# the spec and the installed package versions is kept in build/pyinstaller/sources.sha256 and
# compared before building. `--force` rebuilds anyway. Prints the bundle's size and the build time.
# GNS3_COPILOT_DIST / GNS3_COPILOT_BUILD choose other output / work folders.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
force=0
[ "${1:-}" = "--force" ] && force=1

PYTHON=$PYTHON bash packaging/bootstrap.sh dev

# Where to build (the tests build under the user cache dir): dist/ and build/ by default.
DIST=${GNS3_COPILOT_DIST:-dist}
WORK=${GNS3_COPILOT_BUILD:-build/pyinstaller}
STAMP=$WORK/sources.sha256
BUNDLE=$DIST/gns3-copilot
mkdir -p "$WORK"
exec 9>"$WORK/.lock"
flock 9  # one build at a time in the same folders (several checkouts or test runs)

sources_hash() {
    {
        find gns3_copilot_desktop resources -type f ! -path '*/__pycache__/*' ! -name '*.pyc' -print0 \
            | sort -z | xargs -0 sha256sum
        sha256sum packaging/gns3-copilot.spec packaging/entry.py pyproject.toml
        .venv/bin/python -m pip freeze --exclude-editable 2>/dev/null
    } | sha256sum | cut -c1-64
}

want=$(sources_hash)
if [ "$force" = 0 ] && [ -x "$BUNDLE/gns3-copilot" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$want" ]; then
    echo "Bundle is up to date: $BUNDLE ($(du -sh "$BUNDLE" | cut -f1))" >&2
    exit 0
fi

echo "Building $BUNDLE with PyInstaller ..." >&2
rm -f "$STAMP"
start=$(date +%s)
.venv/bin/pyinstaller --noconfirm --clean --log-level WARN \
    --distpath "$DIST" --workpath "$WORK" packaging/gns3-copilot.spec
end=$(date +%s)
echo "$want" > "$STAMP"
echo "Built $BUNDLE: $(du -sh "$BUNDLE" | cut -f1) in $((end - start)) s" >&2
