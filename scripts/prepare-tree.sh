#!/usr/bin/env bash
# Make build/src/linux-<version>: the pristine tarball (committed to a git
# repository inside the tree), our overlay files, then quilt push -a.
# Files are only rewritten when their content changes, so Kbuild rebuilds
# only what changed.
# Usage: scripts/prepare-tree.sh REPO BUILD TARBALL
set -euo pipefail
repo=$1
build=$2
tarball=$3
. "$repo/scripts/tree-common.sh"

die() { echo "tree: $*" >&2; exit 1; }

unpack() {
	[[ -f $tarball ]] || die "no kernel tarball at $tarball: run 'make deps KERNEL=$kernel' (it installs linux-source-$kernel) or set TARBALL="
	local tmp=$src_root/.unpack
	rm -rf "$tmp"
	mkdir -p "$tmp"
	echo "  UNPACK  $tarball"
	tar -xJf "$tarball" -C "$tmp"
	local top
	top=$(ls -d "$tmp"/*/ | head -1)
	[[ -f $top/Makefile ]] || die "$tarball holds no kernel Makefile at its top"
	local ver
	ver=$(make -s -C "$top" kernelversion 2>/dev/null) ||
		die "cannot read the kernel version from $top/Makefile"
	[[ $ver == "$kernel".* ]] || die "$tarball is Linux $ver, not $kernel.y: give KERNEL=${ver%.*} or a linux-$kernel.y TARBALL"
	mv "$top" "$src_root/linux-$ver"
	rm -rf "$tmp"
	tree=$src_root/linux-$ver
	echo "  GIT     pristine $ver"
	# Debian's tarball ignores everything at the top level: add with -f.
	git -C "$tree" init -q
	printf '/.pc/\n/patches\n' >>"$tree/.git/info/exclude"
	git -C "$tree" add -fA .
	git -C "$tree" -c user.name=pristine -c user.email=pristine@localhost \
		commit -q -m "Linux $ver (pristine, from $(basename "$tarball"))"
	rm -rf "$state"
}

# Remove the series from the tree, back to pristine + overlay. The patches
# are popped as they were pushed, which the repository may have changed since.
# (quilt keeps the name "patches" in .pc/, so the tree's link is swung.)
pop_all() {
	local out rc=0 popping=$state/popping applied
	# What is applied, from quilt's own list: 'quilt applied' gives nothing
	# once a patch has been inserted under the top one in patches/series.
	applied=$(cat "$tree/.pc/applied-patches" 2>/dev/null || true)
	[[ -n $applied ]] || return 0
	# The repository's patches, with the pushed versions over them, and a
	# series that is what is applied (quilt wants each patch listed).
	rm -rf "$popping"
	mkdir -p "$popping"
	# (a link whose patch the repository no longer has is the applied copy's)
	[[ -d $series_links ]] && { cp -rL "$series_links/." "$popping/" 2>/dev/null || true; }
	[[ -d $applied_copy ]] && cp -r "$applied_copy/." "$popping/"
	rm -f "$popping/series"
	echo "$applied" >"$popping/series"
	ln -sfn "$popping" "$tree/patches"
	out=$(q pop -a -q 2>&1) || rc=$?
	ln -sfn "$series_links" "$tree/patches"
	rm -rf "$popping"
	if ((rc)); then
		echo "$out" >&2
		die "the patched files in $tree have edits that are not in patches/ (quilt's words above): keep them with 'scripts/quilt.sh refresh <patch>' (or make refresh for the top one), or drop them with 'scripts/quilt.sh pop -af'"
	fi
}

# quilt push -a; on failure name the patch and the file, undo, stop.
push_all() {
	local out rc=0
	out=$(q push -a 2>&1) || rc=$?
	((rc == 0)) && return 0
	local patch files
	patch=$(sed -n 's/^Applying patch \(.*\)$/\1/p' <<<"$out" | tail -1)
	files=$(sed -n 's/.*FAILED -- \(saving \)\?rejects to file \(.*\)\.rej$/\2/p; s/^can.t find file to patch.*|--- a\/\(.*\)$/\1/p' <<<"$out" | sort -u | tr '\n' ' ')
	[[ -n $files ]] || files=$(sed -n 's/^patching file \(.*\)$/\1/p' <<<"$out" | tail -1)
	echo "$out" | sed 's/^/  quilt: /' >&2
	q pop -a -q >/dev/null 2>&1 || true
	rm -rf "$applied_copy"
	die "patch ${patch:-?} does not apply to ${files:-?} in $(basename "$tree"): refresh it against this kernel: scripts/quilt.sh push -f, fix the .rej, scripts/quilt.sh refresh"
}

mkdir -p "$src_root"
find_tree || unpack
mkdir -p "$mirror"
# A make mutation-check cut short may leave an upstream file the series
# patches mutated: put its series version back before quilt looks at it.
if [[ -d $state/mutation-orig ]]; then
	while read -r f; do
		echo "  RESTORE $f (make mutation-check was cut short)"
		cp "$state/mutation-orig/$f" "$tree/$f"
	done < <(cd "$state/mutation-orig" && find . -type f | sed 's|^\./||')
	rm -rf "$state/mutation-orig"
fi

check_series_complete || exit 1
# The series goes first: the overlay adds new files only, never patched ones.
want=$(series_hash)
have=$(cat "$applied_stamp" 2>/dev/null || true)
# (a series popped by hand in the tree is pushed again too)
if [[ $want != "$have" || -n $(q unapplied 2>/dev/null) ]]; then
	echo "  QUILT   patches/series"
	# Until the new series is all in, the tree matches no series.
	rm -f "$applied_stamp"
	declare -A before=()
	while read -r f; do
		[[ -f $tree/$f ]] && before[$f]="$(sha256sum <"$tree/$f") $(stat -c %Y "$tree/$f")"
	done < <(q files -a 2>/dev/null | sort -u)
	pop_all
	rm -rf "$applied_copy"
	link_series
	if [[ -n $(series_names) ]]; then
		push_all
		cp -rL "$series_links" "$applied_copy"
	fi
	# Content that came back the same keeps its old time: no needless rebuild.
	for f in "${!before[@]}"; do
		[[ -f $tree/$f ]] || continue
		read -r sum _ mtime <<<"${before[$f]}"
		[[ $(sha256sum <"$tree/$f" | cut -d' ' -f1) == "$sum" ]] && touch -d "@$mtime" "$tree/$f"
	done
	echo "$want" >"$applied_stamp"
fi
# Each link again: a patch copied to patches/KERNEL/ takes the shared one's place.
link_series

# Overlay: copy what changed, remove what the repository no longer has.
declare -A now=()
while read -r f; do
	now[$f]=1
	if ! cmp -s "$repo/$f" "$tree/$f"; then
		if [[ -e $tree/$f ]] && ! [[ -e $mirror/$f ]] && git -C "$tree" cat-file -e "HEAD:$f" 2>/dev/null; then
			die "$f is an upstream file: change it with a patch in patches/, not an overlay file"
		fi
		echo "  OVERLAY $f"
		mkdir -p "$(dirname "$tree/$f")" "$(dirname "$mirror/$f")"
		cp "$repo/$f" "$tree/$f"
	fi
	cmp -s "$repo/$f" "$mirror/$f" || cp "$repo/$f" "$mirror/$f"
done < <(overlay_files)
while read -r f; do
	[[ -n ${now[$f]:-} ]] && continue
	echo "  REMOVE  $f"
	rm -f "$tree/$f" "$mirror/$f"
done < <(cd "$mirror" && find . -type f | sed 's|^\./||')
# Every overlay file is the repository's again, what an interrupted make
# mutation-check or make trace-cost changed included.
rm -f "$state/mutating"
