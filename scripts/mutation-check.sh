#!/usr/bin/env bash
# make mutation-check: show that the release kernel's tests can fail. Each
# mutation removes one safety property from mm/kmap_atomic.c in the kernel
# tree (the flush at unmap, the pte clear at unmap, the collision check, the
# type bound check); the release flavor is rebuilt with it and booted with
# the kmap_atomic and kmap_atomic_misuse KUnit suites as modules, and the
# boot must fail. The file is put back afterwards, whatever happens, and
# the release kernel rebuilt from it.
# Usage: scripts/mutation-check.sh REPO BUILD JOBS MEM TIMEOUT
set -euo pipefail
repo=$1 build=$2 jobs=$3 mem=$4 timeout=$5
. "$repo/scripts/tree-common.sh"
find_tree || { echo "mutation-check: no kernel tree: run 'make tree' first" >&2; exit 1; }
file=mm/kmap_atomic.c
out=$build/release
logs=$build/mutation
mkdir -p "$logs"

restore() {
	cp "$repo/$file" "$tree/$file"
	make -s -C "$tree" O="$out" ARCH=i386 -j"$jobs" bzImage modules >/dev/null
}
trap restore EXIT

# name|sed expression on the file
mutations=(
	'no-flush-at-unmap|s/^\(\s*\)arch_kmap_local_post_unmap(vaddr);$/\1barrier();/'
	'no-pte-clear-at-unmap|s/^\(\s*\)pte_clear(&init_mm, vaddr, .*);$/\1barrier();/'
	'no-collision-check|s/idx < KM_TYPE_NR && pte_none(ptep_get(slot_pte(idx)))/idx < KM_TYPE_NR/'
	'no-type-bound-check|s/likely(idx < KM_TYPE_NR && pte_none/likely(pte_none/'
)

failed_as_wanted=0
for m in "${mutations[@]}"; do
	IFS='|' read -r name expr <<<"$m"
	cp "$repo/$file" "$tree/$file"
	sed -i "$expr" "$tree/$file"
	if cmp -s "$repo/$file" "$tree/$file"; then
		echo "mutation-check: $name changed nothing in $file: update its expression" >&2
		exit 1
	fi
	echo "  MUTANT  $name: $(diff "$repo/$file" "$tree/$file" | grep -c '^>') line(s) of $file"
	make -s -C "$tree" O="$out" ARCH=i386 -j"$jobs" bzImage modules
	kunit=("$out/mm/kmap_atomic_kunit.ko" "$out/mm/kmap_atomic_misuse_kunit.ko")
	mkdir -p "$build/run"
	echo true >"$build/run/cmd.sh"
	"$repo/scripts/qemu-run.sh" --flavor release --mode run --smp 2 --mem "$mem" \
		--timeout "$timeout" --kunit-modules "${kunit[*]}" "$build" >/dev/null || true
	cp "$(readlink -f "$build/logs/run-latest.log")" "$logs/$name.log"
	if "$repo/scripts/ktap-summary.py" "$logs/$name.log" >"$logs/$name.summary"; then
		echo "mutation-check: $name: every test passed: no test catches it" >&2
		tail -1 "$logs/$name.summary" >&2
		continue
	fi
	failed_as_wanted=$((failed_as_wanted + 1))
	echo "          caught: $(tail -1 "$logs/$name.summary"); first failures:"
	grep '^FAIL ' "$logs/$name.summary" | head -6 | sed 's/^/            /'
done
echo "mutation-check: $failed_as_wanted of ${#mutations[@]} mutations caught (logs in ${logs#"$repo"/})"
((failed_as_wanted == ${#mutations[@]}))
