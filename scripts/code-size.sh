#!/usr/bin/env bash
# The text the typed map + unmap costs: per call site, from
# tools/testing/kmap_atomic/code-size built against the kernel KDIR (each
# site function's size minus site_none's, which only writes the word),
# and the size of brd's object and of vmlinux. Prints a table and writes
# it to OUT (tab-separated: what, bytes).
# Usage: scripts/code-size.sh REPO BUILD KDIR OUT
set -euo pipefail
repo=$1 build=$2 kdir=$3 out=$4
. "$repo/scripts/tree-common.sh"
find_tree || { echo "code-size: no kernel tree: run 'make tree' first" >&2; exit 1; }
[[ -f $build/$kdir/vmlinux ]] || { echo "code-size: no $build/$kdir/vmlinux: build it first (make kernel)" >&2; exit 1; }
# Built in a copy, so that the repository stays clean.
src=$build/$kdir-code-size
rm -rf "$src"
cp -r "$repo/tools/testing/kmap_atomic/code-size" "$src"
make -s -C "$tree" O="$build/$kdir" ARCH=i386 M="$src" modules
# size_of OBJECT FUNCTION: the function's size in bytes, from its symbol
size_of() {
	local hex
	hex=$(nm -S --defined-only "$1" | awk -v f="$2" '$4 == f { print $2 }')
	[[ -n $hex ]] || { echo "code-size: no $2 in $1" >&2; exit 1; }
	echo $((16#$hex))
}
none=$(size_of "$src/kmap_site.o" site_none)
{
	for f in site_typed site_untyped site_local; do
		printf '%s call site\t%d\n' "${f#site_}" $(($(size_of "$src/kmap_site.o" "$f") - none))
	done
	brd=$build/$kdir/drivers/block/brd.o
	[[ -f $brd ]] && printf 'brd.o text\t%s\n' "$(size "$brd" | awk 'NR == 2 { print $1 }')"
	printf 'vmlinux text\t%s\n' "$(size "$build/$kdir/vmlinux" | awk 'NR == 2 { print $1 }')"
	# The out-of-line functions (before issue 31: __kmap_atomic_slot and the unmap only).
	syms=$(nm "$build/$kdir/vmlinux")
	for f in __kmap_atomic_page __kmap_atomic_pfn map_default __kmap_atomic_slot __kunmap_atomic_slot __kunmap_atomic_addr; do
		if grep -q " $f\$" <<<"$syms"; then
			printf '%s\t%d\n' "$f" "$(size_of "$build/$kdir/vmlinux" "$f")"
		fi
	done
} >"$out"
column -t -s $'\t' "$out"
