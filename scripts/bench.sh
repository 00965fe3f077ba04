#!/usr/bin/env bash
# make bench: boot the release flavor, then the debug one, each on one CPU
# under QEMU's instruction counting (-icount shift=0: TSC units are
# executed instructions, the same every run), load the benchmark module,
# and turn its KMAP-BENCH lines into a table, build/bench/results.tsv and
# the two ratio lines. Flushes per pair are counted in the debug boot,
# whose kernel counts them (CONFIG_DEBUG_TLBFLUSH).
# Usage: scripts/bench.sh BUILD MEM TIMEOUT
set -euo pipefail
build=$1 mem=$2 timeout=$3
out=$build/bench
mkdir -p "$out"

for flavor in release debug; do
	ko=$build/$flavor/mm/kmap_atomic_bench.ko
	[[ -f $ko ]] || { echo "bench: no $ko: is CONFIG_KMAP_ATOMIC_BENCH=m in configs/$flavor.config?" >&2; exit 1; }
	scripts/qemu-run.sh --flavor "$flavor" --mode bench --smp 1 --mem "$mem" \
		--timeout "$timeout" --icount --modules "$ko" "$build"
	log=$(readlink -f "$build/logs/bench-latest.log")
	tr -d '\r' <"$log" | sed -n 's/^kmap_atomic_bench: KMAP-BENCH\t//p' >"$out/$flavor.raw"
	[[ -s $out/$flavor.raw ]] || { echo "bench: the $flavor boot printed no results; log: $log" >&2; exit 1; }
done

# name pages cpus mode units flushes: the release figures, then the debug
# ones. Only the debug kernel counts flushes ("-" in release rows); its
# typed unmap adds one, clearing the pte.
{
	awk -F'\t' -v OFS='\t' '{ print $1, $2, $3, "icount", $4, $5 }' "$out/release.raw"
	awk -F'\t' -v OFS='\t' '{ print $1, $2, $3, "icount-debug", $4, $5 }' "$out/debug.raw"
} >"$out/results.tsv"
sed -i '1i name\tpages\tcpus\tmode\tunits_per_op\tflushes_per_op' "$out/results.tsv"

awk -F'\t' '{ printf "%-24s %6s %5s %-13s %13s %15s\n", $1, $2, $3, $4, $5, $6 }' "$out/results.tsv"
# The README's table, made from results.tsv.
awk -F'\t' '
	NR == 1 { next }
	$4 == "icount" { rel[$1, $2] = $5; if (!($1 in seen)) { seen[$1] = 1; names[++n] = $1 } }
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
echo "  TABLE   ${out#"$PWD"/}/results.md"

awk -F'\t' '
	$4 == "icount" && $2 == 2 { v[$1] = $5 }
	END {
		printf "ratio typed/kmap_local_page: %.2f\n", v["typed_KM_USER0"] / v["kmap_local_page"]
		printf "ratio typed/raw_floor: %.2f\n", v["typed_KM_USER0"] / v["raw_floor"]
	}
' "$out/results.tsv"
