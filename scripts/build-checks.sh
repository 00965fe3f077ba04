#!/usr/bin/env bash
# Compile each tools/testing/kmap_atomic/build-checks/*.c as a module
# against the built kernel and check it does what its "// expect:" line
# says: "compiles", or "error <text>" (it must fail, saying <text>).
# Writes the results as a KTAP document, for ktap-summary.py.
# Usage: scripts/build-checks.sh TREE KERNEL_OUT CHECKS_DIR WORK_DIR KTAP_FILE
set -uo pipefail
# Not -e: a module that fails to compile is a result here, not an error.
tree=$1 out=$2 checks=$3 work=$4 ktap=$5
suite=build-checks-$(basename "$out")

files=("$checks"/*.c)
rm -rf "$work"
mkdir -p "$(dirname "$ktap")"
mkdir -p "$work"
{
	echo "KTAP version 1"
	echo "1..1"
	echo "    KTAP version 1"
	echo "    # Subtest: $suite"
	echo "    1..${#files[@]}"
} >"$ktap"
n=0 failed=0
for c in "${files[@]}"; do
	n=$((n + 1))
	name=$(basename "$c" .c)
	expect=$(sed -n 's|^// expect: ||p' "$c" | head -1)
	dir=$work/$name
	mkdir -p "$dir"
	cp "$c" "$dir/check.c"
	echo "obj-m := check.o" >"$dir/Kbuild"
	rc=0
	log=$(make -s -C "$tree" O="$out" ARCH=i386 M="$dir" modules 2>&1) || rc=$?
	why=
	case $expect in
	compiles) ((rc == 0)) || why="it does not compile" ;;
	error\ *)
		want=${expect#error }
		if ((rc == 0)); then
			why="it compiles, but should fail saying '$want'"
		elif ! grep -qF -- "$want" <<<"$log"; then
			why="it fails, but without saying '$want'"
		fi
		;;
	*) why="no '// expect: compiles' or '// expect: error <text>' line" ;;
	esac
	if [[ -z $why ]]; then
		echo "    ok $n $name" >>"$ktap"
	else
		{
			echo "    # $name: $why"
			grep -m5 -E 'error|warning' <<<"$log" | sed 's/^/    # /'
			echo "    not ok $n $name"
		} >>"$ktap"
		failed=1
	fi
done
if ((failed)); then echo "not ok 1 $suite"; else echo "ok 1 $suite"; fi >>"$ktap"
echo "  CHECKS  ${#files[@]} build checks against $(basename "$out") -> ${ktap#"$PWD"/}"
