# Random data written to /dev/ram0 reads back identical after the page
# cache is dropped (so the read really comes from brd's pages).
[ -b /dev/ram0 ] || { echo "no /dev/ram0"; exit 1; }
dd if=/dev/urandom of=/tmp/pattern bs=1M count=16 2>/dev/null
dd if=/tmp/pattern of=/dev/ram0 bs=1M conv=fsync 2>/dev/null || exit 1
echo 3 > /proc/sys/vm/drop_caches
dd if=/dev/ram0 of=/tmp/readback bs=1M count=16 2>/dev/null || exit 1
md5sum /tmp/pattern /tmp/readback
cmp /tmp/pattern /tmp/readback
rc=$?
rm -f /tmp/pattern /tmp/readback
exit $rc
