#!/usr/bin/env bash
# The fixmap range the typed slots take in each built kernel, by NR_CPUS:
# an object compiled against the kernel holds one byte per fixmap page of
# each range (FIX_KMAP_ATOMIC_*, kmap_local's FIX_KMAP_*, the whole
# fixmap), and nm gives back the sizes. A kernel not built is skipped.
# Usage: scripts/fixmap-size.sh TREE KERNEL_OUT...
set -euo pipefail
tree=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/fixmap_size.c" <<'C'
#include <linux/module.h>
#include <asm/fixmap.h>

#ifdef CONFIG_KMAP_ATOMIC_SLOTS
char typed_slot_pages[FIX_KMAP_ATOMIC_END - FIX_KMAP_ATOMIC_BEGIN + 1];
#endif
char kmap_local_pages[FIX_KMAP_END - FIX_KMAP_BEGIN + 1];
char fixmap_pages[__end_of_fixed_addresses];
MODULE_LICENSE("GPL");
C
echo "obj-m := fixmap_size.o" >"$work/Kbuild"
kib() { echo "$(($1 * 4)) KiB"; }
echo "| kernel | NR_CPUS | typed slots | kmap_local | whole fixmap |"
echo "| --- | ---: | ---: | ---: | ---: |"
for out in "$@"; do
	name=$(basename "$out")
	if [[ ! -f $out/vmlinux ]]; then
		echo "| $name | not built | | | |"
		continue
	fi
	rm -f "$work"/*.o "$work"/*.ko
	make -s -C "$tree" O="$(realpath "$out")" ARCH=i386 M="$work" modules >"$work/log" 2>&1 ||
		{ sed 's/^/  /' "$work/log" >&2; echo "fixmap-size: could not build against $out" >&2; exit 1; }
	size() {
		local hex
		hex=$(nm -S "$work/fixmap_size.o" | awk -v s="$1" '$4 == s { print $2 }')
		[[ -n $hex ]] && echo $((16#$hex))
	}
	cpus=$(sed -n 's/^CONFIG_NR_CPUS=//p' "$out/.config")
	typed=$(size typed_slot_pages) || true
	local_pages=$(size kmap_local_pages) && all=$(size fixmap_pages) ||
		{ echo "fixmap-size: no sizes in the object built against $out" >&2; exit 1; }
	slots="none (SLOTS=n)"
	[[ -n $typed ]] && slots="$typed pages, $(kib "$typed")"
	echo "| $name | $cpus | $slots |" \
		"$local_pages pages, $(kib "$local_pages") | $all pages, $(kib "$all") |"
done
