#!/usr/bin/env bash
# Boot build/<flavor> under QEMU with the base initramfs plus a
# per-boot archive (/harness/env, RUN's script, MODULES, --kunit-modules
# that /init loads after them, and --extra modules that /init does not
# load: a check loads them itself). The console is
# saved in build/logs/<mode>-<flavor>-<time>.log (and <mode>-latest.log,
# <mode>-<flavor>-latest.log). <flavor> is the build/ folder: debug,
# debug-highmem4g, release, debian-release, ...
# qemu-system-i386, except for a kernel with HIGHPTE (Debian's): it puts
# page tables above 4 GiB, which qemu-system-i386 gets wrong (userspace
# never starts at 6G: "Corrupted page table", "Bad pagetable"), so that one
# boots under qemu-system-x86_64, which runs the same i386 kernel.
# QEMU_SYSTEM=qemu-system-x86_64 in the environment boots any kernel there
# (to compare the two; docs/qemu.md says why ours stay on qemu-system-i386).
# Exits with the guest's status, 124 on a timeout.
# Usage: scripts/qemu-run.sh --flavor F --mode shell|run|test|bench
#        [--smp N] [--mem SIZE] [--timeout S] [--kunit GLOB] [--modules 'A.ko ..']
#        [--kunit-modules 'K.ko ..'] [--extra 'B.ko ..'] [--append 'kernel args']
#        [--icount] [--stress SECONDS] [--initrd-add A.cpio.gz] [--env 'K=V ..'] BUILD
# --initrd-add: one more archive after the per-boot one (make distro-test's
# stress-ng); --env: more lines for /harness/env.
# One host thread runs all the vCPUs (TCG's round-robin), because QEMU
# 7.2's multi-threaded TCG can run a stale copy of kernel text another vCPU
# has just patched: the guest then dies of an int3 that text_poke_bp() no
# longer claims, and resets without a word (docs/qemu.md, "One TCG thread").
# TCG_THREAD=multi in the environment: a host thread per vCPU all the same
# (make bench's wall-clock scaling boot, which needs the CPUs to run at
# once; a developer's run for cross-CPU overlap), except under --icount,
# which runs one thread.
set -euo pipefail

flavor=debug mode=shell smp=4 mem=6G timeout=900 kunit= modules= kunit_modules= extra= append=
icount=0 stress=20 initrd_add= env_add=
while (($# > 1)); do
	case $1 in
	--flavor) flavor=$2 ;;
	--mode) mode=$2 ;;
	--smp) smp=$2 ;;
	--mem) mem=$2 ;;
	--timeout) timeout=$2 ;;
	--kunit) kunit=$2 ;;
	--modules) modules=$2 ;;
	--kunit-modules) kunit_modules=$2 ;;
	--extra) extra=$2 ;;
	--append) append=$2 ;;
	--stress) stress=$2 ;;
	--initrd-add) initrd_add=$2 ;;
	--env) env_add=$2 ;;
	--icount) icount=1; shift; continue ;;
	*) echo "qemu-run: unknown option $1" >&2; exit 2 ;;
	esac
	shift 2
done
build=$1

die() { echo "qemu-run: $*" >&2; exit 2; }
tcg=${TCG_THREAD:-single}
[[ $tcg == single || $tcg == multi ]] || die "TCG_THREAD=$tcg: use single (the default) or multi"
# Instruction counting runs one thread, whatever TCG_THREAD asks.
((icount)) && tcg=single
config=$build/$flavor/.config
[[ -f $config ]] || die "no kernel configuration at $config: run 'make kernel' for $flavor"
nr_cpus=$(sed -n 's/^CONFIG_NR_CPUS=//p' "$config")
[[ $smp =~ ^[1-9][0-9]*$ ]] && ((smp <= ${nr_cpus:-1})) ||
	die "SMP=$smp: give a CPU count from 1 to ${nr_cpus:-1} (the $flavor kernel has NR_CPUS=${nr_cpus:-1})"
[[ $mem =~ ^([0-9]+)([MG])$ ]] || die "MEM=$mem: give a size like 512M, 3G or 6G"
mem_mib=${BASH_REMATCH[1]}
[[ ${BASH_REMATCH[2]} == G ]] && mem_mib=$((mem_mib * 1024))
((mem_mib >= 256 && mem_mib <= 16384)) || die "MEM=$mem: use 256M to 16G (PAE reaches 64G, but the host has to hold it)"
[[ $timeout =~ ^[0-9]+$ ]] || die "TIMEOUT=$timeout: give whole seconds"
[[ $stress =~ ^[0-9]+$ ]] && ((stress <= 3600)) || die "STRESS=$stress: give whole seconds, 0 (off) to 3600"

kernel=$build/$flavor/arch/x86/boot/bzImage
[[ -f $kernel ]] || die "no kernel at $kernel: run 'make kernel FLAVOR=$flavor'"
[[ -f $build/initramfs.cpio.gz ]] || die "no initramfs: run 'make initramfs'"

# The per-boot archive.
run=$build/run
stage=$run/root
rm -rf "$stage"
mkdir -p "$stage/harness/modules" "$stage/harness/kunit" "$stage/harness/extra" "$build/logs"
# The checks see the flavor (release, debug-highmem4g, ...), whatever the base.
cat >"$stage/harness/env" <<EOF
MODE=$mode
SMP=$smp
MEM=$mem
MEM_MIB=$mem_mib
FLAVOR=${flavor#debian-}
KERNEL=$flavor
STRESS_SECONDS=$stress
DEBUG_KMAP_ATOMIC=$(grep -qx 'CONFIG_DEBUG_KMAP_ATOMIC=y' "$config" && echo y || echo n)
EOF
for kv in $env_add; do
	[[ $kv =~ ^[A-Z_][A-Z0-9_]*=[A-Za-z0-9_.:/-]*$ ]] || die "--env: '$kv' is not NAME=value"
	grep -q "^${kv%%=*}=" "$stage/harness/env" && die "--env: ${kv%%=*} is set by qemu-run.sh itself"
	echo "$kv" >>"$stage/harness/env"
done
[[ $mode == run ]] && cp "$run/cmd.sh" "$stage/harness/run.sh"
i=0
for m in $modules; do
	[[ -f $m ]] || die "MODULES: $m does not exist"
	i=$((i + 1))
	cp "$m" "$stage/harness/modules/$(printf %02d $i)-$(basename "$m")"
done
for m in $kunit_modules; do
	[[ -f $m ]] || die "KUnit module $m does not exist"
	cp "$m" "$stage/harness/kunit/"
done
for m in $extra; do
	[[ -f $m ]] || die "extra module $m does not exist"
	cp "$m" "$stage/harness/extra/"
done
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -n >"$run/boot.cpio.gz"
[[ -z $initrd_add || -f $initrd_add ]] || die "--initrd-add: no archive at $initrd_add"
cat "$build/initramfs.cpio.gz" "$run/boot.cpio.gz" ${initrd_add:+"$initrd_add"} >"$run/initrd.gz"

# Suites run at boot only where asked for: all of them in test mode.
if [[ -z $kunit && $mode != test ]]; then
	kunit=no-suite
fi
# Two 256 MiB RAM disks, whatever the config's defaults. A 4 MiB log: the
# checks read dmesg after every suite has run, and Debian's 128 KiB
# (LOG_BUF_SHIFT=17) has lost the sample modules' lines by then on 6.12.
cmdline="console=ttyS0 panic=-1 rdinit=/init brd.rd_nr=2 brd.rd_size=262144 log_buf_len=4M"
cmdline+=" ${kunit:+kunit.filter_glob=$kunit} $append"
# TCG's "max" CPU says AuthenticAMD family 6, which the kernel takes for an
# Athlon without SMP support and warns about; the Intel vendor string avoids it.
cpu=max,vendor=GenuineIntel

log=$build/logs/$mode-$flavor-$(date +%Y%m%d-%H%M%S).log
ln -sfn "$(basename "$log")" "$build/logs/$mode-latest.log"
ln -sfn "$(basename "$log")" "$build/logs/$mode-$flavor-latest.log"
qemu_bin=qemu-system-i386
grep -qx 'CONFIG_HIGHPTE=y' "$config" && qemu_bin=qemu-system-x86_64
case ${QEMU_SYSTEM:-} in
'') ;;
qemu-system-i386 | qemu-system-x86_64) qemu_bin=$QEMU_SYSTEM ;;
*) die "QEMU_SYSTEM=$QEMU_SYSTEM: use qemu-system-i386 or qemu-system-x86_64" ;;
esac
qemu=("$qemu_bin" -cpu "$cpu" -smp "$smp" -m "$mem" -nographic -no-reboot
	-kernel "$kernel" -initrd "$run/initrd.gz" -append "$cmdline"
	-chardev "stdio,mux=on,id=con,signal=off,logfile=$log" -serial chardev:con -mon chardev=con)
qemu+=(-accel "tcg,thread=$tcg")
((icount)) && qemu+=(-icount shift=0,sleep=off)

echo "  BOOT    $flavor SMP=$smp MEM=$mem ($mode, $qemu_bin, TCG thread=$tcg), log: ${log#"$build"/../}"
rc=0
case $mode in
shell) "${qemu[@]}" || rc=$? ;;
run) timeout --foreground -k 10 "$timeout" "${qemu[@]}" </dev/null || rc=$? ;;
*) timeout --foreground -k 10 "$timeout" "${qemu[@]}" </dev/null >/dev/null || rc=$? ;;
esac
if ((rc == 124 || rc == 137)); then
	echo "qemu-run: timed out after ${timeout}s (TIMEOUT=$timeout); log: $log" >&2
	exit 124
fi
((rc == 0)) || { echo "qemu-run: $qemu_bin failed with status $rc; log: $log" >&2; exit "$rc"; }
status=$(tr -d '\r' <"$log" | sed -n 's/^KMAP-HARNESS-EXIT: \([0-9]*\)$/\1/p' | tail -1)
if [[ -z $status ]]; then
	# panic=-1: a panic prints this line before the reset. Oopses and BUGs
	# are no sign: the debug boots' misuse checks print them on purpose.
	if grep -q 'Kernel panic - not syncing' "$log"; then
		echo "qemu-run: the guest panicked and stopped without reporting a status; log: $log" >&2
	elif [[ $mode == shell ]]; then
		echo "qemu-run: the shell ended without the guest's status (Ctrl-A X, or a reset); log: $log" >&2
	else
		# A reset with no panic: a triple fault, or the multi-threaded
		# TCG race that one thread avoids.
		echo "qemu-run: the guest reset itself without a word (no status and no panic" \
			"in the log; TCG thread=$tcg: see docs/qemu.md, \"One TCG thread\"); log: $log" >&2
	fi
	exit 1
fi
exit "$status"
