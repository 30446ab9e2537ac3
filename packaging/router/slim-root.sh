#!/usr/bin/env bash
# Removes what a router never uses from ROOT (kernel version KVER): the kernel's own copy in /boot
# (it sits beside the image), documentation, locales, apt's caches, and every kernel module except
# networking, netfilter, ext4 and the virtual hardware GNS3 gives a QEMU node.
set -euo pipefail
ROOT=${1:?usage: slim-root.sh ROOT KVER} KVER=${2:?usage: slim-root.sh ROOT KVER}
rm -rf "$ROOT"/boot/* "$ROOT"/usr/share/doc/* "$ROOT"/usr/share/man/* "$ROOT"/usr/share/info/* \
    "$ROOT"/var/cache/apt/* "$ROOT"/var/lib/apt/lists/* "$ROOT"/var/log/*.log "$ROOT"/var/cache/debconf/*-old
find "$ROOT/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name 'locale.alias' -exec rm -rf {} +
MODS=$ROOT/lib/modules/$KVER/kernel
keep=(net fs/ext4 fs/jbd2 fs/mbcache.ko lib crypto drivers/virtio drivers/block/virtio_blk.ko
      drivers/net/virtio_net.ko drivers/net/net_failover.ko drivers/net/ethernet/intel/e1000
      drivers/net/tun.ko drivers/net/veth.ko drivers/net/dummy.ko drivers/net/vxlan
      drivers/net/macvlan.ko drivers/net/bonding drivers/net/ipvlan)
tmp=$(mktemp -d "$ROOT/../kept.XXXXXX")
for path in "${keep[@]}"; do
    for found in "$MODS"/$path*; do
        [ -e "$found" ] || continue
        rel=${found#"$MODS"/}
        mkdir -p "$tmp/$(dirname "$rel")"
        mv "$found" "$tmp/$rel"
    done
done
rm -rf "$MODS"
mv "$tmp" "$MODS"
chroot "$ROOT" depmod "$KVER"
