#!/usr/bin/env bash
# make deb: the kernel's own bindeb-pkg over a built kernel (Debian's
# configuration, BASE=debian), so that the series installs on a Debian
# i386 machine with dpkg -i. The packages go to BUILD/deb/.
# Usage: scripts/deb.sh TREE KERNEL_OUT BUILD JOBS
set -euo pipefail
tree=$1 out=$(realpath "$2") build=$(realpath "$3") jobs=$4
dest=$build/deb
parent=$(dirname "$out")
rm -rf "$dest"
mkdir -p "$dest"
# dpkg-buildpackage writes its packages beside the build folder: start clean.
rm -f "$parent"/linux-*.deb "$parent"/linux-upstream_*.buildinfo "$parent"/linux-upstream_*.changes
echo "  DEB     $(basename "$out"): make bindeb-pkg (log: build/deb/bindeb-pkg.log)"
# -d: the build dependencies are what make deps installed, not what
# dpkg-checkbuilddeps would look for under i386 names.
if ! make -C "$tree" O="$out" ARCH=i386 -j"$jobs" DPKG_FLAGS=-d bindeb-pkg \
	>"$dest/bindeb-pkg.log" 2>&1; then
	tail -20 "$dest/bindeb-pkg.log" | sed 's/^/  /' >&2
	echo "deb: bindeb-pkg failed (the end of its log above; all of it in $dest/bindeb-pkg.log)" >&2
	exit 1
fi
mv "$parent"/linux-*.deb "$dest/"
rm -f "$parent"/linux-upstream_*.buildinfo "$parent"/linux-upstream_*.changes
for d in "$dest"/*.deb; do
	printf '  %-60s %6s KiB  %s\n' "${d#"$build"/}" "$(($(stat -c %s "$d") / 1024))" \
		"$(dpkg-deb -f "$d" Package Version | tr '\n' ' ')"
done
img=$(find "$dest" -name 'linux-image-*.deb' ! -name '*-dbg_*' | head -1)
[[ -n $img ]] || { echo "deb: bindeb-pkg made no linux-image package; see $dest/bindeb-pkg.log" >&2; exit 1; }
echo "  $(dpkg-deb -c "$img" | grep -c '\.ko$') modules in $(basename "$img"), signed at modules_install"
echo "  install on a Debian 12 i386 machine: dpkg -i $(basename "$img")"
echo "  it has no disk drivers (docs/debian.md, "make deb") and sorts above Debian's kernels in grub:"
echo "  boot it once with grub-reboot, so that the next boot is Debian's again, and set it as the"
echo "  default (or remove Debian's) only after adding the machine's disk drivers"
