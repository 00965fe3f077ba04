#!/usr/bin/env bash
# make trace-cost: what the trace events cost the typed pair while they are
# disabled. Boots the release kernel KDIR under instruction counting with
# the benchmark module twice: with mm/kmap_atomic.c as it is, and with its
# three fast-path trace calls taken out (the slot map's, the slot unmap's
# and the lowmem unmap's). The inline lowmem map's check is in a header,
# on both sides. Prints each pair at 512 pages without and with, and the
# difference; writes build/trace-cost-KDIR.tsv. The file is put back
# afterwards, whatever happens, and the kernel rebuilt from it.
# Usage: scripts/trace-cost.sh REPO BUILD JOBS MEM TIMEOUT KDIR
set -euo pipefail
repo=$1 build=$2 jobs=$3 mem=$4 timeout=$5 kdir=$6
. "$repo/scripts/tree-common.sh"
find_tree || { echo "trace-cost: no kernel tree: run 'make tree' first" >&2; exit 1; }
f=mm/kmap_atomic.c
out=$build/trace-cost-$kdir.tsv

# While the file differs from the repository's, make refresh refuses and
# make tree puts it back (scripts/refresh-tree.sh, scripts/prepare-tree.sh).
echo "$f" >"$state/mutating"
restore() {
	cp "$repo/$f" "$tree/$f"
	rm -f "$state/mutating"
	make -s -C "$tree" O="$build/$kdir" ARCH=i386 -j"$jobs" bzImage modules >/dev/null
}
trap restore EXIT

# The file without the fast path's trace calls; fails if they moved.
without_events() {
	python3 - "$repo/$f" <<'PY'
import sys
s = open(sys.argv[1]).read()
calls = [
    ("\t\t\tif (trace_kmap_atomic_map_enabled())\n"
     "\t\t\t\tmap_event(type, pfn, vaddr, _RET_IP_);\n", ""),
    ("\t\t\tif (trace_kmap_atomic_unmap_enabled())\n"
     "\t\t\t\tunmap_event_pte(type, ptep, vaddr, _RET_IP_);\n", ""),
    ("\t} else if (trace_kmap_atomic_unmap_enabled()) {\n"
     "\t\tunmap_event_lowmem(type, vaddr, _RET_IP_);\n\t}\n", "\t}\n"),
]
for old, new in calls:
    if s.count(old) != 1:
        sys.exit("trace-cost: mm/kmap_atomic.c no longer has this fast-path call "
                 "once: update scripts/trace-cost.sh:\n" + old)
    s = s.replace(old, new)
# The helpers are left unused: keep gcc from warning about them.
s = s.replace("static noinline void ", "static noinline __maybe_unused void ")
sys.stdout.write(s)
PY
}

boot() {	# boot LABEL: the 512-page rows of one icount boot, to $build/trace-cost.LABEL
	make -s -C "$tree" O="$build/$kdir" ARCH=i386 -j"$jobs" bzImage modules
	mkdir -p "$build/run"
	echo true >"$build/run/cmd.sh"
	rm -f "$build/logs/run-latest.log"
	"$repo/scripts/qemu-run.sh" --flavor "$kdir" --mode run --smp 1 --mem "$mem" \
		--timeout "$timeout" --icount --modules "$build/$kdir/mm/kmap_atomic_bench.ko" \
		"$build" >/dev/null ||
		{ echo "trace-cost: the $1 boot failed; log: $build/logs/run-latest.log" >&2; exit 1; }
	tr -d '\r' <"$(readlink -f "$build/logs/run-latest.log")" | sed -E 's/^\[[ 0-9.]+\] //' |
		awk -F'\t' '$1 == "kmap_atomic_bench: KMAP-BENCH" && $3 == 512 { print $2 "\t" $5 }' |
		LC_ALL=C sort >"$build/trace-cost.$1"
	[[ -s $build/trace-cost.$1 ]] ||
		{ echo "trace-cost: the $1 boot printed no results; log: $build/logs/run-latest.log" >&2; exit 1; }
}

without_events >"$tree/$f"
boot without
cp "$repo/$f" "$tree/$f"
boot with
{
	printf 'pair\twithout\twith\tdifference\n'
	LC_ALL=C join -t $'\t' "$build/trace-cost.without" "$build/trace-cost.with" |
		awk -F'\t' -v OFS='\t' '{ print $1, $2, $3, sprintf("%+.2f", $3 - $2) }'
} >"$out"
rm -f "$build/trace-cost.without" "$build/trace-cost.with"
echo "  TRACE-COST $kdir, instructions per pair at 512 pages, events compiled out and in (disabled): $out"
column -t -s $'\t' "$out"
