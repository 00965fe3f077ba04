# The sample driver (samples/kmap_atomic), which make test loads at boot,
# mapped with KM_USER0/1, KM_IRQ0 and KM_SOFTIRQ0 and saw the right data.
ls /harness/modules/*-kmap_atomic_demo.ko >/dev/null 2>&1 || {
	echo "kmap_atomic_demo.ko was not loaded in this boot"
	# A kernel with highmem has the slots, and so the sample: it must be there.
	grep -q '^HighTotal:' /proc/meminfo && { echo "is CONFIG_SAMPLE_KMAP_ATOMIC=m?"; exit 1; }
	echo "no samples without HIGHMEM: they need the typed slots (CONFIG_KMAP_ATOMIC_SLOTS)"
	exit 4
}
dmesg | grep 'kmap_atomic_demo:' | grep -v taints
[ -d /sys/module/kmap_atomic_demo ] && dmesg | grep -q 'kmap_atomic_demo: .*: ok$'
