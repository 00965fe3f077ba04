#!/usr/bin/env bash
# make mutation-check: show that the tests can fail. Each mutation removes
# one safety property in the kernel tree. From mm/kmap_atomic/core.c, with
# the release flavor rebuilt and booted with the kmap_atomic,
# kmap_atomic_misuse, kmap_atomic_survive and kmap_atomic_trace KUnit suites
# as modules: the flush at unmap, the pte clear at unmap, the claim of a
# none pte by cmpxchg (a check then a set; a plain set: no collision seen),
# the pte template and its boot check, the template kept to kmap_prot, the
# fast map's type bound, a lowmem page kept out of the slots, the fast
# unmap's address check, its lowmem floor (a lowmem entry whose counts a
# one-argument unmap gave back goes to the slow path) and a spare at the top
# left to the slow path; the rules by which kmap_atomic_pick() decides what
# an unmap releases (the wrong pointer's map released, a lowmem one
# preferred, an end pointer only of its own type, another slot of this CPU's
# released by none, the one-argument kmap_atomic() at the top of
# kmap_local's stack while page faults are off more often than the logs owe,
# 2.6's lowmem rule, a lowmem map by its own address unreported); the map
# log's invariant (an unmap that releases nothing gives nothing back, one
# that releases gives back once and releases one entry, never below the
# level's baseline); the lowmem entries a one-argument unmap gave the counts
# of, dropped and not mapped over; the level's baseline taken before the
# claim; the spare kept for NMIs, and the NMI slots NMIs'; the flush after a
# claim at an interrupt level; the trace events (fast and slow map and
# unmap, report). From mm/kmap_atomic/debug.c, with the debug flavor rebuilt
# and booted with its built-in suites: the context rules (the NMI slots,
# KM_KDB, the interrupt slots kept out of NMIs, the task and softirq slots
# out of hard interrupts, an NMI told from a hard interrupt), a type that is
# no slot neither checked nor counted, the unmap history and the holder and
# guard page that a description of a slot's address gives, the count of
# faults on the slots. From include/linux/highmem-internal.h (an upstream
# file the series patches), is_kmap_addr()'s typed slots, which hardened
# usercopy relies on; from include/linux/highmem-typed.h, the one-argument
# unmap of a slot's address sent to the typed unmap (its range compare), and
# without the slots the one-argument unmap asking the map log; from
# mm/kmap_atomic/any_order.c, without the slots (the release flavor with
# SLOTS=n and its kmap_atomic_api and kmap_atomic_log suites), the map log's
# rules and invariant there. What has no mutant, for want of a case that
# could see it go, is listed above the arrays.
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
# (mm/kmap_atomic/core.c, the release flavor). No expression may hold a '|'
# (the field separator): C's || is matched as '..'. wrong-template-checked-
# below-4g-only shows only with memory above 4 GiB (MEM=6G, the default; with
# less its case skips). The static key that holds the fast paths off until
# kmap_atomic_fast_init() has run has no mutant: the suites load after boot,
# when it is on. Some properties have no mutant, for want of a case of these
# suites that could see them go: the fast unmap's type bound (its type
# compare, its slot test and its lowmem branch leave a type past the slots
# nothing the slow path would do otherwise); the flush after a claim at an
# interrupt level in map_slow() (interrupt_map_flushes_stale_entry makes
# the stale entry on the fast path only); an NMI kept off the named slots
# that are not NMIs' (only kmap_atomic_debug.nmi_while_irq_holds_slot, in
# the debug flavor, maps one in an NMI); counts_above_base() where a level
# ends (every case's level ends owing the counts of what it holds:
# drop_unowed() has dropped the rest, so forced true it changes nothing);
# drop_stale() (no case leaves a task's maps in a log for another task to
# find). no-one-arg-rule, one-arg-rule-at-the-counts-owed and
# unmapped-twice-releases-a-map are caught by the kernel falling over in
# their case, which then reads or unmaps what the mutant released instead.
mutations=(
	'no-flush-at-unmap|/^static __always_inline void clear_slot(/,/^}/s/^\(\s*\)arch_kmap_local_post_unmap(vaddr);$/\1barrier();/|kmap_atomic.slot_on_cpu'
	'no-pte-clear-at-unmap|/^static __always_inline void clear_slot(/,/^}/s/^\(\s*\)pte_clear(&init_mm, vaddr, ptep);$/\1barrier();/|kmap_atomic.slot_on_cpu'
	'claim-check-then-set|/^static bool claim_none_pte(/,/^}/s/^\tif (sizeof(pte_t) == sizeof(u64))$/\tif (!pte_none(ptep_get(ptep)))\n\t\treturn false;\n\tset_pte(ptep, pte);\n\treturn true;\n&/|kmap_atomic_misuse.exception_maps_mid_claim'
	'no-collision-check|/^static bool claim_none_pte(/,/^}/s/^\tif (sizeof(pte_t) == sizeof(u64))$/\tset_pte(ptep, pte);\n\treturn true;\n&/|kmap_atomic_misuse.collision_gets_spare'
	'wrong-template-caught-at-boot|/^static __always_inline pte_t template_pte(/,/^}/s/(pteval_t)pfn << PAGE_SHIFT/(unsigned long)(pfn << PAGE_SHIFT)/|kmap_atomic.template_maps_every_frame'
	'wrong-template-checked-below-4g-only|/^static __always_inline pte_t template_pte(/,/^}/s/(pteval_t)pfn << PAGE_SHIFT/(unsigned long)(pfn << PAGE_SHIFT)/;s/^\tfor (i = 0; i < TEMPLATE_CHECKS; i++) {$/\tfor (i = 0; i < 2; i++) {/|kmap_atomic.template_maps_every_frame'
	'template-for-every-prot|/^static __always_inline pte_t mk_slot_pte(/,/^}/s/^\t    pgprot_val(prot) == pgprot_val(kmap_prot))$/\t    1)/|kmap_atomic.template_maps_every_frame'
	'no-type-bound-check|/^static __always_inline void \*map_default(/,/^}/s/static_branch_likely(\&kmap_atomic_template_ok) \&\& idx < KM_TYPE_NR \&\&$/static_branch_likely(\&kmap_atomic_template_ok) \&\&/|kmap_atomic_misuse.bad_type_at_run_time'
	'lowmem-map-takes-a-slot|/^static __always_inline void \*map_default(/,/^}/s/^\t\tif (page \&\& !PageHighMem(page)) {$/\t\tif (0) {/|kmap_atomic.slot_on_cpu'
	'no-unmap-address-check|/^void __kunmap_atomic_addr(/,/^}/s/^\t\t   log->addr\[n - 1\] == vaddr)) {$/\t\t   1)) {/|kmap_atomic_misuse.unmap_mismatch'
	'fast-unmap-lowmem-floor|/^void __kunmap_atomic_addr(/,/^}/s/^\t\t\tif (unlikely((int)n > current->pagefault_disabled - log->pf_base))$/\t\t\tif (0)/|kmap_atomic_misuse.one_arg_maps_after_a_mixed_unmap'
	'fast-unmap-spare-as-its-named-slot|/^void __kunmap_atomic_addr(/,/^}/s/^\t\t} else if (likely(slot == idx)) {$/\t\t} else if (1) {/|kmap_atomic_misuse.collision_gets_spare'
	'fast-unmap-gives-back-twice|/^void __kunmap_atomic_addr(/,/^}/s/^\t\tpagefault_enable();$/\t\tpagefault_enable();\n\t\tpagefault_enable();/|kmap_atomic.slot_on_cpu'
	'no-unmap-event|/^void __kunmap_atomic_addr(/,/^}/s/^\t\t\t\tunmap_event(idx, pte_pfn(ptep_get(ptep)), vaddr, _RET_IP_);$/\t\t\t\tbarrier();/|kmap_atomic_trace.map_and_unmap_are_traced'
	'no-lowmem-unmap-event|/^void __kunmap_atomic_addr(/,/^}/s/^\t\t\t\tunmap_event(idx, PFN_DOWN(__pa(vaddr)), vaddr, _RET_IP_);$/\t\t\t\tbarrier();/|kmap_atomic_trace.map_and_unmap_are_traced'
	'wrong-pointer-lowmem-not-preferred|/^static int entry_by_type(/,/^}/s/int r = 1 + (log->slot\[i\] == KM_LOG_LOWMEM) + 2 \* (log->type\[i\] == type);/int r = 1 + 2 * (log->type[i] == type);/|kmap_atomic_survive.random_sequences'
	'wrong-pointer-not-released|/^static int entry_by_type(/,/^}/s/^\treturn best;$/\treturn -1;/|kmap_atomic_misuse.unmap_mismatch'
	'end-pointer-of-another-type|/^static enum unmap_kind kmap_atomic_pick(/,/^}/s/^\tif (end >= 0 \&\& slot \&\& log->type\[end\] != type)$/\tif (end >= 0 \&\& slot \&\& 0)/|kmap_atomic_survive.random_sequences'
	'unmapped-twice-releases-a-map|/^static enum unmap_kind kmap_atomic_pick(/,/^}/s/^\tif (slot .. !addr)$/\tif (!addr)/|kmap_atomic_misuse.unmap_mismatch'
	'no-one-arg-rule|/^static enum unmap_kind kmap_atomic_pick(/,/^}/s/^\tif (vaddr == kmap_atomic_local_top() \&\& /\tif (0 \&\& vaddr == kmap_atomic_local_top() \&\& /|kmap_atomic_misuse.unmap_mismatch'
	'one-arg-rule-at-the-counts-owed|/^static enum unmap_kind kmap_atomic_pick(/,/^}/s/ \&\& current->pagefault_disabled > counts_owed(level))$/ \&\& current->pagefault_disabled >= counts_owed(level))/|kmap_atomic_misuse.unmap_mismatch'
	'no-lowmem-rule|/^static enum unmap_kind kmap_atomic_pick(/,/^}/s/^\tif (kmap_atomic_is_lowmem(vaddr) \&\& log->slot\[\*i\] == KM_LOG_LOWMEM)$/\tif (0)/|kmap_atomic_misuse.lowmem_unmap_of_another_pointer'
	'lowmem-entry-reported-by-its-address|/^static void report_unmap(/,/^}/s/^\t\tif (e->type != type_key(type) \&\& e->slot != KM_LOG_LOWMEM)$/\t\tif (e->type != type_key(type))/|kmap_atomic_misuse.unmap_after_counts_given_back'
	'unmap-of-nothing-gives-back|/^static noinline void unmap_slow(/,/^}/s/^\tstruct give_back give = {};$/\tstruct give_back give = { true, true };/|kmap_atomic_misuse.unmap_mismatch'
	'unmap-gives-back-twice|/^static noinline void unmap_slow(/,/^}/s/^\t\tpagefault_enable();$/\t\t{ pagefault_enable(); pagefault_enable(); }/|kmap_atomic_survive.buggy_loop'
	'unmap-releases-two|/^static noinline void unmap_slow(/,/^}/s/^\t\trelease_entry(log, i, ip);$/\t\trelease_entry(log, i, ip);\n\t\tif (i < log->n)\n\t\t\trelease_entry(log, i, ip);/|kmap_atomic.slot_pair_copy'
	'no-slow-unmap-event|/^static noinline void unmap_slow(/,/^}/s/^\t\tunmap_event(min_t(unsigned int, type, KM_TYPE_NR), pfn, vaddr, ip);$/\t\tbarrier();/|kmap_atomic_trace.wrong_unmap_is_traced'
	'counts-given-back-below-the-baseline|/^static struct give_back counts_above_base(/,/^}/{s/^\t\t.pf = current->pagefault_disabled > log->pf_base,$/\t\t.pf = true,/;s/^\t\t.pc = .* > log->pc_base,$/\t\t.pc = true,/}|kmap_atomic_misuse.one_arg_maps_after_a_mixed_unmap'
	'no-drop-unowed|/^static void drop_unowed(/,/^}/s/^\tif (likely(excess <= 0))$/\tif (1)/|kmap_atomic_survive.buggy_loop'
	'fast-map-ignores-unowed|/^static __always_inline void \*map_default(/,/^}/s/ \&\& !log_unowed(log) \&\& !in_nmi()))/ \&\& !in_nmi()))/|kmap_atomic_survive.buggy_loop'
	'log-begin-after-claim|/^static __always_inline void \*map_default(/,/^}/s/^\t\t\tvaddr = this_cpu_read(kmap_atomic_cpu.addrs\[idx\]);$/\t\t\tif (!n)\n\t\t\t\tlog_begin(log);\n&/|kmap_atomic_misuse.exception_maps_mid_claim_wrong_pointer'
	'task-takes-nmi-spare|/^static int claim_spare(/,/^}/s/KM_SLOTS_USED - (in_nmi() ? 0 : KM_NMI_SPARES)/KM_SLOTS_USED/|kmap_atomic_misuse.spares_exhausted'
	'nmi-slots-refused-in-nmi|/^static bool nmi_slot(/,/^}/s/^\treturn kmap_atomic_slot_context(type) >= KM_CTX_NMI;$/\treturn false;/|kmap_atomic.slot_on_cpu'
	'no-interrupt-level-flush|/^static __always_inline void \*map_default(/,/^}/s/^\t\t\tif (unlikely(level))$/\t\t\tif (0)/|kmap_atomic.interrupt_map_flushes_stale_entry'
	'no-map-event|/^static __always_inline void \*map_default(/,/^}/s/^\t\tmap_event(type, page ? page_to_pfn(page) : pfn, vaddr, ip);$/\t\tbarrier();/|kmap_atomic_trace.map_and_unmap_are_traced'
	'no-slow-map-event|/^static noinline void \*map_slow(/,/^}/s/^\t\tmap_event(type, pfn, (unsigned long)addr, ip);$/\t\tbarrier();/|kmap_atomic_trace.collision_is_traced'
	'no-report-event|/^void kmap_atomic_report(/,/^}/s/^\ttrace_kmap_atomic_report(kind, type, pfn, addr, ip);$/\tbarrier();/|kmap_atomic_trace.collision_is_traced'
)
# (include/linux/highmem-internal.h, patched by the series; the release
# flavor: most of the kernel includes it, so this one rebuilds it all)
upstream_mutations=(
	'is-kmap-addr-without-typed-slots|s/^\t\tis_kmap_atomic_slot_addr(addr);$/\t\tfalse;/|kmap_atomic.is_kmap_addr_knows_the_slots'
)
# (mm/kmap_atomic/debug.c, the debug flavor, its suites built in.) Its
# per-type counters (maps, highmem maps, maps above 4 GiB, collisions) have
# no mutant: only debugfs shows them, which no KUnit case reads (make
# test's 06-ramdisk-io check does); nor has the list of maps held at an
# oops (09-debug-oops), the context of a slot's last unmap in a description,
# or a fault description printed once per call site.
debug_mutations=(
	'debug-no-nmi-context-rule|s/^\(\t*\)ok = ctx == NMI;$/\1ok = irqs_off;/|kmap_atomic_debug.context_rules'
	'debug-kdb-slot-outside-the-debugger|/^static void check_context(/,/^}/s/^\t\tok = ctx == NMI .. in_dbg_master();$/\t\tok = irqs_off;/|kmap_atomic_debug.context_rules'
	'debug-irq-slots-in-nmis|/^static void check_context(/,/^}/s/^\t\tok = irqs_off \&\& ctx != NMI;$/\t\tok = irqs_off;/|kmap_atomic_debug.nmi_while_irq_holds_slot'
	'debug-task-slots-in-interrupts|/^static void check_context(/,/^}/s/^\t\tok = ctx == TASK;$/\t\tok = true;/|kmap_atomic_debug.context_rules'
	'debug-softirq-slots-in-hard-interrupts|/^static void check_context(/,/^}/s/^\t\tok = ctx == SOFTIRQ .. (ctx == TASK \&\& (softirq_count() .. irqs_off));$/\t\tok = ctx != NMI;/|kmap_atomic_debug.context_rules'
	'debug-nmi-seen-as-hard-interrupt|/^static u8 current_ctx(/,/^}/s/^\tif (in_nmi())$/\tif (0)/|kmap_atomic_debug.context_rules'
	'debug-invalid-type-checked-and-counted|/^void kmap_atomic_debug_map(/,/^}/s/^\tif (type >= KM_TYPE_NR)$/\tif (0)/|kmap_atomic_debug.invalid_type_at_run_time'
	'debug-no-unmap-history|/^void kmap_atomic_debug_unmapped(/,/^}/s/^\tthis_cpu_write(kmap_debug_cpu.unmap_ip\[slot\], ip);$/\tbarrier();/|kmap_atomic_debug.describe_addresses'
	'debug-holder-not-described|/^size_t kmap_atomic_describe(/,/^}/s/^\tif (ip)$/\tif (0)/|kmap_atomic_debug.describe_addresses'
	'debug-guard-page-not-described|/^size_t kmap_atomic_describe(/,/^}/s/^\tif (w.guard)$/\tif (0)/|kmap_atomic_debug.describe_addresses'
	'debug-faults-uncounted|/^void kmap_atomic_debug_fault(/,/^}/s/^\tkmap_atomic_count_kind(KMAP_REPORT_FAULT);$/\tbarrier();/|kmap_atomic_debug.faults_are_described'
)
# (include/linux/highmem-typed.h, the release flavor; it rebuilds it all)
header_mutations=(
	'one-arg-unmap-of-a-typed-map-not-routed|s/^\tif (unlikely((unsigned long)__ka_addr >=/\tif (0 \&\& unlikely((unsigned long)__ka_addr >=/|kmap_atomic_survive.buggy_loop'
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
	'no-slots-one-arg-unmap-not-logged|s/^\tif (unlikely(current->kmap_ctrl.typed_log.n .. in_nmi()))\t\\$/\tif (0)\t\t\t\t\t\t\t\\/|kmap_atomic_log.buggy_loop'
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
