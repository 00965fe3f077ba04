#!/usr/bin/env bash
# make mutation-check: show that the tests can fail. Each mutation removes
# one safety property in the kernel tree: from mm/kmap_atomic/core.c, the release
# fast path (the flush at unmap, the pte clear at unmap, the claim of a
# none pte in one access, the depth read before it, the pte template and
# its boot check, the template kept to kmap_prot, the collision check, the
# type bound checks of the map, of kmap_atomic_prot() and of the unmap, the
# unmap's address check, the counts of an unmap that stands for no map, a
# lowmem map counted in an interrupt, 2.6's lowmem rule
# and its checks for an unmap with nothing mapped or counts given back, the
# spare kept for NMIs, the kmap_local fallback's order check, the check that
# a fallback's record is still live) and the rules for buggy 2.6 code (an
# unmap that stands for a map releases it, the wrong type's and the wrong
# pointer's included, not 2.6.2x's refusal; the depths renumbered after an
# out-of-order release, the typed maps' own place stack; a map left
# behind marked and reclaimed; the reclaim at a
# context's end; the stop short of kmap_local's BUG()), with the release
# flavor rebuilt and booted with the kmap_atomic, kmap_atomic_misuse,
# kmap_atomic_survive and kmap_atomic_trace KUnit suites as modules; from mm/kmap_atomic/debug.c, the debug checks (NMIs kept off the
# named slots but KM_NMI, KM_NMI_PTE and KM_KDB, the NMI slots kept to NMIs,
# each NMI level's counts apart,
# lowmem maps left unrecorded, kmap_local addresses refused, a
# leaked kmap_local fallback popped), with the debug flavor rebuilt and
# booted with its built-in suites; from include/linux/highmem-internal.h
# (an upstream file the series patches), is_kmap_addr()'s typed slots,
# which hardened usercopy relies on; from include/linux/highmem-typed.h,
# the one-argument unmap of a slot sent to the typed unmap; from
# mm/kmap_atomic/any_order.c, without the slots (the release flavor with
# SLOTS=n and its kmap_atomic_api suite), the wrong pointer's release.
# The boot must fail. The file is put back
# afterwards, whatever happens, and each kernel rebuilt from it.
# A mutant counts as caught only if the KUnit case that guards its property
# fails, or the kernel oopses or panics before that case could run; a boot
# that hangs is cut off after TIMEOUT seconds (at most 300).
# Usage: scripts/mutation-check.sh REPO BUILD JOBS MEM TIMEOUT [NAMES]
# NAMES, an extended regular expression, runs only the mutants it matches.
set -euo pipefail
repo=$1 build=$2 jobs=$3 mem=$4 timeout=$5 only=${6:-}
((timeout > 300)) && timeout=300
. "$repo/scripts/tree-common.sh"
find_tree || { echo "mutation-check: no kernel tree: run 'make tree' first" >&2; exit 1; }
logs=$build/mutation
mkdir -p "$logs"
files=(mm/kmap_atomic/core.c mm/kmap_atomic/debug.c include/linux/highmem-internal.h
       include/linux/highmem-typed.h mm/kmap_atomic/any_order.c)
# Each file as the series makes it: the overlay's, or a patched upstream
# file as make tree left it (kept before the first mutant).
orig=$state/mutation-orig
source_of() {
	if [[ -f $repo/$1 ]]; then echo "$repo/$1"; else echo "$orig/$1"; fi
}

mark_changing mutation-check "${files[@]}"
for f in "${files[@]}"; do
	[[ -f $repo/$f ]] && continue
	mkdir -p "$(dirname "$orig/$f")"
	cp "$tree/$f" "$orig/$f"
done
built=()
restore() {
	for f in "${files[@]}"; do cmp -s "$(source_of "$f")" "$tree/$f" || cp "$(source_of "$f")" "$tree/$f"; done
	rm -rf "$orig"
	rm -f "$state/mutating"
	for flavor in "${built[@]}"; do
		make -s -C "$tree" O="$build/$flavor" ARCH=i386 -j"$jobs" bzImage modules >/dev/null
	done
}
trap restore EXIT

# name|sed expression on the file|a KUnit case that must be among the failures
# (mm/kmap_atomic/core.c, the release flavor). wrong-template-checked-below-4g-only
# shows only with memory above 4 GiB (MEM=6G, the default; with less its
# case skips). The static keys that hold the fast paths off until
# kmap_atomic_fast_init() has run have no mutant: the suites load after
# boot, when both are on.

mutations=(
	'no-flush-at-unmap|/^static __always_inline void clear_idx(/,/^}/s/^\(\s*\)arch_kmap_local_post_unmap(vaddr);$/\1barrier();/|kmap_atomic.slot_on_cpu'
	'no-pte-clear-at-unmap|s/^\(\s*\)pte_clear(&init_mm, vaddr, ptep);$/\1barrier();/|kmap_atomic.slot_on_cpu'
	'claim-check-then-set|s/^\tif (!claim_none_pte(ptep, pte))$/\tif (pte_none(*ptep) ? (set_pte(ptep, pte), false) : true)/|kmap_atomic_misuse.exception_maps_mid_claim'
	'depth-read-after-claim|s/^\thold(idx, type, depth, level);$/\thold(idx, type, depth - depth + typed_depth(), level);/|kmap_atomic_misuse.exception_maps_mid_claim_wrong_pointer'
	'wrong-template-caught-at-boot|/^static __always_inline pte_t template_pte(/,/^}/s/(pteval_t)pfn << PAGE_SHIFT/(unsigned long)(pfn << PAGE_SHIFT)/|kmap_atomic.template_maps_every_frame'
	'wrong-template-checked-below-4g-only|/^static __always_inline pte_t template_pte(/,/^}/s/(pteval_t)pfn << PAGE_SHIFT/(unsigned long)(pfn << PAGE_SHIFT)/;s/^\tfor (i = 0; i < TEMPLATE_CHECKS; i++) {$/\tfor (i = 0; i < 2; i++) {/|kmap_atomic.template_maps_every_frame'
	'no-collision-check|s/claim_none_pte(ptep, pte)/(set_pte(ptep, pte), true)/|kmap_atomic_misuse.collision_gets_spare'
	'no-type-bound-check|s/if (static_branch_likely(\&kmap_atomic_template_ok) \&\& likely(idx < KM_TYPE_NR)) {/if (static_branch_likely(\&kmap_atomic_template_ok)) {/|kmap_atomic_misuse.bad_type_at_run_time'
	'no-unmap-type-bound-check|s/} else if (static_branch_likely(\&kmap_atomic_slots_ready) \&\& likely(idx < KM_TYPE_NR)) {/} else if (static_branch_likely(\&kmap_atomic_slots_ready)) {/|kmap_atomic_misuse.unmap_mismatch'
	'no-prot-type-bound-check|/^static __always_inline void \*map_prot(/,/^}/s/if (likely(idx < KM_TYPE_NR)) {/if (likely(1)) {/|kmap_atomic_misuse.bad_type_at_run_time'
	'template-for-every-prot|s/^\t    pgprot_val(prot) == pgprot_val(kmap_prot))$/\t    1)/|kmap_atomic.template_maps_every_frame'
	'no-map-gives-back-counts|s/if (unlikely(!unmap_slow(addr, type, _RET_IP_))) {/if (!unmap_slow(addr, type, _RET_IP_) \&\& 0) {/|kmap_atomic_misuse.unmap_mismatch'
	'lowmem-irq-map-uncounted|s/if (unlikely(trace_kmap_atomic_map_enabled() .. kmap_atomic_level()))$/if (unlikely(trace_kmap_atomic_map_enabled()))/|kmap_atomic_survive.irq_unmap_takes_no_task_counts'
	'no-unmap-address-check|s/likely(vaddr == this_cpu_read(kmap_atomic_cpu.addrs\[idx\]) \&\& at_top(h))/likely(at_top(h))/|kmap_atomic_misuse.unmap_mismatch'
	'no-lowmem-rule|s/if (i < 0 \&\& lowmem) {/if (0) {/;s/if (likely(idx < KM_TYPE_NR \&\& !kmap_atomic_level() \&\& typed_depth() > 0 \&\&$/if (likely(0 \&\&/|kmap_atomic_misuse.lowmem_unmap_of_another_pointer'
	'no-unbalanced-lowmem-check|s/^\t\tok = places > 0;$/\t\tok = true;/|kmap_atomic_misuse.lowmem_unmap_of_another_pointer'
	'no-counts-given-back-check|s/^\(\t*\)if (unlikely(left .. !typed_depth()))$/\1if (0)/|kmap_atomic_misuse.unmap_after_counts_given_back'
	'task-takes-nmi-spare|s/KM_SPARE_SLOTS - (in_nmi() ? 0 : KM_NMI_SPARES)/KM_SPARE_SLOTS/|kmap_atomic_misuse.spares_exhausted'
	'fallback-popped-out-of-order|s/if (h->vaddr == kmap_atomic_local_top())$/if (1)/|kmap_atomic_misuse.spares_exhausted'
	'fallback-entries-untagged|s/ arch_kmap_atomic_fallback_tag));$/ 0));/|kmap_atomic_misuse.stale_fallback_record'
	'stale-fallback-record-trusted|/^int kmap_atomic_find_held(/,/^}/s/if (!fallback_live(h)) {/if (0) {/|kmap_atomic_misuse.stale_fallback_record'
	'old-refuse-rule|s/^\t\tif (mine(\&kc->held\[w.idx\]))$/\t\tif (mine(\&kc->held[w.idx]) \&\& kc->held[w.idx].type == type)/|kmap_atomic_survive.buggy_loop'
	'wrong-pointer-not-released|s/if (type < KM_TYPE_NR \&\& at_top(\&kc->held\[type\]))$/if (0)/|kmap_atomic_survive.buggy_loop'
	'no-depth-renumbering|s/^\t\t\th->depth--;$/\t\t\tbarrier();/|kmap_atomic_survive.correct_26_code'
	'no-orphan-reclaim|/^static bool orphaned(/,/^}/s/^\tif (task != current)$/\tif (0)/;/^static bool orphaned(/,/^}/s/return h->depth == KM_LEFT .. h->depth >= typed_depth();/return false;/|kmap_atomic_survive.orphan_reclaimed_by_next_map'
	'no-reclaim-at-context-end|/^void __kmap_atomic_reclaim(bool dying)$/,/^}/s/^\tlocal_irq_save(flags);$/\treturn;/|kmap_atomic_survive.buggy_loop'
	'false-report-on-map|/^static __always_inline void \*mapped(/,/^}/s/^\tif (unlikely(level))$/\tif (kmap_atomic_report_site(ip), unlikely(level))/|kmap_atomic.slot_pair_copy'
	'irq-lowmem-takes-task-counts|s/^\t\tok = typed_depth() > 0 \&\& places > 0;$/\t\tok = typed_depth() > 0;/|kmap_atomic_survive.irq_unmap_takes_no_task_counts'
	'depth-from-pagefault-count|s/^\treturn current->kmap_ctrl.typed_depth;$/\treturn current->pagefault_disabled;/|kmap_atomic_survive.correct_26_code'
	'left-behind-takes-a-place|s/^\t\tn += mine(\&kc->held\[j\]) \&\& kc->held\[j\].depth != KM_LEFT;$/\t\tn += mine(\&kc->held[j]);/|kmap_atomic_survive.irq_unmap_takes_no_task_counts'
	'no-left-behind-mark|s/^\t\tif (mine(h) \&\& h->depth == typed_depth()) {$/\t\tif (0) {/|kmap_atomic_survive.left_behind_then_correct_code'
	'no-renumbering-on-lowmem-pop|s/^\t\trenumber(kc, current, level, place);$/\t\tbarrier();/|kmap_atomic_survive.correct_26_code'
	'no-reclaim-counts-given-back|/^void __kmap_atomic_reclaim(bool dying)$/,/^}/s/^\t\tkmap_atomic_reclaim_counts();$/\t\tbarrier();/|kmap_atomic_survive.buggy_loop'
	'no-interrupt-level-flush|/^static __always_inline void \*mapped(/,/^}/s/^\tif (unlikely(level))$/\tif (0)/|kmap_atomic.interrupt_map_flushes_stale_entry'
	'nmi-takes-kmap-local|s/addr = in_nmi() ? NULL : kmap_atomic_fallback_map(pfn, prot, type);/addr = kmap_atomic_fallback_map(pfn, prot, type);/|kmap_atomic_misuse.nmi_spares_then_null'
	'no-kmap-local-depth-check|s/if (current->kmap_ctrl.idx + KM_LOCAL_INCR \* (1 + KM_LOCAL_RESERVE) >= KM_MAX_IDX)/if (0)/|kmap_atomic_survive.fallback_stops_short_of_bug'
	'no-map-event|s/^\(\t*\)map_event(type, pfn, vaddr, ip);$/\1barrier();/|kmap_atomic_trace.map_and_unmap_are_traced'
	'no-unmap-event|s/^\(\t*\)unmap_event_pte(idx, ptep, vaddr, ip);$/\1barrier();/|kmap_atomic_trace.map_and_unmap_are_traced'
	'no-lowmem-unmap-event|s/^\(\t*\)unmap_event_lowmem(type, vaddr, _RET_IP_);$/\1barrier();/|kmap_atomic_trace.map_and_unmap_are_traced'
	'no-lowmem-map-event|s/^\(\t*\)map_event(type, page_to_pfn(page), (unsigned long)addr, ip);$/\1barrier();/|kmap_atomic_trace.map_and_unmap_are_traced'
	'no-lowmem-map-event-gate|s/if (unlikely(trace_kmap_atomic_map_enabled() .. kmap_atomic_level()))$/if (unlikely(kmap_atomic_level()))/|kmap_atomic_trace.map_and_unmap_are_traced'
	'no-fallback-map-event|s/^\ttrace_kmap_atomic_map(type, pfn, (unsigned long)addr, ip);$/\tbarrier();/|kmap_atomic_trace.fallback_is_traced'
	'no-fallback-unmap-event|s/^\ttrace_kmap_atomic_unmap(type, pfn, vaddr, ip);$/\tbarrier();/|kmap_atomic_trace.fallback_is_traced'
	'no-report-event|s/trace_kmap_atomic_report(kind, type, pfn, (unsigned long)(addr), __ip);/(void)0;/|kmap_atomic_trace.collision_is_traced'
	'fallbacks-take-most-of-the-stack|s/KM_LOCAL_INCR \* (1 + KM_LOCAL_RESERVE) >= KM_MAX_IDX/KM_LOCAL_INCR * 5 >= KM_MAX_IDX/|kmap_atomic_misuse.fallbacks_leave_half_the_stack'
)
# (include/linux/highmem-internal.h, patched by the series; the release
# flavor: most of the kernel includes it, so this one rebuilds it all)
upstream_mutations=(
	'is-kmap-addr-without-typed-slots|s/^\t\tis_kmap_atomic_slot_addr(addr);$/\t\tfalse;/|kmap_atomic.is_kmap_addr_knows_the_slots'
)
# (mm/kmap_atomic/debug.c, the debug flavor)
debug_mutations=(
	'debug-nmi-takes-named-slot|s/^\(\t*\)if (unlikely(ctx == NMI \&\& !kmap_atomic_nmi_slot(type))) {$/\1if (0) {/|kmap_atomic_debug.nmi_while_irq_holds_slot'
	'debug-nmi-slots-refused-in-nmi|s/if (unlikely(ctx == NMI \&\& !kmap_atomic_nmi_slot(type))) {$/if (unlikely(ctx == NMI)) {/|kmap_atomic_debug.context_rules'
	'debug-one-nmi-level|s/return ctx == NMI ? NMI + clamp(depth, 1U, NMI_LEVELS) - 1 : ctx;/return ctx;/|kmap_atomic_debug.nested_nmi_level_exit'
	'debug-no-nmi-context-rule|s/^\(\t*\)ok = ctx == NMI;$/\1ok = irqs_off;/|kmap_atomic_debug.context_rules'
	'debug-records-lowmem|s/^\(\t*\)if (page \&\& !PageHighMem(page)) {$/\1if (0) {/|kmap_atomic_debug.correct_26_usage_is_quiet'
	'debug-leak-keeps-fallback|s/unsigned int n = kmap_atomic_fallback_reclaim();/unsigned int n = 0;/|kmap_atomic_debug.leak_past_the_last_spare'
	'debug-accepts-kmap-local|s/^\(\t*\)explain_unmap(p, kc, addr, type, ctx, ip);/\1{ ok = kmap_atomic_is_local(base); if (!ok) explain_unmap(p, kc, addr, type, ctx, ip); }/|kmap_atomic_debug.unmap_mismatch'
)
# (include/linux/highmem-typed.h, the release flavor; it rebuilds it all)
header_mutations=(
	'one-arg-unmap-of-a-typed-map-not-routed|s/unlikely(kmap_atomic_one_is_typed(__ka_addr))/0/|kmap_atomic_survive.buggy_loop'
)
# (mm/kmap_atomic/any_order.c, the release flavor without the slots, the
# path an RT kernel takes)
any_order_mutations=(
	'no-slots-wrong-pointer-kept|s/^\treturn best;$/\treturn -1;/|kmap_atomic_log.buggy_loop'
	'no-slots-lowmem-not-preferred|s/int r = 1 + is_lowmem_entry(e) + 2 \* (e->type == type);/int r = 1 + 2 * (e->type == type);/|kmap_atomic_log.buggy_loop'
	'no-slots-unmap-gives-back-twice|s/^\tcounts_give_back();$/\tcounts_give_back();\n\tcounts_give_back();/|kmap_atomic_log.buggy_loop'
	'no-slots-unmap-releases-two|s/^\tlog_remove(log, i);$/\tlog_remove(log, i);\n\tif (i > 0)\n\t\tlog_remove(log, i - 1);/|kmap_atomic_log.buggy_loop'
	'no-slots-level-end-below-its-baseline|s/^\t\tif (log->e\[i\].level >= level)$/\t\tif (1)/|kmap_atomic_log.leak_released_where_the_context_ends'
	'no-slots-untagged-entry-taken|s/^\t\tif (idx == top \&\& pte_present(pte) \&\& !tagged(pte) \&\&$/\t\tif (pte_present(pte) \&\& !tagged(pte) \&\&/|kmap_atomic_log.buggy_loop'
	'no-slots-kunmap-local-counts-kept|/^static void log_trim(/,/^}/s/^\t\tcounts_give_back();$/\t\tbarrier();/|kmap_atomic_log.buggy_loop'
)
# (include/linux/highmem-typed.h without the slots: release-noslots)
noslots_header_mutations=(
	'no-slots-one-arg-unmap-not-logged|s/^\tif (unlikely(current->kmap_ctrl.typed_log.n || in_nmi()))\t\\$/\tif (0)\t\t\t\t\t\t\t\\/|kmap_atomic_log.buggy_loop'
)

caught=0 total=0
run_mutant() {
	local flavor=$1 file=$2 m=$3 name expr want out=$build/$1
	IFS='|' read -r name expr want <<<"$m"
	[[ -z $only ]] || grep -qE "$only" <<<"$name" || return 0
	total=$((total + 1))
	[[ " ${built[*]} " == *" $flavor "* ]] || built+=("$flavor")
	local src
	src=$(source_of "$file")
	cp "$src" "$tree/$file"
	sed -i "$expr" "$tree/$file"
	if cmp -s "$src" "$tree/$file"; then
		echo "mutation-check: $name changed nothing in $file: update its expression" >&2
		exit 1
	fi
	echo "  MUTANT  $name: $(diff "$src" "$tree/$file" | grep -c '^>') line(s) of $file"
	make -s -C "$tree" O="$out" ARCH=i386 -j"$jobs" bzImage modules
	# Release: the suites as modules; debug: built in, run at boot.
	local kunit=() glob=()
	if [[ $flavor = release-noslots ]]; then
		kunit=("$out/mm/kmap_atomic/kmap_atomic_api_kunit.ko" "$out/mm/kmap_atomic/kmap_atomic_log_kunit.ko")
	elif [[ $flavor = release ]]; then
		kunit=("$out/mm/kmap_atomic/kmap_atomic_kunit.ko" "$out/mm/kmap_atomic/kmap_atomic_misuse_kunit.ko"
		       "$out/mm/kmap_atomic/kmap_atomic_survive_kunit.ko" "$out/mm/kmap_atomic/kmap_atomic_trace_kunit.ko")
	else
		glob=(--kunit 'kmap_atomic*')
	fi
	mkdir -p "$build/run"
	echo true >"$build/run/cmd.sh"
	# No log of an earlier boot may stand in for this one.
	rm -f "$build/logs/run-latest.log"
	"$repo/scripts/qemu-run.sh" --flavor "$flavor" --mode run --smp 2 --mem "$mem" \
		--timeout "$timeout" --kunit-modules "${kunit[*]}" "${glob[@]}" "$build" >/dev/null 2>&1 || true
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
		grep -qE '^FAIL console: unexpected kernel report.*(Oops|BUG:|kernel BUG at|Kernel panic)' "$logs/$name.summary"; then
		# The kernel itself fell over before the guarding case could run.
		caught=$((caught + 1))
		echo "          caught: the kernel crashed before $want ran: $(grep -m1 -oE '(Oops|BUG:|kernel BUG at|Kernel panic).*' "$logs/$name.summary")"
	else
		echo "  MISSED  $name: $want did not fail ($(tail -1 "$logs/$name.summary"))" >&2
	fi
	cp "$src" "$tree/$file"
}

for m in "${mutations[@]}"; do run_mutant release mm/kmap_atomic/core.c "$m"; done
for m in "${debug_mutations[@]}"; do run_mutant debug mm/kmap_atomic/debug.c "$m"; done
for m in "${upstream_mutations[@]}"; do run_mutant release include/linux/highmem-internal.h "$m"; done
for m in "${header_mutations[@]}"; do run_mutant release include/linux/highmem-typed.h "$m"; done
for m in "${any_order_mutations[@]}"; do run_mutant release-noslots mm/kmap_atomic/any_order.c "$m"; done
for m in "${noslots_header_mutations[@]}"; do run_mutant release-noslots include/linux/highmem-typed.h "$m"; done
echo "mutation-check: $caught of $total mutations caught (logs in ${logs#"$repo"/})"
((caught == total))
