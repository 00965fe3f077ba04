# The brd part of make bench under instruction counting (release, one
# CPU): executed instructions (TSC units under -icount shift=0) per 4 KiB
# O_DIRECT write and read of /dev/ram0, with brd's typed_kmap on and off,
# in this one boot. Each dd is timed by the benchmark module's debugfs
# file "cycles", read before and after; a dd of no blocks is timed the
# same way, so that the host can take the cost of starting dd off.
# Prints: KMAP-BRD <name> <blocks> <t0 t1 of count=0> <t0 t1 of count=blocks>
set -e
c=/sys/kernel/debug/kmap_atomic_bench/cycles
p=/sys/module/brd/parameters/typed_kmap
n=2048
[ -r $c ] || { echo "bench: no $c: is kmap_atomic_bench.ko loaded?"; exit 1; }
dd if=/dev/urandom of=/tmp/data bs=4k count=$n 2>/dev/null
# Allocate brd's store pages first: every measured write then finds its page.
dd if=/tmp/data of=/dev/ram0 bs=4k oflag=direct 2>/dev/null
timed() { # dd arguments: prints t0 t1
	t0=$(cat $c)
	dd "$@" 2>/dev/null
	t1=$(cat $c)
	echo "$t0 $t1"
}
for typed in 1 0; do
	echo $typed >$p
	name=typed
	[ $typed = 1 ] || name=untyped
	echo "KMAP-BRD $name-write $n $(timed if=/tmp/data of=/dev/ram0 bs=4k count=0 oflag=direct)" \
		"$(timed if=/tmp/data of=/dev/ram0 bs=4k count=$n oflag=direct)"
	echo "KMAP-BRD $name-read $n $(timed if=/dev/ram0 of=/dev/null bs=4k count=0 iflag=direct)" \
		"$(timed if=/dev/ram0 of=/dev/null bs=4k count=$n iflag=direct)"
done
echo 1 >$p
