# Shared by the scripts that use the kernel tree: where things are, how
# quilt is called, the export's lock. Sourced, not run.
# Needs: repo (the repository) and build (its build/ folder).

# KERNEL (6.1 or 6.12, from make) is the series' kernel: its tree is under
# BUILD/src. patches/KERNEL/ holds what differs for it: its own series file,
# and the patches that would not apply to it as they are for 6.1.
kernel=${KERNEL:-6.1}
src_root=$build/src
state=$build/state
series_links=$state/patches     # the tree's patches/: links into patches/
mirror=$state/overlay           # what prepare-tree last copied into the tree
applied_stamp=$state/series.sha # hash of the series that is applied
applied_copy=$state/applied     # the patches as pushed: popped with these

# The folders whose files are new files at the same path in the kernel tree:
# of scripts/, only the semantic patches (the rest drives this repository).
overlay_dirs=(arch include mm Documentation tools samples scripts/coccinelle/api)

find_tree() {
	tree=
	local d
	for d in "$src_root"/linux-6.*; do
		[[ -f $d/Makefile ]] && tree=$d && return 0
	done
	return 1
}

# Tracked and new files, not what .gitignore ignores (a module built in
# place with make modules M=samples/... leaves its objects beside it).
overlay_files() {
	(cd "$repo" && if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git ls-files -co --exclude-standard -- "${overlay_dirs[@]}"
	else
		for d in "${overlay_dirs[@]}"; do
			[[ -d $d ]] && find "$d" -type f ! -name '*~' ! -name '.*'
		done
	fi) | while read -r f; do [[ -f $repo/$f ]] && echo "$f"; done | LC_ALL=C sort
}

# Mark FILE... in the tree as changed by WHO (mutation-check, trace-cost),
# or refuse while another run has them: make refresh then refuses and make
# tree puts them back (scripts/refresh-tree.sh, scripts/prepare-tree.sh).
mark_changing() {	# mark_changing WHO FILE...
	local who=$1
	shift
	if [[ -f $state/mutating ]]; then
		echo "$who: $(cat "$state/mutating") in the tree is being changed by make mutation-check or make trace-cost: wait for it to end" >&2
		exit 1
	fi
	echo "$*" >"$state/mutating"
}

# The series file and each patch for this kernel: patches/KERNEL/'s where
# there is one, else the shared one in patches/.
patch_path() {	# patch_path NAME
	if [[ -f $repo/patches/$kernel/$1 ]]; then
		echo "$repo/patches/$kernel/$1"
	else
		echo "$repo/patches/$1"
	fi
}
series_names() {
	grep -v '^#' "$(patch_path series)" 2>/dev/null | sed '/^$/d'
}

# The tree's patches/ links to BUILD/state/patches: a link per patch (quilt
# refresh writes through a link, into the repository's file).
link_series() {
	local p
	rm -rf "$series_links"
	mkdir -p "$series_links"
	ln -s "$(patch_path series)" "$series_links/series"
	# A patch that only adds new files (and staged changes) has a header
	# and no diff, which patch(1) refuses: quilt gets an empty file of its
	# own, which it applies as an empty patch (adopt_no_diff keeps what a
	# refresh writes there).
	rm -rf "$state/no-diff"
	while read -r p; do
		mkdir -p "$(dirname "$series_links/$p")"
		if grep -q '^--- ' "$(patch_path "$p")" 2>/dev/null; then
			ln -s "$(patch_path "$p")" "$series_links/$p"
		else
			mkdir -p "$(dirname "$state/no-diff/$p")"
			: >"$state/no-diff/$p"
			ln -s "$state/no-diff/$p" "$series_links/$p"
		fi
	done < <(series_names)
	ln -sfn "$series_links" "$tree/patches"
}

# A later kernel's series names every patch of 6.1's, which it shares or
# has its own copy of, in 6.1's order: a patch left out would silently drop
# a change, and the staged diffs (shared) follow 6.1's order.
check_series_complete() {
	local p ours theirs
	[[ $kernel == 6.1 ]] && return 0
	theirs=$(grep -v '^#' "$repo/patches/series" | sed '/^$/d')
	while read -r p; do
		grep -qxF "$p" < <(series_names) || {
			echo "the $kernel series (patches/$kernel/series) leaves out $p, which 6.1's has: add it in its place" >&2
			return 1
		}
	done <<<"$theirs"
	ours=$(series_names | grep -xF "$theirs")
	[[ $ours == "$theirs" ]] || {
		echo "the $kernel series (patches/$kernel/series) has 6.1's patches in another order: keep 6.1's order, and put a patch of its own between them" >&2
		return 1
	}
}

# After quilt refresh: a diff written into a header-only patch's empty
# file goes after that patch's header in the repository, and the link
# then points there.
adopt_no_diff() {
	local f p
	[[ -d $state/no-diff ]] || return 0
	while read -r f; do
		p=${f#"$state/no-diff/"}
		[[ -s $f ]] || continue
		cat "$f" >>"$(patch_path "$p")"
		rm -f "$f"
		ln -sfn "$(patch_path "$p")" "$series_links/$p"
		echo "quilt: $p had no diff; its new diff now follows its header in $(patch_path "$p")" >&2
	done < <(find "$state/no-diff" -type f)
}

series_hash() {
	local p
	{
		echo "$kernel"
		cat "$(patch_path series)" 2>/dev/null || true
		while read -r p; do cat "$(patch_path "$p")" 2>/dev/null || true; done < <(series_names)
	} | sha256sum | cut -d' ' -f1
}

q() {
	(cd "$tree" && QUILT_PATCHES=patches QUILT_PC=.pc \
		QUILT_REFRESH_ARGS='-p ab --no-timestamps --no-index' QUILT_DIFF_OPTS=-p \
		quilt --quiltrc=- "$@")
}

# After quilt changed what is applied (push, refresh, ...), the applied
# patches are the repository's: remember them as pushed.
sync_applied_copy() {
	local p
	mkdir -p "$applied_copy"
	while read -r p; do
		[[ -f $(patch_path "$p") ]] || continue
		mkdir -p "$(dirname "$applied_copy/$p")"
		cp "$(patch_path "$p")" "$applied_copy/$p"
	done < <(q applied 2>/dev/null)
	return 0
}

# One user of build/export/linux at a time: make patches resets it, make
# checkpatch and make bisect-check check its commits out. Held to exit.
lock_export() {
	mkdir -p "$build"
	exec 9>"$build/.export.lock"
	flock -n 9 && return 0
	echo "  WAIT    ${build}/export/linux is in use by another make patches, checkpatch or bisect-check of this checkout" >&2
	flock 9
}
