#!/usr/bin/env bash
# Debian's own i386 stress-ng, for make distro-test: the package and what
# it depends on are downloaded (apt-get download, as for the BusyBox),
# unpacked under BUILD/stress-ng, and the binary with the shared libraries
# it loads (its DT_NEEDED closure, found with objdump) goes into OUT, an
# archive that qemu-run.sh appends to a boot's initramfs, together with the
# check that runs it (tools/testing/kmap_atomic/distro-checks/).
# Usage: scripts/stress-ng-rootfs.sh BUILD CHECKS_DIR OUT.cpio.gz
set -euo pipefail
build=$1 checks=$2 out=$3
dir=$(realpath -m "$build")/stress-ng
die() { echo "stress-ng: $*" >&2; exit 1; }

command -v objdump >/dev/null || die "no objdump: run 'make deps' (binutils)"
rm -rf "$dir"
mkdir -p "$dir/debs" "$dir/unpacked" "$dir/root/lib/i386-linux-gnu" "$dir/root/usr/bin" \
	"$dir/root/harness/checks"
# The package and its dependencies, recursively: the libraries come from
# the same Debian release as the binary.
pkgs=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
	--no-breaks --no-replaces --no-enhances stress-ng:i386 2>/dev/null |
	grep -v '^[ <]' | sort -u) || true
[[ $pkgs == *stress-ng:i386* ]] ||
	die "apt knows no stress-ng:i386: enable the i386 architecture (dpkg --add-architecture i386 && apt-get update)"
echo "  DEPS    stress-ng:i386 and its $(($(wc -w <<<"$pkgs") - 1)) dependencies -> build/stress-ng"
# shellcheck disable=SC2086 # one word per package
if ! (cd "$dir/debs" && apt-get download $pkgs >"$dir/apt.log" 2>&1); then
	sed 's/^/  /' "$dir/apt.log" >&2
	die "apt-get download failed (above): is the package list current (apt-get update)?"
fi
for d in "$dir"/debs/*.deb; do dpkg-deb -x "$d" "$dir/unpacked"; done
dpkg-deb -f "$dir"/debs/stress-ng_*_i386.deb Version >"$dir/version"

# The binary and the libraries it loads, transitively.
find_lib() {
	local d
	for d in lib/i386-linux-gnu usr/lib/i386-linux-gnu; do
		[[ -e $dir/unpacked/$d/$1 ]] && { echo "$dir/unpacked/$d/$1"; return 0; }
	done
	return 1
}
cp "$dir/unpacked/usr/bin/stress-ng" "$dir/root/usr/bin/"
declare -A seen=()
todo=("$dir/unpacked/usr/bin/stress-ng")
while ((${#todo[@]})); do
	f=${todo[-1]}
	unset 'todo[-1]'
	for so in $(objdump -p "$f" | awk '$1 == "NEEDED" { print $2 }'); do
		[[ -v seen[$so] ]] && continue
		seen[$so]=1
		lib=$(find_lib "$so") || die "$so, which $(basename "$f") needs, is in none of the packages"
		cp -L "$lib" "$dir/root/lib/i386-linux-gnu/$so"
		todo+=("$lib")
	done
done
# The interpreter stress-ng names (/lib/ld-linux.so.2).
ln -s i386-linux-gnu/ld-linux.so.2 "$dir/root/lib/ld-linux.so.2"
cp "$checks"/*.sh "$dir/root/harness/checks/"
echo "  CPIO    $(basename "$out"): stress-ng $(cat "$dir/version") and ${#seen[@]} libraries"
(cd "$dir/root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -n -6 >"$out.tmp"
mv "$out.tmp" "$out"
