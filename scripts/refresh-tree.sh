#!/usr/bin/env bash
# Write edits made inside build/src/linux-*/ back into the repository:
# overlay files edited in the tree are copied back, and the top quilt patch
# is refreshed (quilt writes straight into patches/, the tree's patches/
# is a link to it). Checks everything before changing anything.
# Usage: scripts/refresh-tree.sh REPO BUILD
set -euo pipefail
repo=$1
build=$2
. "$repo/scripts/tree-common.sh"

find_tree || { echo "refresh: no kernel tree under $src_root: nothing to refresh" >&2; exit 1; }
if [[ -f $state/mutating ]]; then
	echo "refresh: $(cat "$state/mutating") in the tree is being changed by make mutation-check or make trace-cost (or an interrupted one left it): wait for it, or run 'make tree' to put it back, then refresh" >&2
	exit 1
fi

back=()
while read -r f; do
	cmp -s "$tree/$f" "$mirror/$f" && continue
	if [[ ! -e $tree/$f ]]; then
		echo "refresh: $f was deleted in the tree; delete it in the repository instead" >&2
		exit 1
	fi
	if ! cmp -s "$repo/$f" "$mirror/$f"; then
		echo "refresh: $f changed both in the tree and in the repository; keep one (cp or git checkout) and retry" >&2
		exit 1
	fi
	back+=("$f")
done < <(cd "$mirror" && find . -type f | sed 's|^\./||' | sort)

for f in "${back[@]}"; do
	echo "  REFRESH $f"
	cp "$tree/$f" "$repo/$f"
	cp "$tree/$f" "$mirror/$f"
done

top=$(q top 2>/dev/null || true)
if [[ -n $top ]] && [[ -n $(q diff -z 2>/dev/null) ]]; then
	echo "  REFRESH $top"
	q refresh >/dev/null
	adopt_no_diff
	# What is applied now is what patches/ holds: no pop/push next build.
	sync_applied_copy
	[[ -z $(q unapplied 2>/dev/null) ]] && series_hash >"$applied_stamp"
fi
((${#back[@]})) || [[ -n ${top:-} ]] || echo "refresh: nothing was edited in $tree"
