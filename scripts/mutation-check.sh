#!/usr/bin/env bash
# make mutation-check: show that the release kernel's tests can fail. Each
# mutation removes one safety property from mm/kmap_atomic.c in the kernel
# tree (the flush at unmap, the pte clear at unmap, the collision check, the
# type bound check, the unmap's address check, 2.6's lowmem rule and its
# check for an unmap with nothing mapped, the spare kept for NMIs, the
# kmap_local fallback's order check); the release flavor is rebuilt with it and booted with
# the kmap_atomic and kmap_atomic_misuse KUnit suites as modules, and the
# boot must fail. The file is put back afterwards, whatever happens, and
# the release kernel rebuilt from it.
# A mutant counts as caught only if the KUnit case that guards its property
# fails, or the kernel oopses or panics before that case could run; a boot
# that hangs is cut off after TIMEOUT seconds (at most 300).
# Usage: scripts/mutation-check.sh REPO BUILD JOBS MEM TIMEOUT
set -euo pipefail
repo=$1 build=$2 jobs=$3 mem=$4 timeout=$5
((timeout > 300)) && timeout=300
. "$repo/scripts/tree-common.sh"
find_tree || { echo "mutation-check: no kernel tree: run 'make tree' first" >&2; exit 1; }
file=mm/kmap_atomic.c
out=$build/release
logs=$build/mutation
mkdir -p "$logs"

# While a mutant is in the tree, make refresh refuses and make tree puts
# the file back (scripts/refresh-tree.sh, scripts/prepare-tree.sh).
echo "$file" >"$state/mutating"
restore() {
	cp "$repo/$file" "$tree/$file"
	rm -f "$state/mutating"
	make -s -C "$tree" O="$out" ARCH=i386 -j"$jobs" bzImage modules >/dev/null
}
trap restore EXIT

# name|sed expression on the file|a KUnit case that must be among the failures
mutations=(
	'no-flush-at-unmap|s/^\(\s*\)arch_kmap_local_post_unmap(vaddr);$/\1barrier();/|kmap_atomic.slot_on_cpu'
	'no-pte-clear-at-unmap|s/^\(\s*\)pte_clear(&init_mm, vaddr, ptep);$/\1barrier();/|kmap_atomic.slot_on_cpu'
	'no-collision-check|s/claim_none_pte(slot_pte(idx), pte)/(set_pte(slot_pte(idx), pte), true)/|kmap_atomic_misuse.collision_gets_spare'
	'no-type-bound-check|s/if (likely(idx < KM_TYPE_NR)) {/if (likely(1)) {/|kmap_atomic_misuse.bad_type_at_run_time'
	'no-unmap-address-check|s/idx < KM_TYPE_NR \&\& vaddr == slot_addr(idx)/idx < KM_TYPE_NR/|kmap_atomic_misuse.unmap_mismatch'
	'no-lowmem-rule|s/if (!kmap_atomic_is_lowmem(vaddr))$/if (1)/|kmap_atomic_misuse.lowmem_unmap_of_another_pointer'
	'no-unbalanced-lowmem-check|s/else if (unlikely(!pagefault_disabled()))/else if (0)/|kmap_atomic_misuse.lowmem_unmap_of_another_pointer'
	'task-takes-nmi-spare|s/spares = in_nmi() ? KM_SPARE_SLOTS : KM_SPARE_SLOTS - 1;/spares = KM_SPARE_SLOTS;/|kmap_atomic_misuse.spares_exhausted'
	'no-fallback-order-check|s/if (vaddr != kmap_local_top())/if (0)/|kmap_atomic_misuse.spares_exhausted'
)

caught=0
for m in "${mutations[@]}"; do
	IFS='|' read -r name expr want <<<"$m"
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
	# No log of an earlier boot may stand in for this one.
	rm -f "$build/logs/run-latest.log"
	"$repo/scripts/qemu-run.sh" --flavor release --mode run --smp 2 --mem "$mem" \
		--timeout "$timeout" --kunit-modules "${kunit[*]}" "$build" >/dev/null 2>&1 || true
	[[ -e $build/logs/run-latest.log ]] || { echo "mutation-check: $name: the boot left no log" >&2; exit 1; }
	cp "$(readlink -f "$build/logs/run-latest.log")" "$logs/$name.log"
	"$repo/scripts/ktap-summary.py" "$logs/$name.log" >"$logs/$name.summary" || true
	# Caught: the KUnit case that guards this property failed.
	cases=$(awk '/^FAIL / { split($2, a, "."); k = a[1] "." a[2]; if (!(k in seen)) { seen[k]; print k } }' \
		"$logs/$name.summary")
	if grep -qxF "$want" <<<"$cases"; then
		caught=$((caught + 1))
		echo "          caught by $want; $(tail -1 "$logs/$name.summary"), failing:" $cases
	elif grep -q '^FAIL harness: the boot never reached' "$logs/$name.summary" &&
		grep -qE '^FAIL console: unexpected kernel report.*(Oops|BUG:|Kernel panic)' "$logs/$name.summary"; then
		# The kernel itself fell over before the guarding case could run.
		caught=$((caught + 1))
		echo "          caught: the kernel crashed before $want ran: $(grep -m1 -oE '(Oops|BUG:|Kernel panic).*' "$logs/$name.summary")"
	else
		echo "  MISSED  $name: $want did not fail ($(tail -1 "$logs/$name.summary"))" >&2
	fi
done
echo "mutation-check: $caught of ${#mutations[@]} mutations caught (logs in ${logs#"$repo"/})"
((caught == ${#mutations[@]}))
