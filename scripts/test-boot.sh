#!/usr/bin/env bash
# One test boot of build/KDIR: the sample modules that kernel built (the
# misuse one only with the debug checks), the stress test's module where
# it is one, KUnit (built in, or the suites that kernel built as modules:
# the release flavor), the userspace checks (lib/test_ubsan.ko goes along for the
# checkers check), STRESS seconds of the stress test.
# The log is build/logs/test-KDIR-latest.log. The environment may add an
# archive and /harness/env lines (TEST_BOOT_INITRD_ADD, TEST_BOOT_ENV: see
# qemu-run.sh's --initrd-add and --env), as make distro-test does.
# Usage: scripts/test-boot.sh BUILD KDIR SMP MEM TIMEOUT STRESS [KUNIT_FILTER [KERNEL_ARGS]]
set -euo pipefail
build=$1 kdir=$2 smp=$3 mem=$4 timeout=$5 stress=$6 filter=${7:-} append=${8:-}
# No old log may stand in for a boot that did not happen.
rm -f "$build/logs/test-$kdir-latest.log"
samples=$build/$kdir/samples/kmap_atomic
mods=()
for m in $samples/kmap_atomic_demo.ko $samples/kmap_atomic_nmi.ko $samples/kmap_atomic_misuse.ko \
	$build/$kdir/mm/kmap_atomic/kmap_atomic_stress_test.ko $build/$kdir/mm/kmap_atomic/kmap_atomic_usercopy_test.ko; do
	[[ -f $m ]] && mods+=("$m")
done
# The release flavor's suites are modules, and each must be there: a
# missing one would only shorten the plan that /init prints for them.
# Without the typed slots kmap_atomic_api, the map log's and the bio helpers' suites apply.
kunit=()
suites="kmap_atomic_kunit kmap_atomic_misuse_kunit kmap_atomic_survive_kunit kmap_atomic_trace_kunit kmap_atomic_bio_kunit kmap_atomic_api_kunit kmap_atomic_log_kunit"
# An rt kernel (PREEMPT_RT) is a release one without the slots.
[[ $kdir == *-noslots || ${kdir#debian-} == rt* ]] && suites="kmap_atomic_bio_kunit kmap_atomic_api_kunit kmap_atomic_log_kunit"
if [[ ${kdir#debian-} == release* || ${kdir#debian-} == rt* ]]; then
	for m in $suites; do
		ko=$build/$kdir/mm/kmap_atomic/$m.ko
		[[ -f $ko ]] || { echo "test-boot: no $ko: is it =m in configs/release.config?" >&2; exit 1; }
		kunit+=("$ko")
	done
fi
ubsan=$build/$kdir/lib/test_ubsan.ko
[[ -f $ubsan ]] || ubsan=
exec "$(dirname "$0")/qemu-run.sh" --flavor "$kdir" --mode test --smp "$smp" --mem "$mem" \
	--timeout "$timeout" --stress "$stress" --kunit "$filter" --modules "${mods[*]}" --kunit-modules "${kunit[*]}" --extra "$ubsan" \
	--append "$append" --initrd-add "${TEST_BOOT_INITRD_ADD:-}" --env "${TEST_BOOT_ENV:-}" "$build"
