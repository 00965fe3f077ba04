#!/usr/bin/env bash
# Check scripts/bench-plot.sh on the fixtures in scripts/tests/bench-plot/:
# a full results.tsv gives an SVG with every series in its legend; a tsv
# without the floor rows, a tsv that is not there and a host without
# gnuplot each fail, saying what is wrong and that make bench writes the
# rows. Writes the results as a KTAP document, for ktap-summary.py.
# Usage: scripts/bench-plot-check.sh BUILD
set -uo pipefail
# Not -e: a plot that fails is a result here, not an error.
build=$1
here=$(dirname "$0")
plot=$here/bench-plot.sh
fixtures=$here/tests/bench-plot
work=$build/bench-plot-check
ktap=$build/logs/bench-plot.ktap
suite=bench-plot
series=(typed_KM_USER0 typed_KM_SOFTIRQ0 typed_KM_IRQ0 kmap_atomic_untyped kmap_local_page kmap
	typed_KM_USER0_lowmem raw_floor raw_floor_clear)

rm -rf "$work"
mkdir -p "$work" "$(dirname "$ktap")"
n=0 failed=0 results=()
# result NAME WHY: ok if WHY is empty; "SKIP reason" skips.
result() {
	n=$((n + 1))
	if [[ -z $2 ]]; then
		results+=("    ok $n $1")
	elif [[ $2 == SKIP\ * ]]; then
		results+=("    ok $n $1 # $2")
	else
		results+=("    # $1: $2" "    not ok $n $1")
		failed=1
	fi
}
# run NAME TSV: the plot of TSV into $work/NAME.svg; status in rc, stderr in err.
run() {
	rc=0
	err=$("$BASH" "$plot" "$2" "$work/$1.svg" 2>&1 >/dev/null) || rc=$?
}

# A full results.tsv: an SVG, 800x500 on white, each series in the legend.
why=
if ! command -v gnuplot >/dev/null 2>&1; then
	why="SKIP gnuplot is not installed (make bench installs gnuplot-nox)"
else
	run plots-every-series "$fixtures/results.tsv"
	svg=$work/plots-every-series.svg
	if ((rc != 0)); then
		why="it exits $rc: ${err//$'\n'/ }"
	elif ! grep -q '<svg' "$svg" 2>/dev/null; then
		why="no SVG in $svg"
	elif ! grep -q 'width="800" height="500"' "$svg" || ! grep -q 'fill="#ffffff"' "$svg"; then
		why="$svg is not 800x500 on white"
	else
		for s in "${series[@]}"; do
			# The legend's entry: the name, then the end of the text or ": ".
			grep -qE ">$s(<|: )" "$svg" || why+="${why:+, }no legend entry $s"
		done
		grep -q '>instructions per map + unmap pair<' "$svg" || why+="${why:+, }no y axis label"
	fi
fi
result plots-every-series "$why"

# No floor rows (a debug row of raw_floor is there: it must not count).
run rejects-missing-floors "$fixtures/no-floors.tsv"
why=
if ((rc == 0)); then
	why="it exits 0 without the floor rows"
elif [[ -e $work/rejects-missing-floors.svg ]]; then
	why="it leaves an SVG behind"
else
	for want in "raw_floor at 2, 512, 4096 pages" "raw_floor_clear at 2, 512, 4096 pages" \
		"$fixtures/no-floors.tsv" "run make bench"; do
		grep -qF -- "$want" <<<"$err" || why+="${why:+, }it does not say '$want'"
	done
fi
result rejects-missing-floors "${why:+$why (it said: ${err//$'\n'/ })}"

# No tsv at all.
run rejects-missing-tsv "$work/nothing-here.tsv"
why=
if ((rc == 0)); then
	why="it exits 0 with no tsv"
elif ! grep -qF "cannot read $work/nothing-here.tsv: run make bench" <<<"$err"; then
	why="it does not say the tsv is missing and to run make bench (it said: ${err//$'\n'/ })"
fi
result rejects-missing-tsv "$why"

# No gnuplot: a PATH with only what the script runs before it needs gnuplot.
bin=$work/bin-without-gnuplot
mkdir -p "$bin"
for c in awk grep sed; do ln -s "$(command -v "$c")" "$bin/$c"; done
rc=0
err=$(PATH=$bin "$BASH" "$plot" "$fixtures/results.tsv" "$work/no-gnuplot.svg" 2>&1 >/dev/null) || rc=$?
why=
if ((rc == 0)); then
	why="it exits 0 without gnuplot"
elif ! grep -qF "gnuplot is missing: apt-get install gnuplot-nox" <<<"$err"; then
	why="it does not say gnuplot is missing (it said: ${err//$'\n'/ })"
fi
result says-gnuplot-missing "$why"

{
	echo "KTAP version 1"
	echo "1..1"
	echo "    KTAP version 1"
	echo "    # Subtest: $suite"
	echo "    1..$n"
	printf '%s\n' "${results[@]}"
	if ((failed)); then echo "not ok 1 $suite"; else echo "ok 1 $suite"; fi
} >"$ktap"
echo "  CHECKS  $n checks of scripts/bench-plot.sh -> ${ktap#"$PWD"/}"
