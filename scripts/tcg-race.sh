#!/usr/bin/env bash
# make tcg-race: why every boot runs all its vCPUs on one TCG thread.
# Boots the release kernel KDIR RUNS times on 2 vCPUs with a host thread
# per vCPU (QEMU's multi-threaded TCG, its default) and RUNS times on one
# thread (ours), each boot only as far as the harness's exit, and counts
# the boots that stopped with no exit status and no panic, oops or BUG in
# the log: the guest reset itself without a word (README, "One TCG
# thread"). Keeps those logs, prints both counts and writes them to
# build/tcg-race.tsv.
# Usage: scripts/tcg-race.sh BUILD KDIR MEM RUNS
set -euo pipefail
build=$1 kdir=$2 mem=$3 runs=$4
[[ $runs =~ ^[1-9][0-9]*$ ]] && ((runs <= 1000)) ||
	{ echo "tcg-race: RUNS=$runs: give a number of boots per mode, 1 to 1000" >&2; exit 2; }
here=$(dirname "$0")
mkdir -p "$build/run"
echo true >"$build/run/cmd.sh"
out=$build/tcg-race.tsv
printf 'thread\tboots\tsilent_resets\tother_failures\n' >"$out"
for thread in multi single; do
	flag=()
	[[ $thread == multi ]] && flag=(--mttcg)
	silent=0 other=0
	for ((i = 1; i <= runs; i++)); do
		rc=0
		"$here/qemu-run.sh" --flavor "$kdir" --mode run --smp 2 --mem "$mem" --timeout 300 \
			"${flag[@]}" "$build" >/dev/null 2>&1 || rc=$?
		log=$(readlink -f "$build/logs/run-latest.log")
		if ((rc == 0)); then
			rm -f "$log"
		elif ! grep -q 'KMAP-HARNESS-EXIT\|Kernel panic\|Oops\|BUG:' "$log"; then
			silent=$((silent + 1))
			echo "  RESET   thread=$thread boot $i: no exit status, no panic; log: ${log#"$build"/../}"
		else
			other=$((other + 1))
			echo "  FAIL    thread=$thread boot $i: status $rc; log: ${log#"$build"/../}"
		fi
	done
	printf '%s\t%s\t%s\t%s\n' "$thread" "$runs" "$silent" "$other" >>"$out"
	echo "tcg-race: thread=$thread: $silent of $runs boots reset silently, $other failed otherwise"
done
