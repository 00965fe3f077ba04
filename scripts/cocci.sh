#!/usr/bin/env bash
# Run the typed-kmap semantic patches (scripts/coccinelle/api/kmap_atomic_*.cocci).
# Usage:
#   scripts/cocci.sh report TOP [DIR]   the checks' findings over DIR (an outside
#                                       module folder) or the series' own code;
#                                       exits 0 if none, 1 if there are any, 2 if
#                                       spatch failed or is missing (or a usage
#                                       error); code spatch could not parse is
#                                       counted on stderr
#   scripts/cocci.sh patch TOP [DIR]    the kmap_local_page() conversion as a diff
#                                       on stdout; the pairs it leaves on stderr
#   scripts/cocci.sh selftest TOP KTAP  the semantic patches' own cases
#                                       (scripts/coccinelle/tests/), as KTAP;
#                                       written (not ok) even if spatch fails
set -euo pipefail

mode=${1:-} top=${2:-}
[[ -n $mode && -d $top ]] || { sed -n '2,14s/^# \{0,1\}//p' "$0" >&2; exit 2; }
top=$(cd "$top" && pwd)
api=$top/scripts/coccinelle/api
tests=$top/scripts/coccinelle/tests
checks=(kmap_atomic_context kmap_atomic_pairing kmap_atomic_sleep)
spatch_opts=(--very-quiet --no-includes --include-headers)

no_spatch="spatch is not installed: run 'make cocci' (it installs coccinelle) or apt-get install coccinelle"
have_spatch=1
command -v spatch >/dev/null 2>&1 || have_spatch=0
if ((!have_spatch)) && [[ $mode != selftest ]]; then
	echo "cocci: $no_spatch" >&2
	exit 2
fi

# The series' own code. The misuse suites (misuse, debug, trace, survive,
# log) and the misuse sample commit each misuse on purpose, so they are
# not checked by default.
series_files() {
	(cd "$top" && ls mm/kmap_atomic/*.c mm/kmap_atomic/*.h samples/kmap_atomic/*.c \
		include/linux/bio-kmap.h include/linux/highmem-typed.h) |
		grep -vxE 'mm/kmap_atomic/(misuse|debug|trace|survive|log)_kunit\.c|samples/kmap_atomic/kmap_atomic_misuse\.c'
}

# The files to look at: DIR's .c and .h files, or the series' own.
files=()
pick_files() {
	local dir=${1:-}
	if [[ -z $dir ]]; then
		mapfile -t files < <(series_files)
		cd "$top"
		return
	fi
	[[ -d $dir ]] || { echo "cocci: M=$dir is not a folder: give M=<folder with the module's .c files>" >&2; exit 2; }
	[[ -n $(find "$dir" -name '*.c' -type f -print -quit) ]] ||
		{ echo "cocci: M=$dir has no .c files: give M=<folder with the module's .c files>" >&2; exit 2; }
	mapfile -t files < <(find "$dir" -name '*.[ch]' -type f | LC_ALL=C sort)
}

run() {	# run VIRTUAL COCCI FILE...
	local virtual=$1 cocci=$2
	shift 2
	spatch "${spatch_opts[@]}" -D "$virtual" --sp-file "$api/$cocci.cocci" "$@"
}

# What spatch could not parse in FILE...: it checks nothing there, so a
# finding there would be missed. One line per file with unparsable lines.
unparsed() {
	spatch --no-includes --include-headers --parse-c "$@" 2>&1 |
		awk '/^PARSING: / { f = substr($0, 10) } /^BAD:/ { n[f]++ }
		     END { for (f in n) printf "cocci: %s: spatch cannot parse %d line(s)\n", f, n[f] }' |
		LC_ALL=C sort
}

case $mode in
report)
	pick_files "${3:-}"
	echo "  COCCI   ${checks[*]} over ${#files[@]} files${3:+ in $3}" >&2
	out=$(for c in "${checks[@]}"; do run report "$c" "${files[@]}" || exit; done) ||
		{ echo "cocci: spatch failed (exit $?): no findings to report" >&2; exit 2; }
	out=$(LC_ALL=C sort -t: -k1,1 -k2,2n <<<"$out")
	[[ -n $out ]] && echo "$out"
	n=$(grep -c . <<<"$out" || true)
	bad=$(unparsed "${files[@]}") ||
		{ echo "cocci: spatch --parse-c failed (exit $?)" >&2; exit 2; }
	if [[ -n $bad ]]; then
		echo "$bad" >&2
		echo "  COCCI   $n findings; $(grep -c . <<<"$bad") of ${#files[@]} files not wholly parsed: findings there can be missed" >&2
	else
		echo "  COCCI   $n findings; all ${#files[@]} files parsed" >&2
	fi
	((n == 0)) || exit 1
	;;
patch)
	pick_files "${3:-}"
	echo "  COCCI   kmap_atomic_to_local over ${#files[@]} files${3:+ in $3}" >&2
	run patch kmap_atomic_to_local "${files[@]}"
	# What the conversion leaves as it is, and why.
	run report kmap_atomic_to_local "${files[@]}" >&2
	;;
selftest)
	ktap=${3:?selftest needs the KTAP file to write}
	mkdir -p "$(dirname "$ktap")"
	ktap=$(realpath "$ktap")
	# No earlier run's results. A run that stops half way (spatch fails
	# under set -e) writes a single "not ok" with the reason, so that the
	# summary counts it.
	rm -f "$ktap"
	step="starting"
	finished=0
	selftest_exit() {
		local rc=$?
		rm -rf "${work:-}"
		((finished)) && return
		printf 'KTAP version 1\n1..1\n# cocci.sh stopped (exit %s) while %s\nnot ok 1 cocci\n' \
			"$rc" "$step" >"$ktap"
		echo "cocci: selftest stopped (exit $rc) while $step -> $ktap" >&2
	}
	trap selftest_exit EXIT
	# Written even when nothing can run, so that the summary counts it.
	if ((!have_spatch)); then
		step="looking for spatch: $no_spatch"
		exit 1
	fi
	work=$(mktemp -d)
	cd "$tests"
	# A case is a .c file: its findings must be exactly the lines marked
	# "// EXPECT: <tag>" (none for a must-leave-alone or correct-usage case).
	# The checks run on every case; kmap_atomic_to_local (a conversion, not a
	# check) in report mode on the nesting cases. A .c with a .res beside it is
	# a patch-mode case: the conversion's output must be the .res.
	cases=() patch_cases=()
	for c in *.c; do
		if [[ -f ${c%.c}.res ]]; then patch_cases+=("$c"); else cases+=("$c"); fi
	done
	for c in "${checks[@]}"; do
		step="running $c.cocci on the cases"
		run report "$c" "${cases[@]}"
	done >"$work/found"
	# The series' own code (samples, KUnit suites but those that misuse on
	# purpose, the headers) is correct 2.6-style usage: no finding.
	step="running the checks over the series' own code"
	mapfile -t own < <(series_files)
	(cd "$top" && for c in "${checks[@]}"; do run report "$c" "${own[@]}"; done) >"$work/own"
	step="running kmap_atomic_to_local.cocci on nesting*.c"
	run report kmap_atomic_to_local nesting*.c >>"$work/found"
	step="writing the results"
	{
		echo "KTAP version 1"
		echo "1..1"
		echo "    KTAP version 1"
		echo "    # Subtest: cocci"
		echo "    1..$((${#cases[@]} + ${#patch_cases[@]} + 1))"
	} >"$ktap"
	n=0 failed=0
	result() {	# result NAME WHY
		n=$((n + 1))
		if [[ -z $2 ]]; then
			echo "    ok $n $1" >>"$ktap"
		else
			mapfile -t lines <<<"$2"
			{ printf '    # %s\n' "${lines[@]}"; echo "    not ok $n $1"; } >>"$ktap"
			failed=$((failed + 1))
		fi
	}
	# A case spatch cannot wholly parse would pass unseen where it has
	# nothing to find: each one is part of its case's verdict.
	step="parsing the cases"
	unparsed "${cases[@]}" >"$work/unparsed"
	for c in "${cases[@]}"; do
		want=$(sed -nE 's|.*// EXPECT: ([a-z-]+).*|\1|; T; =; p' "$c" | paste -d' ' - - | LC_ALL=C sort)
		got=$(sed -nE "s|^$c:([0-9]+): .*\[([a-z-]+)\]$|\1 \2|p" "$work/found" | LC_ALL=C sort)
		why=$(
			LC_ALL=C comm -23 <(echo "$want") <(echo "$got") | sed '/^$/d; s/^/missed: line /'
			LC_ALL=C comm -13 <(echo "$want") <(echo "$got") | sed '/^$/d; s/^/not expected: line /'
			grep -F "cocci: $c: " "$work/unparsed" || true
		)
		result "${c%.c}" "$why"
	done
	for c in "${patch_cases[@]}"; do
		run patch kmap_atomic_to_local "$c" -o "$work/$c" >/dev/null 2>&1 || true
		why=
		if [[ ! -f $work/$c ]]; then
			why="spatch wrote no output"
		elif ! d=$(diff -u "${c%.c}.res" "$work/$c"); then
			why="the conversion differs from ${c%.c}.res:"$'\n'"$d"
		fi
		result "${c%.c}" "$why"
	done
	result series-own-code "$(sed 's/^/not expected: /' "$work/own")"
	if ((failed)); then echo "not ok 1 cocci"; else echo "ok 1 cocci"; fi >>"$ktap"
	finished=1
	echo "  COCCI   $n cases of the semantic patches, $failed failed -> $ktap"
	((failed == 0))
	;;
*)
	echo "cocci: unknown mode '$mode': give report, patch or selftest" >&2
	exit 2
	;;
esac
