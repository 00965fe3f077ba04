#!/usr/bin/env bash
# make matrix: boot each memory model with the MEM and SMP that make sense
# for it, each with KUnit, the userspace checks and STRESS seconds of the
# stress test and 1,000,000 operations of each random state-machine test
# (the slots', and the map log's without them: MATRIX_RANDOM_OPS); then a
# table (build/matrix/results.md) and the totals, "N passed, N failed" last.
# Usage: scripts/matrix.sh BUILD TIMEOUT STRESS
set -uo pipefail
build=$1 timeout=$2 stress=$3
here=$(dirname "$0")
out=$build/matrix
# The random state-machine test's operations per boot (make test: 100,000).
random_ops=${MATRIX_RANDOM_OPS:-1000000}
mkdir -p "$out"

# kernel (build/ folder)  memory model  MEM  SMP
runs=(
	"debug            PAE,HIGHMEM64G  6G   4"
	"debug            PAE,HIGHMEM64G  6G   1"
	"debug            PAE,HIGHMEM64G  3G   2"
	"debug            PAE,HIGHMEM64G  512M 1"
	"debug-highmem4g  HIGHMEM4G       3G   4"
	"debug-highmem4g  HIGHMEM4G       3G   2"
	"debug-highmem4g  HIGHMEM4G       512M 1"
	"debug-nohighmem  NOHIGHMEM       3G   2"
	"debug-nohighmem  NOHIGHMEM       512M 1"
	"debug-noslots    PAE,SLOTS=n     6G   4"
)

table=$out/results.md
{
	echo "| kernel | MEM | SMP | passed | failed | skipped | stress operations | mismatches | misuse reports |"
	echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
} >"$table"
logs=()
tp=0 tf=0 ts=0 tops=0 tbad=0
for r in "${runs[@]}"; do
	read -r kdir model mem smp <<<"$r"
	echo "  MATRIX  $model MEM=$mem SMP=$smp"
	"$here/test-boot.sh" "$build" "$kdir" "$smp" "$mem" "$timeout" "$stress" "" \
		"kmap_atomic_survive_kunit.random_ops=$random_ops kmap_atomic_log_kunit.random_ops=$random_ops" >/dev/null 2>&1
	log=$(readlink -f "$build/logs/test-$kdir-latest.log")
	cp "$log" "$out/$kdir-$mem-smp$smp.log"
	log=$out/$kdir-$mem-smp$smp.log
	logs+=("$log")
	last=$("$here/ktap-summary.py" "$log" | tail -1)
	read -r p f s <<<"$(sed -E 's/^([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?$/\1 \2 \4/' <<<"$last")"
	s=${s:-0}
	# "kmap_atomic_stress: N operations in S s on C CPUs (...), M mismatches, R misuse reports"
	st=$(tr -d '\r' <"$log" | sed -n 's/.*kmap_atomic_stress: \([0-9]*\) operations .*, \([0-9]*\) mismatches, \([0-9]*\) misuse reports$/\1 \2 \3/p' | tail -1)
	read -r ops bad reps <<<"${st:-- - -}"
	echo "          $last; stress: ${ops} operations, ${bad} mismatches, ${reps} misuse reports"
	echo "| $model | $mem | $smp | $p | $f | $s | $ops | $bad | $reps |" >>"$table"
	tp=$((tp + p)) tf=$((tf + f)) ts=$((ts + s))
	[[ $ops =~ ^[0-9]+$ ]] && tops=$((tops + ops))
	[[ $bad =~ ^[0-9]+$ ]] && tbad=$((tbad + bad))
done
echo "| all ${#runs[@]} boots | | | $tp | $tf | $ts | $tops | $tbad | |" >>"$table"
echo
cat "$table"
echo
# The failures with their excerpts, then the one closing line.
"$here/ktap-summary.py" "${logs[@]}" | grep -v '^log: '
