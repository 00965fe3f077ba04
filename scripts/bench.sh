#!/usr/bin/env bash
# make bench: boot the release flavor, then the debug one, each on one CPU
# under QEMU's instruction counting (-icount shift=0: TSC units are
# executed instructions, the same every run), load the benchmark module,
# then boot release on 4 CPUs in plain TCG for scaling and brd (medians of
# 5 wall-clock runs), and turn the KMAP-BENCH lines into a table,
# build/bench/results.tsv and the ratio lines; with the text a typed call
# site, brd and vmlinux take (scripts/code-size.sh, code-size.tsv).
# Flushes per pair are counted in the debug boot, whose kernel counts them
# (CONFIG_DEBUG_TLBFLUSH).
# With PREFIX (debian-), the kernels of that base: build/debian-release and
# build/debian-debug, results in build/bench-debian/.
# Usage: scripts/bench.sh BUILD MEM TIMEOUT [PREFIX]
set -euo pipefail
build=$1 mem=$2 timeout=$3 prefix=${4:-}
out=$build/bench${prefix:+-${prefix%-}}
# A console log without its carriage returns and printk's time stamps
# (Debian's configuration has PRINTK_TIME).
console() { tr -d '\r' <"$1" | sed -E 's/^\[[ 0-9.]+\] //'; }
mkdir -p "$out"

# The release boot also times brd's O_DIRECT I/O (bench-brd-icount.sh).
mkdir -p "$build/run"
cp tools/testing/kmap_atomic/bench-brd-icount.sh "$build/run/cmd.sh"
for flavor in release debug; do
	kdir=$prefix$flavor
	ko=$build/$kdir/mm/kmap_atomic/kmap_atomic_bench.ko
	[[ -f $ko ]] || { echo "bench: no $ko: is CONFIG_KMAP_ATOMIC_BENCH=m in configs/$flavor.config?" >&2; exit 1; }
	mode=bench
	[[ $flavor == release ]] && mode=run
	scripts/qemu-run.sh --flavor "$kdir" --mode $mode --smp 1 --mem "$mem" \
		--timeout "$timeout" --icount --modules "$ko" "$build" >/dev/null ||
		{ echo "bench: the $flavor icount boot failed; log: $build/logs/$mode-latest.log" >&2; exit 1; }
	log=$(readlink -f "$build/logs/$mode-latest.log")
	console "$log" | sed -n 's/^kmap_atomic_bench: KMAP-BENCH\t//p' >"$out/$flavor.raw"
	[[ -s $out/$flavor.raw ]] || { echo "bench: the $flavor boot printed no results; log: $log" >&2; exit 1; }
done
# brd: instructions per 4 KiB block, the start-up of an empty dd taken off.
console "$(readlink -f "$build/logs/run-latest.log")" | awk -v OFS='\t' '
	$1 == "KMAP-BRD" { print "brd_icount_" $2, 4096, 1, sprintf("%.0f", ($7 - $6 - ($5 - $4)) / $3), "-" }
' >"$out/brd-icount.raw"
[[ $(wc -l <"$out/brd-icount.raw") == 4 ]] ||
	{ echo "bench: the release icount boot did not time brd; log: $build/logs/run-latest.log" >&2; exit 1; }

# Plain TCG, four CPUs, wall clock: scaling and brd, five runs of each.
# A host thread per vCPU (TCG_THREAD=multi), or nothing would run at once.
mkdir -p "$build/run"
cp tools/testing/kmap_atomic/bench-tcg.sh "$build/run/cmd.sh"
TCG_THREAD=multi scripts/qemu-run.sh --flavor "${prefix}release" --mode run --smp 4 --mem "$mem" --timeout "$timeout" \
	--modules "$build/${prefix}release/mm/kmap_atomic/kmap_atomic_bench.ko" "$build" >/dev/null ||
	{ echo "bench: the plain-TCG boot failed; log: $build/logs/run-latest.log" >&2; exit 1; }
log=$(readlink -f "$build/logs/run-latest.log")
console "$log" | sed -n 's/^\(kmap_atomic_bench: \)\{0,1\}KMAP-BENCH\t\(\(scaling\|brd\)_\)/\2/p' |
	sort -t $'\t' -k1,1 -k3,3n -k4,4n |
	awk -F'\t' -v OFS='\t' '
		function flush() { if (n) { m = v[int((n + 1) / 2)]; print key, m, "-" } n = 0 }
		{ k = $1 FS $2 FS $3; if (k != key) { flush(); key = k } v[++n] = $4 }
		END { flush() }
	' >"$out/tcg.raw"
[[ -s $out/tcg.raw ]] || { echo "bench: the plain-TCG boot printed no results; log: $log" >&2; exit 1; }

# name pages cpus mode units flushes: the release figures, then the debug
# ones. Only the debug kernel counts flushes ("-" in release rows); its
# typed unmap adds one, clearing the pte.
{
	awk -F'\t' -v OFS='\t' '{ print $1, $2, $3, "icount", $4, $5 }' "$out/release.raw" "$out/brd-icount.raw"
	awk -F'\t' -v OFS='\t' '{ print $1, $2, $3, "icount-debug", $4, $5 }' "$out/debug.raw"
	awk -F'\t' -v OFS='\t' '{ print $1, $2, $3, "tcg-median5", $4, $5 }' "$out/tcg.raw"
} >"$out/results.tsv"
sed -i '1i name\tpages\tcpus\tmode\tunits_per_op\tflushes_per_op' "$out/results.tsv"

awk -F'\t' '{ printf "%-24s %6s %5s %-13s %13s %15s\n", $1, $2, $3, $4, $5, $6 }' "$out/results.tsv"
# docs/benchmark.md's table, made from results.tsv.
awk -F'\t' '
	NR == 1 { next }
	$4 == "icount" && $1 !~ /^brd_/ { rel[$1, $2] = $5; if (!($1 in seen)) { seen[$1] = 1; names[++n] = $1 } }
	$4 == "icount-debug" { dbg[$1, $2] = $5; fl[$1, $2] = $6 }
	END {
		print "| pair | 2 pages | 512 pages | 4096 pages | debug, 2 pages | flushes/pair (debug) |"
		print "| --- | ---: | ---: | ---: | ---: | ---: |"
		for (i = 1; i <= n; i++) {
			k = names[i]
			printf "| %s | %s | %s | %s | %s | %s |\n", k, rel[k, 2], rel[k, 512],
				rel[k, 4096], dbg[k, 2], fl[k, 2]
		}
	}
' "$out/results.tsv" >"$out/results.md"
awk -F'\t' '
	$4 == "tcg-median5" && $1 ~ /^scaling_/ { sc[$1, $3] = $5; if (!($1 in s)) { s[$1] = 1; sn[++n] = $1 } }
	$4 == "tcg-median5" && $1 ~ /^brd_/ { brd[$1] = $5 }
	$4 == "icount" && $1 ~ /^brd_icount_/ { bi[$1] = $5 }
	END {
		print ""
		print "| brd under -icount, instructions per 4 KiB O_DIRECT block (release, 1 CPU) | typed | typed_kmap=0 |"
		print "| --- | ---: | ---: |"
		printf "| write | %s | %s |\n", bi["brd_icount_typed-write"], bi["brd_icount_untyped-write"]
		printf "| read | %s | %s |\n", bi["brd_icount_typed-read"], bi["brd_icount_untyped-read"]
		print ""
		print "| plain TCG, 4 vCPUs, wall clock, median of 5 | 1 CPU | 2 CPUs | 4 CPUs |"
		print "| --- | ---: | ---: | ---: |"
		for (i = 1; i <= n; i++)
			printf "| %s, ns per pair per CPU | %s | %s | %s |\n", sn[i], sc[sn[i], 1],
				sc[sn[i], 2], sc[sn[i], 4]
		print ""
		print "| brd, O_DIRECT dd of 128 MiB, MB/s, median of 5 (wall clock: noise) | typed | untyped |"
		print "| --- | ---: | ---: |"
		printf "| write | %s | %s |\n", brd["brd_typed_write_MBps"], brd["brd_untyped_write_MBps"]
		printf "| read | %s | %s |\n", brd["brd_typed_read_MBps"], brd["brd_untyped_read_MBps"]
	}
' "$out/results.tsv" >>"$out/results.md"
echo "  TABLE   ${out#"$PWD"/}/results.md"
# The release icount rows as a picture, results.svg (gnuplot), for docs/benchmark.md.
base=${prefix%-}
scripts/bench-plot.sh "$out/results.tsv" "$out/results.svg" "BASE=${base:-tiny}"

# What the typed map + unmap costs in text: per call site, brd, vmlinux.
scripts/code-size.sh "$PWD" "$build" "${prefix}release" "$out/code-size.tsv" >/dev/null
echo "  SIZE    ${out#"$PWD"/}/code-size.tsv"
awk -F'\t' '{ printf "code size %s: %s bytes\n", $1, $2 }' "$out/code-size.tsv"

# The goals (release, icount, same boot): the typed pair at most 0.45x
# kmap_local_page and within 1.6x of the floor that clears, at 2, 512 and
# 4096 pages, flat from 2 to 4096 pages within 1.05x; the two ratio lines
# of the first round stay last.
awk -F'\t' '
	$4 == "icount" { v[$1, $2] = $5 }
	function ratio(name, floor) {
		printf "ratio %s: %.2f (2 pages), %.2f (512), %.2f (4096)\n", name,
			v[t, 2] / v[floor, 2], v[t, 512] / v[floor, 512], v[t, 4096] / v[floor, 4096]
	}
	END {
		t = "typed_KM_USER0"
		printf "flatness typed 4096/2 pages: %.2f\n", v[t, 4096] / v[t, 2]
		ratio("typed/raw_floor", "raw_floor")
		ratio("typed/raw_floor_clear", "raw_floor_clear")
		ratio("typed/kmap_local_page", "kmap_local_page")
	}
' "$out/results.tsv"
