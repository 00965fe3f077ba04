# The sample drivers (samples/kmap_atomic), which make test loads at boot:
# kmap_atomic_demo mapped with KM_USER0/1, KM_IRQ0 and KM_SOFTIRQ0, and
# kmap_atomic_nmi ran 2.6.33's copy_from_user_nmi() and pte walk from real
# NMIs (KM_NMI, KM_NMI_PTE) and hard interrupts (KM_IRQ0, KM_IRQ_PTE); each
# saw the right data, and the NMI one drew no report. Every kernel builds
# them: with the typed slots, and without them (SLOTS=n, NOHIGHMEM), where
# the typed forms map through kmap_local.
rc=0
for m in kmap_atomic_demo kmap_atomic_nmi; do
	if ! ls /harness/modules/*-$m.ko >/dev/null 2>&1; then
		echo "$m.ko was not loaded in this boot: is CONFIG_SAMPLE_KMAP_ATOMIC=m?"
		rc=1
		continue
	fi
	dmesg | grep "$m:" | grep -v taints
	[ -d /sys/module/$m ] && dmesg | grep -q "$m: .*: ok$" || rc=1
done
exit $rc
