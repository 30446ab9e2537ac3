#!/usr/bin/env bash
# Prints the GNS3 appliance file (.gns3a) of a built router: the "FRR router" QEMU template with the
# sizes and MD5 sums of the files in DIR, so GNS3's import finds and checks them.
# usage: appliance.sh DIR KERNEL_VERSION
set -euo pipefail
DIR=${1:?usage: appliance.sh DIR KVER} KVER=${2:?usage: appliance.sh DIR KVER}
VERSION="debian12-$KVER"
image() {
    printf '{"filename": "%s", "version": "%s", "md5sum": "%s", "filesize": %s}' \
        "$1" "$VERSION" "$(md5sum "$DIR/$1" | cut -d' ' -f1)" "$(stat -c %s "$DIR/$1")"
}
cat <<JSON
{
    "appliance_id": "6a3f1f0e-5d59-4d0e-9b0e-2f6f2f7c4a11",
    "name": "FRR router",
    "category": "router",
    "description": "Debian 12 with FRRouting (zebra, ospfd, bgpd, staticd), iproute2, iptables, nftables and tcpdump, built from Debian packages by packaging/router/build.sh of GNS3 Copilot Desktop.",
    "vendor_name": "FRRouting",
    "vendor_url": "https://frrouting.org/",
    "product_name": "FRR router",
    "registry_version": 4,
    "status": "experimental",
    "maintainer": "GNS3 Copilot Desktop",
    "maintainer_email": "maintainers@localhost",
    "usage": "Serial console: log in as admin / gns3 to land in vtysh; root / gns3 (or start-shell from vtysh) for a shell. Interfaces are eth0-eth3. 'write memory' saves /etc/frr/frr.conf on the node's disk.",
    "port_name_format": "eth{0}",
    "qemu": {
        "adapter_type": "virtio-net-pci",
        "adapters": 4,
        "ram": 256,
        "cpus": 1,
        "hda_disk_interface": "virtio",
        "arch": "x86_64",
        "console_type": "telnet",
        "kernel_command_line": "console=ttyS0 root=/dev/vda rw net.ifnames=0 init=/sbin/router-init",
        "kvm": "allow",
        "on_close": "power_off"
    },
    "images": [
        $(image frr-router.qcow2),
        $(image vmlinuz),
        $(image initrd.img)
    ],
    "versions": [
        {"name": "$VERSION", "images": {"hda_disk_image": "frr-router.qcow2", "kernel_image": "vmlinuz", "initrd": "initrd.img"}}
    ]
}
JSON
