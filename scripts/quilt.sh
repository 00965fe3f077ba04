#!/usr/bin/env bash
# Run quilt in the kernel tree with the series' settings, for adding or
# editing a patch by hand:  scripts/quilt.sh new x86-mm-foo.patch;
# scripts/quilt.sh edit arch/x86/...; scripts/quilt.sh refresh
# Relative file names are the tree's.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=$repo/build
. "$repo/scripts/tree-common.sh"
find_tree || { echo "quilt.sh: no kernel tree under $src_root: run 'make tree' first" >&2; exit 1; }
rc=0
q "$@" || rc=$?
sync_applied_copy
exit $rc
