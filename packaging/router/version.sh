#!/usr/bin/env bash
# Prints the router build's version: a digest of the scripts that make the image, so the cached
# build (…/router-<version>) is rebuilt whenever one of them changes.
set -euo pipefail
cd "$(dirname "$0")"
sha256sum build.sh configure-root.sh slim-root.sh router-init appliance.sh | sha256sum | cut -c1-12
