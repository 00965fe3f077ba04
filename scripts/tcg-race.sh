#!/usr/bin/env bash
# make tcg-race: why every boot runs all its vCPUs on one TCG thread.
# Boots the release kernel KDIR RUNS times on 2 vCPUs with a host thread
# per vCPU (QEMU's multi-threaded TCG, its default) and RUNS times on one
# thread (ours), each boot through the harness to its exit with nothing to
# run, and counts the boots that qemu-run.sh says reset without a word (no
# exit status and no panic on the console; docs/qemu.md, "One TCG thread"), and
# among them those whose console stops at "sched_clock: Marking stable".
# Keeps the logs of the boots that did not end well, each with
# qemu-run.sh's message beside it (LOG.err), and writes the counts to
# build/tcg-race.tsv. Exits 1 if a boot on one thread failed in any way,
# 3 if no boot on multi-threaded TCG reset (inconclusive: raise RUNS).
# Usage: scripts/tcg-race.sh BUILD KDIR MEM TIMEOUT RUNS
set -euo pipefail
build=$1 kdir=$2 mem=$3 timeout=$4 runs=$5
[[ $runs =~ ^[1-9][0-9]*$ ]] && ((runs <= 1000)) ||
	{ echo "tcg-race: RUNS=$runs: give a number of boots per mode, 1 to 1000" >&2; exit 2; }
here=$(dirname "$0")
mkdir -p "$build/run" "$build/logs"
echo true >"$build/run/cmd.sh"
latest=$build/logs/run-$kdir-latest.log
err=$build/run/tcg-race.err
out=$build/tcg-race.tsv
printf 'thread\tboots\tsilent_resets\tat_sched_clock\tother_failures\n' >"$out"
declare -A silent other
for thread in multi single; do
	silent[$thread]=0 other[$thread]=0
	sched=0
	for ((i = 1; i <= runs; i++)); do
		rm -f "$latest"
		rc=0
		TCG_THREAD=$thread "$here/qemu-run.sh" --flavor "$kdir" --mode run --smp 2 --mem "$mem" \
			--timeout "$timeout" "$build" >/dev/null 2>"$err" || rc=$?
		# A boot that never started (no kernel, bad option) counts as nothing.
		[[ -s $latest ]] || { echo "tcg-race: boot $i did not start:" >&2; cat "$err" >&2; exit 2; }
		log=$(readlink -f "$latest")
		if ((rc == 0)); then
			rm -f "$log" "$latest" "$build/logs/run-latest.log"
			continue
		fi
		mv "$err" "$log.err"
		# The console's last line, without a printk time stamp (Debian's).
		last=$(tr -d '\r' <"$log" | sed 's/^\[ *[0-9.]*\] //' | grep -v '^[[:space:]]*$' | tail -1 || true)
		if ((rc == 1)) && grep -q 'reset itself without a word' "$log.err"; then
			silent[$thread]=$((silent[$thread] + 1))
			[[ $last == "sched_clock: Marking stable"* ]] && sched=$((sched + 1))
			echo "  RESET   thread=$thread boot $i, console ends: ${last:0:60}; log: ${log#"$build"/../}"
		else
			other[$thread]=$((other[$thread] + 1))
			echo "  FAIL    thread=$thread boot $i, status $rc: $(head -c 300 "$log.err")"
		fi
	done
	printf '%s\t%s\t%s\t%s\t%s\n' "$thread" "$runs" "${silent[$thread]}" "$sched" "${other[$thread]}" >>"$out"
	echo "tcg-race: thread=$thread: ${silent[$thread]} of $runs boots reset without a word" \
		"($sched at sched_clock), ${other[$thread]} failed otherwise"
done
if ((silent[single] + other[single] > 0)); then
	echo "tcg-race: boots on one TCG thread failed too: not (only) the multi-threaded race" >&2
	exit 1
fi
if ((silent[multi] == 0)); then
	echo "tcg-race: inconclusive: no boot reset on multi-threaded TCG either; raise RUNS" \
		"(about one boot in fifty resets)" >&2
	exit 3
fi
