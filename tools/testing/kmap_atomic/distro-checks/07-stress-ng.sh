# make distro-test only: Debian's own stress-ng (scripts/stress-ng-rootfs.sh
# puts it and this check into the boot), a workload nobody here wrote. Its
# memory, page-fault, mmap, fork, pipe and disk stressors run on every CPU
# (N=0: one instance per online CPU) with --verify for STRESS_NG_SECONDS;
# the mmap and disk ones write files to ext2 on the second brd disk. It must
# end with a successful run, bogo operations from every stressor and no
# failure or error line; the kernel must not have called the OOM killer
# (the sizes leave room); with HIGHPTE=y (DISTRO_HIGHPTE=y in
# /harness/env) some of the page tables in use must be above 4 GiB.
# Kernel reports (WARN, BUG, lockdep, UBSAN) fail the boot in ktap-summary.
seconds=${STRESS_NG_SECONDS:-120}
export LD_LIBRARY_PATH=/lib/i386-linux-gnu
sng=/usr/bin/stress-ng
[ -x $sng ] || { echo "no $sng in this boot"; exit 1; }
dev=/dev/ram1 mnt=/mnt/stress-ng
mkdir -p $mnt
mke2fs -q $dev >/dev/null 2>&1 || { echo "mke2fs $dev failed"; exit 1; }
mount -t ext2 $dev $mnt || { echo "mount -t ext2 $dev failed"; exit 1; }
echo "stress-ng $($sng --version 2>&1 | head -1 | sed 's/^stress-ng, version //')," \
	"$seconds s, ext2 on $dev"
cd $mnt || { umount $mnt; exit 1; }
ooms=$(dmesg | grep -c 'invoked oom-killer')
$sng --vm 0 --vm-bytes 96M --page-in --fault 0 --mmap 0 --mmap-bytes 8M --mmap-file \
	--fork 0 --pipe 0 --hdd 0 --hdd-bytes 24M --temp-path $mnt \
	--verify --timeout "${seconds}s" --metrics-brief >/tmp/stress-ng.log 2>&1 &
pid=$!
# Halfway, the page-table pages above 4 GiB: with HIGHPTE (Debian's
# configuration) user page tables are highmem, mapped by pte_offset_map()
# through kmap_local on every fault. /proc/kpageflags has one 64-bit word
# of flags per frame; KPF_PGTABLE is bit 26, the "4" bit of the seventh
# hex digit from the right. Frames from 0x100000 (word 0x100000, 8 KiB
# block 1024) on are above 4 GiB.
sleep $((seconds / 2))
above=$(dd if=/proc/kpageflags bs=8192 skip=1024 2>/dev/null | od -An -v -w8 -tx8 |
	grep -cE '[4567cdef][0-9a-f]{6}$')
echo "page-table pages above 4 GiB halfway through: $above (/proc/kpageflags, KPF_PGTABLE)"
wait $pid
rc=$?
cd /
# stress-ng 0.15 ends with "successful run completed" (exit 0) and one
# metrics line per stressor; a verification error is a "fail:" line.
grep -E 'dispatching|metrc: \[[0-9]+\] [a-z]+ +[0-9]|fail|error|successful run|unsuccessful' \
	/tmp/stress-ng.log | head -30
umount $mnt
why=
# Every reason, not only the last.
fail() { why="${why:+$why; }$1"; }
for s in vm fault mmap fork pipe hdd; do
	ops=$(sed -n "s/^stress-ng: metrc: \[[0-9]*\] $s  *\([0-9][0-9]*\) .*/\1/p" /tmp/stress-ng.log)
	if [ "${ops:-0}" -gt 0 ] 2>/dev/null; then
		passed="${passed:+$passed, }$s $ops"
	else
		failed="${failed:+$failed, }$s"
	fi
done
echo "stress-ng result: passed ${passed:-none}; failed: ${failed:-none}"
[ -z "$failed" ] || fail "no bogo operations from: $failed"
grep -qiE ': fail:|error' /tmp/stress-ng.log && fail "stress-ng reported a failure or an error (above)"
# -w: not "unsuccessful run completed"
grep -qw 'successful run completed' /tmp/stress-ng.log ||
	fail "stress-ng did not say 'successful run completed'"
[ $rc = 0 ] || fail "stress-ng exited with status $rc"
[ "$(dmesg | grep -c 'invoked oom-killer')" = "$ooms" ] ||
	fail "the kernel called the OOM killer during stress-ng"
if [ "${DISTRO_HIGHPTE:-n}" = y ] && ! [ "$above" -gt 0 ] 2>/dev/null; then
	fail "no page-table page above 4 GiB in use: is HIGHPTE on, and MEM over 4G?"
fi
[ -z "$why" ] || { echo "$why"; exit 1; }
