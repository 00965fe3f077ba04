# Each misuse in samples/kmap_atomic/kmap_atomic_misuse.c, committed from
# user space: CONFIG_DEBUG_KMAP_ATOMIC reports it (its counter rises and a
# report names the offending function), the kernel carries on, and the
# legitimate mapping keeps its data (the write succeeds).
m=/sys/kernel/debug/kmap_atomic_misuse
r=/sys/kernel/debug/kmap_atomic/reports
# DEBUG_KMAP_ATOMIC comes from the kernel's .config (qemu-run.sh).
if [ "$DEBUG_KMAP_ATOMIC" != y ]; then
	case $KERNEL in
	*-noslots | *-nohighmem | rt*) echo "no CONFIG_DEBUG_KMAP_ATOMIC in $KERNEL: it needs the typed slots (none without HIGHMEM, with SLOTS=n or PREEMPT_RT), and misuse is not caught without them" ;;
	*release* | rt*) echo "the release flavor has no debug checks: its misuse is tested by the kmap_atomic_misuse KUnit suite" ;;
	*) echo "no CONFIG_DEBUG_KMAP_ATOMIC in $KERNEL: it needs the typed slots" ;;
	esac
	exit 4
fi
[ -d $m ] || { echo "kmap_atomic_misuse.ko is not loaded: is CONFIG_SAMPLE_KMAP_ATOMIC_MISUSE=m?"; exit 1; }
[ -r $r ] || { echo "no $r: is CONFIG_DEBUG_KMAP_ATOMIC on?"; exit 1; }

# Each call site prints its first report of a kind; every report is
# counted. Each misuse below has call sites of its own in the module.
count() { sed -n "s/^$1 //p" $r; }
failed=0
# Without highmem every page is lowmem, which takes no slot: a collision,
# a slot of the wrong context, a foreign pointer, an unmap from another
# context or a bad type touches nothing a check could see (2.6 returned
# page_address() too), so those are not tried; a leak still leaves counts
# behind, and a double unmap would take someone else's: both reported.
no_highmem=
grep -q '^HighTotal: *0 kB' /proc/meminfo && no_highmem=y
# misuse file, report counter that must rise, function the report names,
# and for a leak the event it names (underscores for spaces)
while read -r file kind who event; do
	if [ -n "$no_highmem" ]; then
		case $file in
		collision | wrong_context | wrong_unmap | other_context | invalid_type)
			echo "$file: not tried: no highmem with MEM=$MEM, and a lowmem page takes no slot"
			continue ;;
		esac
	fi
	before=$(count "$kind")
	echo "KMAP-EXPECT-BEGIN misuse $file" >/dev/kmsg
	if ! echo 1 >$m/$file; then
		echo "$file: the write failed: a legitimate mapping lost its data"
		failed=1
	fi
	# Every misuse reports on this CPU before the write returns: the
	# interrupt's and the tasklet's before the module's wait ends, the
	# leak to user space before the system call's exit work. The console
	# keeps the log's order, so the bracket closes right away.
	echo "KMAP-EXPECT-END misuse $file" >/dev/kmsg
	after=$(count "$kind")
	if [ -n "$kind" ] && [ "$after" -le "$before" ]; then
		echo "$file: no $kind report (count $before -> $after)"
		failed=1
	fi
	if [ -n "$who" ] && ! dmesg | grep -q "kmap_atomic: .*$who+"; then
		echo "$file: no report names $who"
		failed=1
	fi
	event=$(echo "$event" | tr _ ' ')
	if [ -n "$event" ] && ! dmesg | grep -q "kmap_atomic: .*$who+.* as $event: reclaimed"; then
		echo "$file: no report of $who's slot held as $event"
		failed=1
	fi
	[ $failed = 0 ] && echo "$file: $kind $before -> $after, names $who${event:+, $event}"
done <<'LIST'
collision collision misuse_collision
wrong_context wrong_context misuse_wrong_context
wrong_unmap unmap_wrong_address misuse_wrong_unmap
double_unmap unmap_not_held misuse_double_unmap
other_context unmap_other_context misuse_unmap_in_irq
invalid_type invalid_type misuse_invalid_type
leak_to_user leak misuse_leak_to_user its_system_call_returns
leak_irq leak misuse_leak_in_irq its_hard_interrupt_returns
leak_softirq leak misuse_leak_in_tasklet its_softirq_handler_returns
LIST
# Taking a mutex holding KM_USER0: CONFIG_DEBUG_ATOMIC_SLEEP reports it
# (at most once a second), naming the function in its backtrace.
sleep 1
echo "KMAP-EXPECT-BEGIN misuse sleep_while_mapped [reports: ^BUG: sleeping function called from invalid context]" >/dev/kmsg
echo 1 >$m/sleep_while_mapped || { echo "sleep_while_mapped: the write failed"; failed=1; }
echo "KMAP-EXPECT-END misuse sleep_while_mapped" >/dev/kmsg
report=$(dmesg | sed -n '/KMAP-EXPECT-BEGIN misuse sleep_while_mapped/,/KMAP-EXPECT-END misuse sleep_while_mapped/p')
if echo "$report" | grep -q 'BUG: sleeping function called from invalid context' &&
	echo "$report" | grep -q 'misuse_sleep_while_mapped+'; then
	echo "sleep_while_mapped: sleeping function called from invalid context, names misuse_sleep_while_mapped"
else
	echo "sleep_while_mapped: no might_sleep() report naming misuse_sleep_while_mapped"
	failed=1
fi
# The stale pointer faults (the module checks it), and the fault is
# described, naming who unmapped the slot.
if [ -n "$no_highmem" ]; then
	echo "use_after_unmap: not tried: no highmem with MEM=$MEM, and a lowmem page takes no slot"
else
	echo 1 >$m/use_after_unmap || { echo "use_after_unmap: a stale pointer still reads"; failed=1; }
	dmesg | grep -q 'kmap_atomic: fault at .* is KM_USER1 on CPU[0-9]* + 0x0: in the page that was unmapped by misuse_use_after_unmap+' ||
		{ echo "use_after_unmap: no description of the fault naming misuse_use_after_unmap"; failed=1; }
fi
exit $failed
