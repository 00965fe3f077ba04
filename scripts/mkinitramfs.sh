#!/usr/bin/env bash
# The base initramfs: the i386 BusyBox, the harness /init and the userspace
# checks. Each boot appends a small archive of its own (see qemu-run.sh).
# Usage: scripts/mkinitramfs.sh BUSYBOX HARNESS_DIR OUT.cpio.gz
set -euo pipefail
busybox=$1
harness=$2
out=$3
[[ -x $busybox ]] || { echo "initramfs: no i386 busybox at $busybox: run 'make deps'" >&2; exit 1; }

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,mnt,harness}
cp "$busybox" "$root/bin/busybox"
cp "$harness/init" "$root/init"
cp "$harness/run-checks" "$root/bin/run-checks"
cp -r "$harness/checks" "$root/harness/checks"
chmod 755 "$root/init" "$root/bin/run-checks"
echo "  CPIO    $(basename "$out")"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -n -6 >"$out.tmp"
mv "$out.tmp" "$out"
