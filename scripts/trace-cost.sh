#!/usr/bin/env bash
# make trace-cost: what the trace events cost the typed pair while they are
# disabled. Boots the release kernel KDIR under instruction counting with
# the benchmark module twice: with mm/kmap_atomic/core.c as it is, and with its
# four fast-path trace tests compiled out (the slot map's, the lowmem
# map's, the slot unmap's and the lowmem unmap's: 0 for their static
# branch). kmap_atomic_prot()'s inline lowmem check, in a header, and
# the slow paths' are on both sides. Prints each
# pair at 512 pages without and with, and the difference; writes
# build/trace-cost-KDIR.tsv. The file is put back afterwards, whatever
# happens, and the kernel rebuilt from it.
# Usage: scripts/trace-cost.sh REPO BUILD JOBS MEM TIMEOUT KDIR
set -euo pipefail
repo=$1 build=$2 jobs=$3 mem=$4 timeout=$5 kdir=$6
. "$repo/scripts/tree-common.sh"
find_tree || { echo "trace-cost: no kernel tree: run 'make tree' first" >&2; exit 1; }
f=mm/kmap_atomic/core.c
out=$build/trace-cost-$kdir.tsv

mark_changing trace-cost "$f"
restore() {
	if ! cmp -s "$repo/$f" "$tree/$f"; then
		echo "  TRACE-COST putting $f back and rebuilding $kdir"
		cp "$repo/$f" "$tree/$f"
		make -s -C "$tree" O="$build/$kdir" ARCH=i386 -j"$jobs" bzImage modules >/dev/null
	fi
	rm -f "$state/mutating"
}
trap restore EXIT

# The file with the fast path's trace calls compiled out; fails if they moved.
without_events() {
	python3 - "$repo/$f" <<'PY'
import sys
s = open(sys.argv[1]).read()
calls = [
    ("\tif (trace_kmap_atomic_map_enabled())\n"
     "\t\tmap_event(type, pfn, vaddr, ip);\n"),
    ("\tif (unlikely(trace_kmap_atomic_map_enabled() || kmap_atomic_level()))\n"),
    ("\tif (trace_kmap_atomic_unmap_enabled())\n"
     "\t\tunmap_event_pte(idx, ptep, vaddr, ip);\n"),
    ("\t\t\tif (trace_kmap_atomic_unmap_enabled())\n"
     "\t\t\t\tunmap_event_lowmem(type, vaddr, _RET_IP_);\n"),
]
for old in calls:
    if s.count(old) != 1:
        sys.exit("trace-cost: mm/kmap_atomic/core.c no longer has this fast-path call "
                 "once: update scripts/trace-cost.sh:\n" + old)
    cond = old.split("(trace_kmap_atomic_")[1].split(")")[0] + ")"
    s = s.replace(old, old.replace("trace_kmap_atomic_" + cond, "0"))
sys.stdout.write(s)
PY
}

boot() {	# boot LABEL: the 512-page rows of one icount boot, to $build/trace-cost.LABEL
	echo "  TRACE-COST $kdir $1 the events: build, boot under -icount"
	make -s -C "$tree" O="$build/$kdir" ARCH=i386 -j"$jobs" bzImage modules
	mkdir -p "$build/run"
	echo true >"$build/run/cmd.sh"
	rm -f "$build/logs/run-latest.log"
	"$repo/scripts/qemu-run.sh" --flavor "$kdir" --mode run --smp 1 --mem "$mem" \
		--timeout "$timeout" --icount --modules "$build/$kdir/mm/kmap_atomic/kmap_atomic_bench.ko" \
		"$build" >/dev/null ||
		{ echo "trace-cost: the boot $1 the events failed; log: $build/logs/run-latest.log" >&2; exit 1; }
	tr -d '\r' <"$(readlink -f "$build/logs/run-latest.log")" | sed -E 's/^\[[ 0-9.]+\] //' |
		awk -F'\t' '$1 == "kmap_atomic_bench: KMAP-BENCH" && $3 == 512 { print $2 "\t" $5 }' |
		LC_ALL=C sort >"$build/trace-cost.$1"
	[[ -s $build/trace-cost.$1 ]] ||
		{ echo "trace-cost: the boot $1 the events printed no results; log: $build/logs/run-latest.log" >&2; exit 1; }
}

# With them first: make kernel has just built that.
boot with
without_events >"$tree/$f"
boot without
n_with=$(wc -l <"$build/trace-cost.with") n_without=$(wc -l <"$build/trace-cost.without")
[[ $n_with == "$n_without" ]] ||
	{ echo "trace-cost: the boots measured different pairs ($n_with and $n_without): see $build/trace-cost.*" >&2; exit 1; }
{
	printf 'pair\twithout\twith\tdifference\n'
	LC_ALL=C join -t $'\t' "$build/trace-cost.without" "$build/trace-cost.with" |
		awk -F'\t' -v OFS='\t' '{ print $1, $2, $3, sprintf("%+.2f", $3 - $2) }'
} >"$out"
rm -f "$build/trace-cost.without" "$build/trace-cost.with"
echo "  TRACE-COST $kdir, instructions per pair at 512 pages, events compiled out and in (disabled): $out"
awk -F'\t' '{ printf "    %-24s %10s %10s %10s\n", $1, $2, $3, $4 }' "$out"
