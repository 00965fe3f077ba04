#!/usr/bin/env bash
# Fetch Debian 12's own configuration of its i386 686-pae kernel: the i386
# package linux-config-6.1 (the amd64 one carries only amd64
# configurations), unpacked under BUILD/debian-config; OUT is the
# uncompressed config.i386_none_686-pae. The i386 architecture is enabled
# by make deps (for the BusyBox) already.
# Usage: scripts/debian-config.sh BUILD OUT
set -euo pipefail
build=$1 out=$2
dir=$build/debian-config
name=config.i386_none_686-pae
mkdir -p "$dir"
cd "$dir"
rm -f linux-config-6.1_*_i386.deb
echo "  DEPS    linux-config-6.1:i386 -> build/debian-config/$name"
if ! apt-get download linux-config-6.1:i386 >apt.log 2>&1; then
	echo "debian-config: apt-get download linux-config-6.1:i386 failed:" >&2
	sed 's/^/  /' apt.log >&2
	echo "debian-config: is the i386 architecture enabled (dpkg --add-architecture i386 && apt-get update)?" >&2
	exit 1
fi
rm -rf root
dpkg -x linux-config-6.1_*_i386.deb root
xz -dc "root/usr/src/linux-config-6.1/$name.xz" >"$out.tmp"
mv "$out.tmp" "$out"
# Say which Debian kernel it configured: the tree may be another 6.1.y.
dpkg-deb -f linux-config-6.1_*_i386.deb Version >"$dir/version"
echo "          Debian's configuration of linux $(cat "$dir/version")"
