# The all-contexts stress test (mm/kmap_atomic/stress_test.c) for STRESS_SECONDS:
# on every CPU at once, tasks, softirqs and hard interrupts map their own
# pages through typed slots, kmap_atomic(page) and kmap_local_page(),
# write a pattern and read it back through another mapping. Nothing may be
# lost (0 mismatches) and the misuse checks (release and debug) may report nothing.
d=/sys/kernel/debug/kmap_atomic_stress
[ -w $d/run ] || { echo "no $d: is CONFIG_KMAP_ATOMIC_STRESS on?"; exit 1; }
seconds=${STRESS_SECONDS:-20}
[ "$seconds" -gt 0 ] 2>/dev/null || { echo "STRESS=0: the stress test is off"; exit 4; }
echo "$seconds" > $d/run || { echo "writing $seconds to $d/run failed"; exit 1; }
cat $d/result | tr '\n' ' ' | sed 's/ $/\n/'
get() { awk -v k="$1" '$1 == k { print $2 }' $d/result; }
ops=$(get operations) bad=$(get mismatches) reports=$(get misuse_reports)
[ "${ops:-0}" -gt 0 ] || { echo "no operations were made"; exit 1; }
for c in task softirq hardirq; do
	[ "$(get $c)" -gt 0 ] || { echo "no operations in $c context"; exit 1; }
done
[ "$bad" = 0 ] || { echo "$bad operations read back another pattern than their own"; exit 1; }
[ "$reports" = 0 ] || { echo "the typed kmap checks reported $reports misuses during the run"; exit 1; }
# A writer that ran outside its context (PREEMPT_RT threads irq_work and
# timers unless told not to) would make "every context" untrue.
wrong=$(get wrong_context)
[ "$wrong" = 0 ] || { echo "${wrong:-no count of} operations ran outside their writer's context"; exit 1; }
