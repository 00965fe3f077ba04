# A kernel thread oopses holding KM_USER0 (it reads one byte past its
# page, in the guard page): the fault is described naming the thread's
# function, the oops lists the slot as held on its CPU, and as the thread
# dies (make_task_dead()) the slot is listed and reclaimed, its counts
# given back (no WARN, no leak counted: the oops told it), so that the
# CPU's next users of KM_USER0 (brd's O_DIRECT writes, pinned there) see
# no collision and no leak of their own. Last of the checks: an oops turns
# lockdep off for the rest of the boot (08 checks it first).
m=/sys/kernel/debug/kmap_atomic_misuse
r=/sys/kernel/debug/kmap_atomic/reports
slots=/sys/kernel/debug/kmap_atomic/slots
if [ "$DEBUG_KMAP_ATOMIC" != y ]; then
	case $FLAVOR in
	release* | rt*) echo "the release flavor has no debug layer to describe the fault or list held slots" ;;
	*) echo "no CONFIG_DEBUG_KMAP_ATOMIC in $KERNEL: no debug layer to describe the fault or list held slots" ;;
	esac
	exit 4
fi
if grep -q '^HighTotal: *0 kB' /proc/meminfo || ! grep -q '^HighTotal:' /proc/meminfo; then
	echo "no highmem with MEM=$MEM: a lowmem page takes no slot"
	exit 4
fi
[ -d $m ] || { echo "kmap_atomic_misuse.ko is not loaded: is CONFIG_SAMPLE_KMAP_ATOMIC_MISUSE=m?"; exit 1; }
[ -r $r ] || { echo "no $r: is CONFIG_DEBUG_KMAP_ATOMIC on?"; exit 1; }
count() { sed -n "s/^$1 //p" $r; }
collisions=$(count collision) leaks=$(count leak)

echo "KMAP-EXPECT-BEGIN oops_holding [reports: ^(BUG: unable to handle page fault|Oops: )]" >/dev/kmsg
echo 1 >$m/oops_holding || { echo "oops_holding: the write failed"; exit 1; }
# The oops happens in the thread, after the write returns: wait for the
# reclaim, the last thing the thread says.
i=0
while ! dmesg | sed -n '/KMAP-EXPECT-BEGIN oops_holding/,$p' | grep -q 'as its task dies of an oops: reclaimed$'; do
	i=$((i + 1))
	[ $i -le 300 ] || break
	sleep 0.1
done
echo "KMAP-EXPECT-END oops_holding" >/dev/kmsg
log=$(dmesg | sed -n '/KMAP-EXPECT-BEGIN oops_holding/,/KMAP-EXPECT-END oops_holding/p')
echo "$log" | grep -q -- '---\[ end trace' || { echo "oops_holding: no oops within 30 s"; exit 1; }
# One oops: the reclaim must not fault again.
oopses=$(echo "$log" | grep -c 'Oops: [0-9a-f]* \[#')
[ "$oopses" = 1 ] || { echo "oops_holding: $oopses oopses, not one"; exit 1; }

failed=0
cpu=$(echo "$log" | sed -n 's/.*kmap_atomic: typed slots held on CPU\([0-9]*\):$/\1/p' | head -n 1)
if [ -z "$cpu" ]; then
	echo "oops_holding: the oops lists no typed slots held"
	failed=1
else
	echo "$log" | grep -q " KM_USER0: pfn 0x[0-9a-f]* mapped by oops_holding_thread+.* (task, pid [0-9]*)$" ||
		{ echo "oops_holding: the list of CPU$cpu's held slots does not name oops_holding_thread"; failed=1; }
	echo "$log" | grep -q "kmap_atomic: fault at 0x[0-9a-f]* is KM_USER0 on CPU$cpu + 0x1000: 0 bytes past the page that oops_holding_thread+.* mapped (held, task" ||
		{ echo "oops_holding: no description of the fault as one byte past oops_holding_thread's page"; failed=1; }
	echo "$log" | grep -q "kmap_atomic: KM_USER0 on CPU$cpu, mapped by oops_holding_thread+.*, is still held as its task dies of an oops: reclaimed$" ||
		{ echo "oops_holding: KM_USER0 not reported and reclaimed as the thread died"; failed=1; }
	# The CPU's next users: brd maps KM_USER0 and KM_USER1 for each page.
	taskset -c "$cpu" dd if=/dev/zero of=/dev/ram0 bs=64k count=16 oflag=direct 2>/dev/null ||
		{ echo "oops_holding: O_DIRECT write to /dev/ram0 on CPU$cpu failed"; failed=1; }
	[ "$(count collision)" = "$collisions" ] ||
		{ echo "oops_holding: CPU$cpu's next KM_USER0 maps collided (collisions $collisions -> $(count collision))"; failed=1; }
	[ "$(count leak)" = "$leaks" ] ||
		{ echo "oops_holding: leak reports after the thread died (leaks $leaks -> $(count leak))"; failed=1; }
	grep -q oops_holding_thread $slots &&
		{ echo "oops_holding: $slots still shows the dead thread as a holder"; failed=1; }
fi
[ $failed = 0 ] && echo "oops_holding: CPU$cpu's KM_USER0 described, listed at the oops, reclaimed; brd I/O there after it: no collision, no leak"
exit $failed
