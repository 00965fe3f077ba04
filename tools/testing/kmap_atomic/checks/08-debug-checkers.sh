# The debug flavor's checkers are alive, so that "no report" from this boot
# means something: lockdep still validates after everything above (its
# first report turns it off for good), and UBSAN's reports reach the
# console (lib/test_ubsan.ko commits undefined behaviour on purpose).
case $FLAVOR in release* | rt*)
	echo "the release flavor has no lockdep and no UBSAN to check"
	exit 4 ;;
esac
s=/proc/lockdep_stats
[ -r $s ] || { echo "no $s: is CONFIG_PROVE_LOCKING on?"; exit 1; }
grep -q 'debug_locks: *1$' $s ||
	{ echo "lockdep has turned itself off (debug_locks: 0): its first report is above"; exit 1; }
m=/harness/extra/test_ubsan.ko
[ -f $m ] || { echo "no $m: is CONFIG_TEST_UBSAN=m in this kernel?"; exit 1; }
echo "KMAP-EXPECT-BEGIN checkers test_ubsan [reports: ^UBSAN: ]" >/dev/kmsg
insmod $m
echo "KMAP-EXPECT-END checkers test_ubsan" >/dev/kmsg
rmmod test_ubsan
reports=$(dmesg | sed -n '/KMAP-EXPECT-BEGIN checkers test_ubsan/,$p' | grep 'UBSAN:')
failed=0
for kind in shift-out-of-bounds array-index-out-of-bounds invalid-load; do
	echo "$reports" | grep -q "UBSAN: $kind" || { echo "test_ubsan: no UBSAN: $kind report"; failed=1; }
done
[ $failed = 0 ] && echo "lockdep: debug_locks 1; test_ubsan: $(echo "$reports" | wc -l) UBSAN reports"
exit $failed
