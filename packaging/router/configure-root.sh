#!/usr/bin/env bash
# Configures the router's root file system (run by build.sh on the debootstrapped folder ROOT):
# the users of the serial console, FRR's daemons and its starting configuration, the host name.
set -euo pipefail
ROOT=${1:?usage: configure-root.sh ROOT}
in_root() { chroot "$ROOT" "$@"; }

echo router >"$ROOT/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\trouter\n' >"$ROOT/etc/hosts"
: >"$ROOT/etc/fstab"

# FRR: the routing daemons a lab uses; one integrated configuration that `write memory` saves.
sed -i -e 's/^bgpd=no/bgpd=yes/' -e 's/^ospfd=no/ospfd=yes/' -e 's/^staticd=no/staticd=yes/' \
    "$ROOT/etc/frr/daemons"
cat >"$ROOT/etc/frr/frr.conf" <<'CONF'
frr defaults traditional
hostname router
service integrated-vtysh-config
!
line vty
!
CONF
echo "service integrated-vtysh-config" >"$ROOT/etc/frr/vtysh.conf"
in_root chown frr:frr /etc/frr/frr.conf /etc/frr/vtysh.conf
in_root chmod 0640 /etc/frr/frr.conf

# The console's users: admin lands in vtysh (the router's CLI), root in a shell.
grep -qx /usr/bin/vtysh "$ROOT/etc/shells" || echo /usr/bin/vtysh >>"$ROOT/etc/shells"
in_root useradd --create-home --shell /usr/bin/vtysh --groups frr,frrvty admin
echo 'admin:gns3' | in_root chpasswd
echo 'root:gns3' | in_root chpasswd
# No message of the day or last-login line between the password and the prompt.
: >"$ROOT/etc/motd"
touch "$ROOT/home/admin/.hushlogin" "$ROOT/root/.hushlogin"
rm -f "$ROOT/usr/sbin/policy-rc.d"
