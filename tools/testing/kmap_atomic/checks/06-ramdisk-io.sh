# Real I/O through brd, whose copies map the bio's page with KM_USER0 and
# its store page with KM_USER1: 64 MiB of random data written and read
# back with O_DIRECT and buffered on /dev/ram0, an ext2 filesystem on
# /dev/ram1 written, unmounted, dropped from the caches, remounted and
# verified; the debugfs counters must show KM_USER0 and KM_USER1 maps grew,
# with MEM above 4 GiB KM_USER1 ones of store pages above 4 GiB among them.
# The counters are CONFIG_DEBUG_KMAP_ATOMIC's: the release kernel and a
# kernel without the typed slots (NOHIGHMEM, SLOTS=n) have none, and there
# the data is checked and the counters are not.
set -e
slots=/sys/kernel/debug/kmap_atomic/slots
MiB=1048576
if [ "$DEBUG_KMAP_ATOMIC" != y ]; then
	echo "no debug counters in $KERNEL (CONFIG_DEBUG_KMAP_ATOMIC off): checking the data only"
	slots=/dev/null
elif [ ! -r $slots ]; then
	echo "no $slots, though CONFIG_DEBUG_KMAP_ATOMIC is on"
	exit 1
fi
[ -w /proc/sys/vm/drop_caches ] || { echo "no /proc/sys/vm/drop_caches"; exit 1; }
for d in /dev/ram0 /dev/ram1; do
	size=$(blockdev --getsize64 $d)
	[ "$size" -ge $((256 * MiB)) ] || { echo "$d is $size bytes, not 256 MiB"; exit 1; }
done
grep -qw ext2 /proc/filesystems || { echo "no ext2 in this kernel"; exit 1; }

# The sum over CPUs of column $2 (3 maps, 4 high, 5 above4G) for slot $1.
total() { awk -v s="$1" -v c="$2" '$2 == s { n += $c } END { print n + 0 }' $slots; }
u0=$(total KM_USER0 3) u1=$(total KM_USER1 3) u1_4g=$(total KM_USER1 5)

same() { # file-or-device, skip MiB, MiB, what
	got=$(dd if="$1" bs=1M skip="$2" count="$3" ${4:+iflag=direct} 2>/dev/null | md5sum | cut -d' ' -f1)
	[ "$got" = "$want" ] || { echo "$5: read back $got, wrote $want"; exit 1; }
	echo "$5: $3 MiB read back identical ($got)"
}
drop() { sync; echo 3 >/proc/sys/vm/drop_caches; }

dd if=/dev/urandom of=/tmp/random bs=1M count=64 2>/dev/null
want=$(md5sum </tmp/random | cut -d' ' -f1)

dd if=/tmp/random of=/dev/ram0 bs=1M oflag=direct 2>/dev/null
same /dev/ram0 0 64 direct "O_DIRECT on /dev/ram0"

dd if=/tmp/random of=/dev/ram0 bs=1M seek=64 2>/dev/null
drop
same /dev/ram0 64 64 "" "buffered on /dev/ram0, caches dropped"

mke2fs -q /dev/ram1 >/dev/null
mkdir -p /mnt/brd
mount -t ext2 /dev/ram1 /mnt/brd
for i in 0 1 2 3; do
	dd if=/tmp/random of=/mnt/brd/part$i bs=1M skip=$((i * 16)) count=16 2>/dev/null
done
cp /tmp/random /mnt/brd/whole
umount /mnt/brd
drop
mount -t ext2 /dev/ram1 /mnt/brd
same /mnt/brd/whole 0 64 "" "ext2 on /dev/ram1, remounted"
cat /mnt/brd/part0 /mnt/brd/part1 /mnt/brd/part2 /mnt/brd/part3 >/tmp/parts
same /tmp/parts 0 64 "" "ext2 files part0..3, remounted"
umount /mnt/brd
rm -f /tmp/random /tmp/parts

[ $slots = /dev/null ] && exit 0
n0=$(total KM_USER0 3) n1=$(total KM_USER1 3) n1_4g=$(total KM_USER1 5)
echo "KM_USER0 maps $u0 -> $n0, KM_USER1 maps $u1 -> $n1 (above 4 GiB: $u1_4g -> $n1_4g)"
[ "$n0" -gt "$u0" ] && [ "$n1" -gt "$u1" ]
# Only with RAM above 4 GiB can brd's store pages be there.
[ "$MEM_MIB" -le 4096 ] || [ "$n1_4g" -gt "$u1_4g" ]
