#!/usr/bin/env bash
# make test's first step: is there disk enough for what it is about to
# install, unpack and build? Failing here, in a second, with what to free
# beats failing 25 minutes in with "No space left on device" (a CI run did).
# What each part takes (du -sm in a fresh clone after make test at
# 1f6e879, which took 4663 MiB in all): a 6.1 tree with its git 1701 MiB,
# a 6.12 one 1931; a build of our tiny configuration 147 to 198; of
# Debian's (in the long-lived clone) 407 to 465. What is there takes
# nothing more.
# Usage: scripts/disk-check.sh BASE KERNEL:BUILD_DIR:FOLDER+FOLDER+FOLDER...
set -euo pipefail
base=$1
shift
declare -A tree_mib=([6.1]=1800 [6.12]=2000)
declare -A build_mib=([tiny]=220 [debian]=520)
tarball_mib=300	# /usr/src/linux-source-K.tar.xz, and its .deb in apt's cache
packages_mib=600	# QEMU and the toolchain make deps installs on a bare machine
cocci_mib=200		# Coccinelle and its OCaml libraries, for make test's cocci check
declare -A need=() where=()

# need MIB PATH WHAT: MIB more on PATH's file system, for WHAT.
add() {
	local d=$2
	until [[ -d $d ]]; do d=$(dirname "$d"); done
	local fs
	fs=$(df --output=target "$d" | tail -1)
	need[$fs]=$((${need[$fs]:-0} + $1))
	where[$fs]+="${where[$fs]:+, }$3"
}

[[ -n ${build_mib[$base]:-} ]] || { echo "disk-check: no build size known for BASE=$base: add it to $0" >&2; exit 1; }
command -v qemu-system-i386 >/dev/null || add $packages_mib /usr "Debian's packages"
command -v spatch >/dev/null || add $cocci_mib /usr "Coccinelle"
kernels=()
for arg in "$@"; do
	IFS=: read -r k b folders <<<"$arg"
	kernels+=("$k")
	[[ -n ${tree_mib[$k]:-} ]] || { echo "disk-check: no tree size known for KERNEL=$k: add it to $0" >&2; exit 1; }
	[[ -f /usr/src/linux-source-$k.tar.xz ]] || add $tarball_mib /usr/src "linux-source-$k"
	compgen -G "$b/src/linux-$k.*/Makefile" >/dev/null || add "${tree_mib[$k]}" "$b" "the $k tree"
	for f in ${folders//+/ }; do
		[[ -f $b/$f/vmlinux ]] || add "${build_mib[$base]}" "$b" "$k $f"
	done
done

short=0
for fs in "${!need[@]}"; do
	free=$(df -BM --output=avail "$fs" | tail -1 | tr -dc 0-9)
	((free < need[$fs] + 100)) || continue
	short=1
	echo "disk-check: make test needs about $((need[$fs] + 100)) MiB on $fs (${where[$fs]}), and it has $free MiB free (df -h $fs)." >&2
done
((short)) || exit 0
echo "disk-check: free some: old clones of this repository; here 'make clean' and 'make clean KERNEL=6.12' (they keep the trees; build/export/linux, build/bisect and build/matrix are the big ones); apt-get clean." >&2
((${#kernels[@]} < 2)) || echo "disk-check: or test one kernel: make test KERNEL=${kernels[0]} (then make distclean before the other)" >&2
exit 1
