# The kmap_atomic trace events, taken as an ftrace user takes them: enabled
# in /sys/kernel/tracing, the sample driver loaded again, and its maps and
# unmaps found with their slot, page frame, caller and context: KM_USER0
# and KM_USER1 by demo_copy in a task, KM_IRQ0 by demo_irq in a hard
# interrupt with interrupts off, KM_SOFTIRQ0 by demo_tasklet in a softirq.
# With the debug checks, a misuse's kmap_atomic_report event too.
t=/sys/kernel/tracing
[ -d $t/events ] || mount -t tracefs tracefs $t 2>/dev/null
if [ ! -d $t/events/kmap_atomic ]; then
	case $KERNEL in
	*-noslots | *-nohighmem | rt*)
		echo "no kmap_atomic trace events in $KERNEL: they are the typed slots' (none without HIGHMEM, with SLOTS=n or PREEMPT_RT)"
		exit 4 ;;
	esac
	echo "no $t/events/kmap_atomic: is CONFIG_FTRACE on, with ENABLE_DEFAULT_TRACERS (configs/base.config)?"
	exit 1
fi
ko=$(ls /harness/modules/*-kmap_atomic_demo.ko 2>/dev/null) || {
	echo "kmap_atomic_demo.ko was not loaded in this boot: is CONFIG_SAMPLE_KMAP_ATOMIC=m?"
	exit 1
}
rmmod kmap_atomic_demo || { echo "rmmod kmap_atomic_demo failed"; exit 1; }
# The debug flavor's oops check oopsed on purpose, and an oops turns
# tracing off (oops_enter()).
echo 1 >$t/tracing_on
echo >$t/trace
echo 1 >$t/events/kmap_atomic/enable
insmod "$ko" || { echo "insmod kmap_atomic_demo.ko failed with the events enabled"; exit 1; }
echo 0 >$t/events/kmap_atomic/enable
# "... highmem pfn 1f2b3 copied to highmem pfn 1f2b4 with ...": this load's.
line=$(dmesg | grep 'kmap_atomic_demo: .* pfn [0-9a-f]* copied to .* pfn [0-9a-f]* with' | tail -n 1)
src=$(echo "$line" | sed -n 's/.* pfn \([0-9a-f]*\) copied to .*/\1/p')
dst=$(echo "$line" | sed -n 's/.* copied to [a-z]* pfn \([0-9a-f]*\) with .*/\1/p')
[ -n "$src" ] && [ -n "$dst" ] || { echo "the sample printed no page frames: $line"; exit 1; }
trace=/tmp/kmap_atomic.trace
cat $t/trace >$trace

failed=0
# event slot pfn caller context: one line of the trace must match.
expect() {
	pat="kmap_atomic_$1: slot=$2 pfn=0x$3 addr=0x[0-9a-f]* caller=$4+0x[0-9a-f]*/0x[0-9a-f]* \[kmap_atomic_demo\] context=$5\$"
	if grep -q "$pat" $trace; then
		echo "$1: $2, pfn $3, by $4, $5"
	else
		echo "no kmap_atomic_$1 event of $2, pfn $3, by $4, in context $5"
		failed=1
	fi
}
for ev in map unmap; do
	expect $ev KM_USER0 "$src" demo_copy task
	expect $ev KM_USER1 "$dst" demo_copy task
	expect $ev KM_IRQ0 "$src" demo_irq 'hardirq irqs-off'
	expect $ev KM_SOFTIRQ0 "$dst" demo_tasklet softirq
done
n=$(grep -c 'kmap_atomic_report:' $trace)
[ "$n" = 0 ] || { echo "$n report events while the sample ran: correct code draws none"; failed=1; }
echo "the trace:"
grep kmap_atomic_ $trace

# A misuse: its report event names the kind, the slot and the caller.
# Without highmem the sample's pages are lowmem, which take no slot: two
# maps of one slot are no collision there, and nothing is reported.
if [ "$DEBUG_KMAP_ATOMIC" = y ] && grep -q '^HighTotal: *0 kB' /proc/meminfo; then
	echo "collision report event: not tried: no highmem with MEM=$MEM, and lowmem pages take no slot to collide in"
elif [ "$DEBUG_KMAP_ATOMIC" = y ]; then
	m=/sys/kernel/debug/kmap_atomic_misuse
	[ -d $m ] || { echo "kmap_atomic_misuse.ko is not loaded"; exit 1; }
	echo >$t/trace
	echo 1 >$t/events/kmap_atomic/kmap_atomic_report/enable
	echo "KMAP-EXPECT-BEGIN trace-events collision" >/dev/kmsg
	echo 1 >$m/collision || { echo "collision: the write failed"; failed=1; }
	echo "KMAP-EXPECT-END trace-events collision" >/dev/kmsg
	echo 0 >$t/events/kmap_atomic/kmap_atomic_report/enable
	if grep -q 'kmap_atomic_report: kind=collision slot=KM_USER0 pfn=0x[0-9a-f]* addr=0x0 caller=misuse_collision+.* context=task$' $t/trace; then
		echo "report: collision, KM_USER0, by misuse_collision, task"
	else
		echo "no kmap_atomic_report event of the collision by misuse_collision:"
		grep kmap_atomic_ $t/trace
		failed=1
	fi
fi
exit $failed
