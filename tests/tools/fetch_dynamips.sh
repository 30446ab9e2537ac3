#!/usr/bin/env bash
# Fetch Debian bookworm's dynamips (non-free) and libpcap0.8 into DEST_DIR without touching the
# system's apt configuration, and print the path of a wrapper that runs it.
#
# Usage: fetch_dynamips.sh DEST_DIR
#
# A private apt directory gets a sources file derived from /etc/apt/sources.list.d/debian.sources
# with "Components: main" widened to "main non-free" (no host name is written here: the mirror is
# whatever the system already uses). Only the wrapper path goes to stdout; progress and errors go to
# stderr. A second run with the wrapper present prints the path at once.
set -euo pipefail

die() { echo "fetch_dynamips: $*" >&2; exit 1; }

[ $# -eq 1 ] || die "usage: fetch_dynamips.sh DEST_DIR"
dest=$(mkdir -p "$1" && cd "$1" && pwd) || die "cannot create $1"
wrapper="$dest/dynamips"

if [ -x "$wrapper" ] && [ -f "$dest/.complete" ]; then
    echo "$wrapper"
    exit 0
fi

command -v apt-get >/dev/null || die "apt-get is not available (not a Debian-like system)"
command -v dpkg-deb >/dev/null || die "dpkg-deb is not available"
system_sources=/etc/apt/sources.list.d/debian.sources
[ -r "$system_sources" ] || die "$system_sources is missing: cannot derive a Debian mirror"

apt_dir="$dest/apt"
rm -rf "$apt_dir" "$dest/root"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/debs" "$dest/root"
# "Components: main" -> "Components: main non-free" (any other list just gains non-free).
sed -E '/^Components:/{/[[:space:]]non-free([[:space:]]|$)/!s/[[:space:]]*$/ non-free/}' \
    "$system_sources" >"$apt_dir/debian.sources"
grep -Eq '^Components:.*[[:space:]]non-free([[:space:]]|$)' "$apt_dir/debian.sources" \
    || die "no 'Components:' line in $system_sources to widen to non-free"

apt_opts=(
    -o "Dir::Etc::sourcelist=$apt_dir/debian.sources"
    -o "Dir::Etc::sourceparts=/nonexistent"
    -o "Dir::State::Lists=$apt_dir/lists"
    -o "Dir::Cache=$apt_dir/cache"
    -o "Debug::NoLocking=1"
    -o "APT::Sandbox::User=$(id -un)"
)

echo "fetch_dynamips: updating a private apt index in $apt_dir" >&2
apt-get "${apt_opts[@]}" -qq update >&2 || die "apt-get update failed (no access to the Debian mirror?)"
echo "fetch_dynamips: downloading dynamips and libpcap0.8" >&2
(cd "$apt_dir/debs" && apt-get "${apt_opts[@]}" -qq download dynamips libpcap0.8 >&2) \
    || die "apt-get download dynamips libpcap0.8 failed"

for deb in "$apt_dir"/debs/*.deb; do
    [ -f "$deb" ] || die "no .deb was downloaded"
    dpkg-deb -x "$deb" "$dest/root" || die "dpkg-deb -x $deb failed"
done
binary="$dest/root/usr/bin/dynamips"
[ -x "$binary" ] || die "the dynamips package holds no usr/bin/dynamips"
libdir=$(dirname "$(find "$dest/root" -name 'libpcap.so.0.8*' -print -quit)")
[ -n "$libdir" ] && [ "$libdir" != "." ] || die "libpcap.so.0.8 not found in the extracted package"

cat >"$wrapper" <<WRAPPER
#!/bin/sh
# Runs the dynamips fetched by tests/tools/fetch_dynamips.sh with its private libpcap.
LD_LIBRARY_PATH="$libdir\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "$binary" "\$@"
WRAPPER
chmod +x "$wrapper"
# dynamips prints its banner for any option; run it where a stray file would not matter.
banner=$(cd "$dest" && "$wrapper" --help 2>&1 || true)
case "$banner" in
    *"Simulation Platform"*) ;;
    *) die "the fetched dynamips does not run: $(printf '%s' "$banner" | head -n 3)" ;;
esac
rm -rf "$apt_dir" "$dest"/*_log.txt
touch "$dest/.complete"
echo "$wrapper"
