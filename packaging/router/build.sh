#!/usr/bin/env bash
# Builds the "FRR router" appliance from Debian packages: a minimal Debian (debootstrap minbase) with
# FRR (zebra, ospfd, bgpd, staticd), iproute2, iptables, nftables, tcpdump, ping and traceroute, as an
# ext4 file system made with `mke2fs -d` (no loop mount) in a qcow2 disk, plus the Debian kernel and a
# small initrd beside it, for GNS3's QEMU node (kernel_image + initrd + kernel_command_line, no bootloader).
#
# usage: packaging/router/build.sh OUTDIR        (needs root: debootstrap and chroot)
# OUTDIR ends up holding frr-router.qcow2, vmlinuz, initrd.img, frr-router.gns3a (the appliance file
# to import into GNS3), build.json and .complete; it is left alone when .complete is already there. The serial console (ttyS0) offers a login:
#   admin / gns3  -> vtysh        root / gns3 -> bash (also `start-shell` from vtysh, as admin)
# The Debian mirror is the one this system's own apt sources name (never written here).
# The cache folder's name carries `version.sh`'s digest of these scripts, so a change rebuilds.
set -euo pipefail

OUT=${1:?usage: build.sh OUTDIR}
HERE=$(cd "$(dirname "$0")" && pwd)
SOURCES=${ROUTER_APT_SOURCES:-/etc/apt/sources.list.d/debian.sources}
PACKAGES=(frr iproute2 procps iptables nftables tcpdump iputils-ping traceroute linux-image-amd64)

if [ -f "$OUT/.complete" ]; then
    echo "$OUT"
    exit 0
fi
[ "$(id -u)" = 0 ] || { echo "the router build needs root (debootstrap, chroot)" >&2; exit 1; }
for tool in debootstrap mke2fs qemu-img unshare; do
    command -v "$tool" >/dev/null || { echo "$tool is not installed" >&2; exit 1; }
done
[ -f "$SOURCES" ] || { echo "no apt sources file at $SOURCES" >&2; exit 1; }

# The first stanza of the system's deb822 sources file: its first URI and first suite.
MIRROR=$(awk '/^URIs:/ {print $2; exit}' "$SOURCES")
SUITE=$(awk '/^Suites:/ {print $2; exit}' "$SOURCES")
[ -n "$MIRROR" ] && [ -n "$SUITE" ] || { echo "cannot read a mirror and suite from $SOURCES" >&2; exit 1; }

started=$(date +%s)
mkdir -p "$(dirname "$OUT")"
WORK=$(mktemp -d "$(dirname "$OUT")/.router-build.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
ROOT=$WORK/root

# Everything that mounts (debootstrap's /proc, the chroot's) runs in a private mount namespace, so
# nothing stays mounted on the host when the build ends or fails.
unshare --mount --propagation private -- bash -euo pipefail -s "$ROOT" "$MIRROR" "$SUITE" "$SOURCES" \
    "$HERE" "${PACKAGES[*]}" <<'STAGE'
ROOT=$1 MIRROR=$2 SUITE=$3 SOURCES=$4 HERE=$5 PACKAGES=$6
debootstrap --variant=minbase "$SUITE" "$ROOT" "$MIRROR" >"$ROOT.debootstrap.log" 2>&1 \
    || { tail -30 "$ROOT.debootstrap.log" >&2; exit 1; }
rm -f "$ROOT/etc/apt/sources.list"
cp "$SOURCES" "$ROOT/etc/apt/sources.list.d/debian.sources"
printf '#!/bin/sh\nexit 101\n' >"$ROOT/usr/sbin/policy-rc.d"   # no service starts in the chroot
chmod +x "$ROOT/usr/sbin/policy-rc.d"
# A small initrd: only the drivers that reach the root disk and the NICs GNS3 gives a QEMU node.
mkdir -p "$ROOT/etc/initramfs-tools/conf.d"
echo "MODULES=list" >"$ROOT/etc/initramfs-tools/conf.d/router.conf"
echo "COMPRESS=gzip" >>"$ROOT/etc/initramfs-tools/conf.d/router.conf"
printf '%s\n' virtio_pci virtio_blk virtio_net e1000 ext4 >"$ROOT/etc/initramfs-tools/modules"
mount -t proc proc "$ROOT/proc"
export DEBIAN_FRONTEND=noninteractive LC_ALL=C
chroot "$ROOT" apt-get -qq update
# shellcheck disable=SC2086
chroot "$ROOT" apt-get -qq install -y --no-install-recommends $PACKAGES >"$ROOT.apt.log" 2>&1 \
    || { tail -30 "$ROOT.apt.log" >&2; exit 1; }
install -m 0755 "$HERE/router-init" "$ROOT/sbin/router-init"
bash "$HERE/configure-root.sh" "$ROOT"
umount "$ROOT/proc"
STAGE

KVER=$(basename "$(ls -d "$ROOT"/lib/modules/*)")
cp "$ROOT/boot/vmlinuz-$KVER" "$WORK/vmlinuz"
cp "$ROOT/boot/initrd.img-$KVER" "$WORK/initrd.img"
bash "$HERE/slim-root.sh" "$ROOT" "$KVER"

# Room for a lab's captures and configurations: the files plus a quarter, at least 96 MiB spare.
used_kib=$(du -sk "$ROOT" | cut -f1)
size_kib=$(( used_kib + used_kib / 4 + 98304 ))
mke2fs -q -F -t ext4 -L frr-root -m 0 -d "$ROOT" "$WORK/frr-router.ext4" "${size_kib}k"
# qcow2 holds only the used blocks, and it is the disk format GNS3 takes without asking.
qemu-img convert -O qcow2 "$WORK/frr-router.ext4" "$WORK/frr-router.qcow2"
rm "$WORK/frr-router.ext4"

finished=$(date +%s)
cat >"$WORK/build.json" <<JSON
{"kernel": "$KVER", "suite": "$SUITE", "build_seconds": $((finished - started)),
 "image_bytes": $(stat -c %s "$WORK/frr-router.qcow2"), "disk_virtual_kib": $size_kib,
 "root_kib": $used_kib, "frr": "$(chroot "$ROOT" dpkg-query -W -f='${Version}' frr 2>/dev/null || echo unknown)"}
JSON
bash "$HERE/appliance.sh" "$WORK" "$KVER" >"$WORK/frr-router.gns3a"
rm -rf "$OUT"
mkdir -p "$OUT"
mv "$WORK/frr-router.qcow2" "$WORK/vmlinuz" "$WORK/initrd.img" "$WORK/build.json" \
    "$WORK/frr-router.gns3a" "$OUT/"
touch "$OUT/.complete"
echo "router built in $((finished - started)) s: $(cat "$OUT/build.json")" >&2
echo "$OUT"
