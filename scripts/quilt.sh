#!/usr/bin/env bash
# Run quilt in the kernel tree with the series' settings, for adding or
# editing a patch by hand:  scripts/quilt.sh new x86-mm-foo.patch;
# scripts/quilt.sh edit arch/x86/...; scripts/quilt.sh refresh
# Relative file names are the tree's. KERNEL=6.12 works in the 6.12 tree;
# a patch that differs for it is first copied to patches/6.12/ by hand.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=$repo/build
[[ ${KERNEL:-6.1} == 6.1 ]] || build=$repo/build/$KERNEL
. "$repo/scripts/tree-common.sh"
find_tree || { echo "quilt.sh: no kernel tree under $src_root: run 'make tree' first" >&2; exit 1; }
# refresh writes through the tree's link into the patch it names: on a
# kernel after 6.1, a shared patch would get that kernel's context.
if [[ $kernel != 6.1 && ${1:-} == refresh ]]; then
	top=$(q top 2>/dev/null || true)
	name=${2:-$top}
	if [[ -n $name && ! -f $repo/patches/$kernel/$name ]]; then
		echo "quilt.sh: $name is shared with 6.1: copy it to patches/$kernel/ first (cp patches/$name patches/$kernel/; make tree KERNEL=$kernel), then refresh" >&2
		exit 1
	fi
fi
rc=0
q "$@" || rc=$?
# A patch quilt new made is a file in the tree's patches/: move it into
# the repository (patches/, or patches/KERNEL/ for a kernel after 6.1).
for f in "$series_links"/*.patch; do
	[[ -f $f && ! -L $f ]] || continue
	dest=$repo/patches
	[[ $kernel == 6.1 ]] || dest=$repo/patches/$kernel
	mkdir -p "$dest"
	mv "$f" "$dest/" && ln -s "$dest/${f##*/}" "$f"
	echo "quilt.sh: ${f##*/} is in ${dest#"$repo"/}/; add its header (From:, Subject:, message, Signed-off-by:)"
done
adopt_no_diff
sync_applied_copy
exit $rc
