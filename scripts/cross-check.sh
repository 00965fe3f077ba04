#!/usr/bin/env bash
# make cross-check: build the series for other architectures, as the
# kernel's build robots would: x86_64 (no highmem: the typed names only,
# the API and bio suites) and 32-bit ARM with highmem (its own kmap_local;
# no slots: x86-32 is the one architecture that has them). Each from
# tinyconfig plus configs/cross-ARCH.config, with KUNIT_ALL_TESTS, so
# that every test and sample of ours that the architecture can build is
# built. The build must succeed and each option the fragment asks for
# must be in the final .config (an option that drops out builds nothing).
# Writes a KTAP document for ktap-summary.py.
# Usage: scripts/cross-check.sh REPO BUILD JOBS KTAP_FILE
set -uo pipefail
repo=$1 build=$2 jobs=$3 ktap=$4
. "$repo/scripts/tree-common.sh"
find_tree || { echo "cross-check: no kernel tree: run 'make tree' first" >&2; exit 1; }

arches=(x86_64 arm)
declare -A cross=([x86_64]="" [arm]=arm-linux-gnueabihf-)
mkdir -p "$(dirname "$ktap")"
{
	echo "KTAP version 1"
	echo "1..1"
	echo "    KTAP version 1"
	echo "    # Subtest: cross-check"
	echo "    1..${#arches[@]}"
} >"$ktap"
n=0 failed=0
for arch in "${arches[@]}"; do
	n=$((n + 1))
	out=$build/cross-$arch
	frag=$repo/configs/cross-$arch.config
	cc=${cross[$arch]}
	mkdir -p "$out"
	log=$out/build.log
	echo "  CROSS   $arch${cc:+ ($cc)} -> ${out#"$repo"/}, log: ${log#"$repo"/}"
	why=
	if ! { make -s -C "$tree" O="$out" ARCH="$arch" CROSS_COMPILE="$cc" tinyconfig &&
		"$tree/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$frag" &&
		make -s -C "$tree" O="$out" ARCH="$arch" CROSS_COMPILE="$cc" olddefconfig; } >"$log" 2>&1; then
		why="the configuration failed (see $log)"
	else
		missing=$(grep -E '^CONFIG_[A-Z0-9_]+=' "$frag" | while read -r line; do
			grep -qxF "$line" "$out/.config" || echo "${line%%=*}"
		done | tr '\n' ' ')
		if [[ -n $missing ]]; then
			why="asked for but not in the .config: $missing(a dependency is missing)"
		elif ! make -s -C "$tree" O="$out" ARCH="$arch" CROSS_COMPILE="$cc" -j"$jobs" \
			vmlinux >>"$log" 2>&1; then
			why="the build failed: $(grep -m1 -E 'error:|Error [0-9]' "$log")"
		fi
	fi
	if [[ -z $why ]]; then
		echo "    ok $n $arch" >>"$ktap"
		echo "          ok: $(grep -cE '^CONFIG_[A-Z0-9_]*(KMAP|KUNIT)[A-Z0-9_]*=y' "$out/.config") KUNIT and KMAP options built in"
	else
		echo "  FAIL    $arch: $why" >&2
		{ echo "    # $arch: $why"; echo "    not ok $n $arch"; } >>"$ktap"
		failed=1
	fi
done
if ((failed)); then echo "not ok 1 cross-check"; else echo "ok 1 cross-check"; fi >>"$ktap"
exit $failed
