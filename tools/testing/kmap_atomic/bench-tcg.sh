# The plain-TCG part of make bench (wall clock, SMP=4): the scaling runs
# of the benchmark module, five times each, and brd's O_DIRECT throughput
# typed against untyped, in this one boot. Printed as KMAP-BENCH lines.
set -e
s=/sys/kernel/debug/kmap_atomic_bench/scaling
for n in 1 2 4; do
	for run in 1 2 3 4 5; do
		echo "$n" >$s
	done
done
p=/sys/module/brd/parameters/typed_kmap
MiB=128
dd if=/dev/urandom of=/tmp/data bs=1M count=$MiB 2>/dev/null
now() { cut -d' ' -f1 /proc/uptime | tr -d .; }	# centiseconds
speed() { # MB/s of the dd "$@" (MiB MiB moved)
	t0=$(now)
	dd "$@" 2>/dev/null
	t1=$(now)
	echo $((MiB * 1048576 / 10000 / (t1 - t0 + (t1 == t0))))
}
for run in 1 2 3 4 5; do
	for typed in 1 0; do
		echo $typed >$p
		w=$(speed if=/tmp/data of=/dev/ram0 bs=1M oflag=direct)
		r=$(speed if=/dev/ram0 of=/dev/null bs=1M count=$MiB iflag=direct)
		name=brd_typed
		[ $typed = 1 ] || name=brd_untyped
		printf 'KMAP-BENCH\t%s_write_MBps\t-\t%s\t%s\t-\n' $name "$(nproc)" "$w"
		printf 'KMAP-BENCH\t%s_read_MBps\t-\t%s\t%s\t-\n' $name "$(nproc)" "$r"
	done
done
echo 1 >$p
