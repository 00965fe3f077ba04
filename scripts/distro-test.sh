#!/usr/bin/env bash
# make distro-test: the kernels of Debian's configuration (BASE=debian),
# each booted with PAE, 6G and 4 CPUs under qemu-system-x86_64, with every
# test that applies to it, the brd I/O checks, our stress test and
# Debian's stress-ng (STRESS_NG seconds, added to each boot's TIMEOUT).
# Then a table (build/distro/results.md) and the totals, "N passed,
# N failed" last. A boot whose log does not show the preemption mode it
# was given, or PTI enabled, fails here.
# Usage: scripts/distro-test.sh BUILD TIMEOUT STRESS STRESS_NG STRESS_NG_CPIO
set -uo pipefail
build=$1 timeout=$2 stress=$3 stress_ng=$4 cpio=$5
here=$(dirname "$0")
out=$build/distro
mkdir -p "$out"

# kernel (build/ folder)   preemption mode: preempt=none, preempt=full, or
# voluntary, Debian's default, given by no preempt= option at all
runs=(
	"debian-release         none"
	"debian-debug           full"
	"debian-release-noslots voluntary"
)

table=$out/results.md
{
	echo "| kernel | flavor | boot options | passed | failed | skipped | stress operations | mismatches | stress-ng (bogo operations) | page tables above 4 GiB | PTI |"
	echo "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- |"
} >"$table"
logs=()
tp=0 tf=0 ts=0
for r in "${runs[@]}"; do
	read -r kdir preempt <<<"$r"
	args="preempt=$preempt"
	[[ $preempt == voluntary ]] && args=
	echo "  DISTRO  $kdir SMP=4 MEM=6G ${args:-(no preempt= option: Debian default)}, stress-ng ${stress_ng}s"
	log=$out/$kdir-preempt-$preempt.log
	rm -f "$log"
	TEST_BOOT_INITRD_ADD=$cpio TEST_BOOT_ENV="STRESS_NG_SECONDS=$stress_ng DISTRO_HIGHPTE=y" \
		"$here/test-boot.sh" "$build" "$kdir" 4 6G $((timeout + stress_ng)) "$stress" '' "$args" \
		>/dev/null 2>"$out/$kdir.err"
	src=$build/logs/test-$kdir-latest.log
	if [[ -f $src ]]; then
		cp "$(readlink -f "$src")" "$log"
	else
		{ echo "distro-test: $kdir did not boot:"; cat "$out/$kdir.err"; } | tee "$log" >&2
	fi
	logs+=("$log")
	clean=$(tr -d '\r' <"$log" | sed -E 's/^\[[ 0-9.]+\] //')
	# What the boot must show of itself, as a failed case in the totals.
	bad_boot=()
	grep -q "^Dynamic Preempt: $preempt\$" <<<"$clean" || bad_boot+=("no 'Dynamic Preempt: $preempt' in the log")
	pti=enabled
	grep -q 'Kernel/User page tables isolation: enabled' <<<"$clean" || { pti=no; bad_boot+=("PTI is not enabled"); }
	# "stress-ng result: passed vm 7499, fault 1349, ...; failed: none"
	sng=$(sed -n 's/.*stress-ng result: \(.*\)$/\1/p' <<<"$clean" | tail -1)
	above=$(sed -n 's/.*page-table pages above 4 GiB halfway through: \([0-9]*\).*/\1/p' <<<"$clean" | tail -1)
	[[ -n $sng ]] || bad_boot+=("stress-ng gave no result line")
	[[ -n $above ]] || bad_boot+=("no count of page-table pages above 4 GiB")
	if ((${#bad_boot[@]})); then
		{
			echo "KTAP version 1"
			echo "1..1"
			printf '# %s\n' "${bad_boot[@]}"
			echo "not ok 1 distro-boot-$kdir"
		} >>"$log"
	fi
	last=$("$here/ktap-summary.py" "$log" | tail -1)
	read -r p f s <<<"$(sed -E 's/^([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?$/\1 \2 \4/' <<<"$last")"
	s=${s:-0}
	st=$(sed -n 's/.*kmap_atomic_stress: \([0-9]*\) operations .*, \([0-9]*\) mismatches, .*$/\1 \2/p' <<<"$clean" | tail -1)
	read -r ops bad <<<"${st:-- -}"
	flavor=release
	[[ $kdir == *debug* ]] && flavor=debug
	[[ $kdir == *noslots ]] && flavor="release, KMAP_ATOMIC_SLOTS=n"
	echo "          $last; stress: ${ops} operations, ${bad} mismatches;" \
		"stress-ng: ${sng:-did not run}; page tables above 4 GiB: ${above:-?}; PTI $pti"
	echo "| $kdir | $flavor | ${args:-none (voluntary)} | $p | $f | $s | $ops | $bad | ${sng:-did not run} | ${above:-?} | $pti |" >>"$table"
	tp=$((tp + p)) tf=$((tf + f)) ts=$((ts + s))
done
echo "| all ${#runs[@]} boots | | | $tp | $tf | $ts | | | | | |" >>"$table"
echo
cat "$table"
echo
# The failures with their excerpts, then the one closing line.
"$here/ktap-summary.py" "${logs[@]}" | grep -v '^log: '
