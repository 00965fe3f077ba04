#!/usr/bin/env bash
# make test's first step: is there disk enough for what it is about to
# unpack and build? Failing here, in a second, with what to free beats
# failing 25 minutes in with "No space left on device" (a CI run did).
# A kernel's tree (the sources and their git) and its three test builds
# take, measured from a fresh clone at the commit that added this check
# (du -sm): 6.1 1717 + 464 MiB, 6.12 1940 + 534 MiB. What is already
# there takes nothing more.
# Usage: scripts/disk-check.sh TOP KERNEL...
set -euo pipefail
top=$1
shift
declare -A tree_mib=([6.1]=1800 [6.12]=2000)
builds_mib=600
# BusyBox, the initramfs, logs, the exported series, the build checks.
need=100
for k in "$@"; do
	b=$top/build
	[[ $k == 6.1 ]] || b=$top/build/$k
	[[ -n ${tree_mib[$k]:-} ]] || { echo "disk-check: no size known for KERNEL=$k: add it to $0" >&2; exit 1; }
	compgen -G "$b/src/linux-$k.*/Makefile" >/dev/null || need=$((need + tree_mib[$k]))
	[[ -f $b/release/vmlinux ]] || need=$((need + builds_mib))
done
mkdir -p "$top/build"
free=$(df -BM --output=avail "$top/build" | tail -1 | tr -dc 0-9)
if ((free < need)); then
	echo "disk-check: make test needs about $need MiB more under $top/build for the kernels $* (their trees and builds), and the file system has $free MiB free (df -h $top/build)." >&2
	echo "disk-check: free $((need - free)) MiB or more (old clones, build/ folders of other checkouts, apt-get clean), or test one kernel: make test KERNEL=6.1" >&2
	exit 1
fi
