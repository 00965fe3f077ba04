# Hardened usercopy over the typed slots: kmap_atomic_usercopy_test.ko
# reads a highmem page mapped with kmap_atomic(page, KM_USER0) to user
# space without stopping at the page's end. A read inside the page gets
# its bytes; one that runs past it must be stopped by
# CONFIG_HARDENED_USERCOPY, whose check asks is_kmap_addr() (the series
# teaches it the typed slots), and the reader dies of the BUG. The kernel
# goes on: the slot the dead reader held is KM_USER0 for the next map.
f=/sys/kernel/debug/kmap_atomic_usercopy/page
if [ ! -r $f ]; then
	case $KERNEL in
	*-nohighmem) echo "no highmem in $KERNEL: a lowmem page takes no slot"; exit 4 ;;
	esac
	if grep -q '^HighTotal: *0 kB' /proc/meminfo || ! grep -q '^HighTotal:' /proc/meminfo; then
		echo "no highmem with MEM=$MEM: a lowmem page takes no slot"
		exit 4
	fi
	echo "no $f: is CONFIG_KMAP_ATOMIC_USERCOPY_TEST=m (configs/release.config, debug.config) and its module loaded?"
	exit 1
fi
case $(uname -r)-$KERNEL in
6.1.*-*noslots | 6.1.*-rt*)
	echo "without the slots the typed map is a kmap_local one, and 6.1's is_kmap_addr() knows no kmap_local slot (6.3 added them)"
	exit 4 ;;
esac

# Inside the page: its last KiB, the module's 0x5a bytes.
got=$(dd if=$f bs=1024 skip=3 count=1 2>/dev/null | od -An -tx1 -v | tr -s ' \n' '\n\n' | sort -u | tr -d '\n')
[ "$got" = 5a ] || { echo "a read of the page's last KiB gave '$got', not 0x5a bytes"; exit 1; }

# Past it: 3 KiB from offset 3072 runs 2 KiB over. The reader is killed.
echo "KMAP-EXPECT-BEGIN usercopy [reports: ^(kernel BUG at mm/usercopy.c|usercopy: Kernel memory exposure attempt detected from kmap|(Oops: )?invalid opcode: 0000)]" >/dev/kmsg
dd if=$f of=/dev/null bs=3072 skip=1 count=1 2>/dev/null
rc=$?
echo "KMAP-EXPECT-END usercopy" >/dev/kmsg
log=$(dmesg | sed -n '/KMAP-EXPECT-BEGIN usercopy/,/KMAP-EXPECT-END usercopy/p')
echo "$log" | grep -q 'usercopy: Kernel memory exposure attempt detected from kmap (offset 3072, size 3072)!' || {
	echo "a copy to user space of 3072 bytes from offset 3072 of a KM_USER0 mapping was not stopped (dd exit $rc): is_kmap_addr() does not know the slot"
	exit 1
}
[ $rc != 0 ] || { echo "hardened usercopy reported the overrun, but dd went on (exit 0)"; exit 1; }

# The kernel goes on, and KM_USER0 maps again on every CPU.
for cpu in $(seq 0 $(($(nproc) - 1))); do
	got=$(taskset -c "$cpu" dd if=$f bs=1024 count=1 2>/dev/null | od -An -tx1 -v | tr -s ' \n' '\n\n' | sort -u | tr -d '\n')
	[ "$got" = 5a ] || { echo "after the BUG, a read on CPU$cpu gave '$got', not 0x5a bytes"; exit 1; }
done
echo "the overrun was stopped (offset 3072, size 3072), its reader died (exit $rc), and reads go on on every CPU"
