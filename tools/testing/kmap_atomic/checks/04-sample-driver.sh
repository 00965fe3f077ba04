# The sample driver (samples/kmap_atomic), which make test loads at boot,
# mapped with KM_USER0/1, KM_IRQ0 and KM_SOFTIRQ0 and saw the right data.
# Every kernel builds it: with the typed slots, and without them (SLOTS=n,
# NOHIGHMEM), where the typed forms map through kmap_local.
ls /harness/modules/*-kmap_atomic_demo.ko >/dev/null 2>&1 || {
	echo "kmap_atomic_demo.ko was not loaded in this boot: is CONFIG_SAMPLE_KMAP_ATOMIC=m?"
	exit 1
}
dmesg | grep 'kmap_atomic_demo:' | grep -v taints
[ -d /sys/module/kmap_atomic_demo ] && dmesg | grep -q 'kmap_atomic_demo: .*: ok$'
