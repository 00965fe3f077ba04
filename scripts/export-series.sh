#!/usr/bin/env bash
# make patches: the series as git commits on the pristine kernel, one per
# quilt patch in patches/series with the new files patches/new-files gives
# it, then git format-patch with a cover letter into OUT.
# The commits are kept on branch 'series' of BUILD/export/linux, which
# make checkpatch and make bisect-check use.
# Usage: scripts/export-series.sh REPO BUILD OUT
set -euo pipefail
repo=$1
build=$2
out=$3
. "$repo/scripts/tree-common.sh"

die() { echo "patches: $*" >&2; exit 1; }

find_tree || die "no kernel tree under $src_root: run 'make tree' first"
# Before anything under build/export is touched (staged/ below included).
lock_export
map=$(patch_path new-files)
[[ -f $map ]] || die "$map is missing: it says which new files each patch adds"
series=$(series_names)
check_series_complete || exit 1

# patches/new-files: "<patch> <file or glob>..." or "- <glob>..." for overlay
# files that are not part of the kernel series. Each overlay file must match
# exactly one line.
declare -A owner=()
declare -A files_of=()
mapfile -t overlay < <(overlay_files)
set -f # the globs are matched below, not against this directory
while read -r patch globs; do
	[[ -z $patch || $patch == \#* ]] && continue
	if [[ $patch != - ]] && ! grep -qxF "$patch" <<<"$series"; then
		die "patches/new-files names $patch, which is not in patches/series"
	fi
	for g in $globs; do
		hit=0
		for f in "${overlay[@]}"; do
			# shellcheck disable=SC2053 # $g is a glob on purpose
			[[ $f == $g ]] || continue
			hit=1
			[[ -n ${owner[$f]:-} && ${owner[$f]} != "$patch" ]] &&
				die "$f is given to both ${owner[$f]} and $patch in patches/new-files"
			owner[$f]=$patch
			files_of[$patch]+="$f "
		done
		((hit)) || die "patches/new-files: '$g' ($patch) matches no overlay file"
	done
done <"$map"
set +f
for f in "${overlay[@]}"; do
	[[ -n ${owner[$f]:-} ]] ||
		die "$f is in no patch: add it to a line of patches/new-files (or to the '-' line if it is not kernel code)"
done

# A new file may change after the patch that adds it: patches/staged/P
# (patches/KERNEL/staged/P where the kernels differ) is patch P's diff to
# overlay files that patches before P added, -p1 as quilt writes them.
# The overlay holds each file's last version, which make tree builds; the
# versions before are made here, from the last patch back, by reversing
# each staged diff. staged/K/ keeps what the files are after patch K.
mapfile -t names <<<"$series"
declare -A index_of=() staged_by=()
for ((k = 0; k < ${#names[@]}; k++)); do index_of[${names[k]}]=$k; done
stage=$build/export/staged
rm -rf "$stage"
mkdir -p "$stage/work"
# A staged diff of no patch in the series (a patch renamed) would leave
# its change in the first version of the file: refuse it.
for d in "$repo"/patches/staged/* "$repo/patches/$kernel"/staged/*; do
	[[ -f $d ]] || continue
	[[ -n ${index_of[$(basename "$d")]:-} ]] ||
		die "${d#"$repo"/} is the staged diff of $(basename "$d"), which the $kernel series does not name: rename it with its patch, or remove it"
done
for ((k = ${#names[@]} - 1; k >= 0; k--)); do
	patch=${names[k]}
	d=$(patch_path "staged/$patch")
	[[ -f $d ]] || continue
	files=$(sed -n 's|^+++ b/\([^\t]*\).*|\1|p' "$d")
	[[ -n $files ]] || die "${d#"$repo"/} changes no file: it should be a diff of overlay files, -p1"
	for f in $files; do
		o=${owner[$f]:-}
		[[ -n $o && $o != - ]] ||
			die "${d#"$repo"/} changes $f, which is no new file of the series: a change to an upstream file goes into the quilt patch itself"
		[[ $o != "$patch" ]] ||
			die "${d#"$repo"/} changes $f, which $patch itself adds: make the change in $f (the overlay holds its last version)"
		((index_of[$o] < k)) ||
			die "${d#"$repo"/} changes $f, which $o adds, and $o does not come before $patch"
		[[ -f $stage/work/$f ]] || { mkdir -p "$(dirname "$stage/work/$f")"; cp "$repo/$f" "$stage/work/$f"; }
		mkdir -p "$(dirname "$stage/$k/$f")"
		cp "$stage/work/$f" "$stage/$k/$f"
	done
	staged_by[$patch]=$files
	# Exactly: no fuzz, and no offset either (context met elsewhere in the
	# file would put the change in the wrong place).
	if ! (cd "$stage/work" && patch -R -f -p1 --fuzz=0 --no-backup-if-mismatch <"$d") >"$stage/err" 2>&1 ||
		grep -q -i 'offset\|fuzz' "$stage/err"; then
		bad=$(awk '/^patching file /{f=$3} /FAILED|offset|fuzz/{print f; exit}' "$stage/err")
		die "${d#"$repo"/} does not come out of the overlay's ${bad:-${files//$'\n'/ }} exactly ($(grep -m1 -i 'fail\|offset\|fuzz' "$stage/err")): make it again from the file before $patch and the file after it (scripts/staged.sh; docs/series.md, 'Files that change across patches')"
	fi
done

# A work tree of the tree's own git whose index is set to the pristine
# commit: the commits are made in the index (git apply --cached), and only
# the files a patch needs are written. Made with no files checked out, so
# that make patches (and make test, which runs it) takes megabytes, not a
# second copy of the kernel's sources; make checkpatch and make
# bisect-check check out the rest (git checkout -f), and a work tree they
# filled is kept, so that they rewrite only what changed.
ex=$build/export/linux
pristine=$(git -C "$tree" rev-list --max-parents=0 HEAD)
common=$(git -C "$ex" rev-parse --path-format=absolute --git-common-dir 2>/dev/null || true)
if [[ -e $ex && $(realpath -m "${common:-/}") != $(realpath "$tree/.git") ]]; then
	git -C "$tree" worktree remove -f -f "$ex" 2>/dev/null || rm -rf "$ex"
fi
git -C "$tree" worktree prune
if [[ ! -e $ex ]]; then
	mkdir -p "$build/export"
	git -C "$tree" worktree add -q --no-checkout --detach "$ex" "$pristine"
fi
# The cover letter is the committer's: the team that sends the series.
# No gc in the background: it would keep the export's lock (fd 9) held.
g() { git -C "$ex" -c gc.autoDetach=false -c user.name="Atomic kmap team" -c user.email=kmap-atomic@localhost "$@"; }
g update-ref refs/heads/series "$pristine"
g symbolic-ref HEAD refs/heads/series
g reset -q --mixed
g clean -q -fdx

# A fixed date, so that the same series exports to the same files.
export GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"
n=0
while read -r patch; do
	p=$(patch_path "$patch")
	[[ -f $p ]] || die "the $kernel series names $patch, which is in neither patches/$kernel/ nor patches/"
	from=$(sed -n 's/^From: //p;/^---$/q' "$p" | head -1)
	subject=$(sed -n 's/^Subject: \(\[PATCH[^]]*\] \)\?//p;/^---$/q' "$p" | head -1)
	[[ -n $from && -n $subject ]] || die "$patch has no From: or Subject: line in its header"
	# The message: the header after Subject: up to the --- line.
	sed -n '/^Subject: /,/^---$/p' "$p" | sed '1d;$d' | sed '1{/^$/d}' >"$build/export/msg"
	grep -q '^Signed-off-by: ' "$build/export/msg" || die "$patch has no Signed-off-by: line"
	# A patch shared with 6.1 may need patch's fuzz on a later kernel, as
	# quilt gives it in make tree; the commit is then what it changed, and
	# the exported patch applies exactly. Whitespace errors fail anywhere,
	# and on 6.1 every patch applies exactly.
	if grep -q '^--- a/' "$p" && ! g apply --cached --whitespace=error-all "$p" 2>"$build/export/apply.err"; then
		if [[ $kernel == 6.1 ]] || g apply --cached --check --whitespace=nowarn "$p" 2>/dev/null; then
			die "$patch does not apply to the pristine $kernel tree after the patches before it: $(head -3 "$build/export/apply.err")"
		fi
		# patch(1) needs the files: write those it changes that exist,
		# then stage what it did to each (made, changed or removed).
		list=$(g apply --numstat "$p" | cut -f3) || die "git apply cannot read $patch"
		mapfile -t changed <<<"$list"
		[[ -n $list ]] || die "$patch changes no file: is it a -p1 diff?"
		list=$(g --literal-pathspecs ls-files -- "${changed[@]}")
		present=()
		[[ -z $list ]] || mapfile -t present <<<"$list"
		((${#present[@]} == 0)) || g checkout-index -f -- "${present[@]}"
		(cd "$ex" && patch -p1 --fuzz=2 --no-backup-if-mismatch <"$p") >"$build/export/fuzz.log" 2>&1 ||
			die "$patch does not apply to the pristine $kernel tree after the patches before it: $(head -3 "$build/export/fuzz.log")"
		grep -i 'fuzz' "$build/export/fuzz.log" | sed "s|^|          $patch: |" || true
		g --literal-pathspecs add -A -- "${changed[@]}"
	fi
	for f in ${files_of[$patch]:-}; do
		mkdir -p "$(dirname "$ex/$f")"
		if [[ -f $stage/work/$f ]]; then cp "$stage/work/$f" "$ex/$f"; else cp "$repo/$f" "$ex/$f"; fi
		g add -f "$f"
	done
	for f in ${staged_by[$patch]:-}; do
		cp "$stage/$n/$f" "$ex/$f"
		g add -f "$f"
	done
	{ echo "$subject"; echo; cat "$build/export/msg"; } >"$build/export/msg.full"
	g commit -q --author="$from" -F "$build/export/msg.full"
	n=$((n + 1))
done <<<"$series"

# The export must be what make tree builds: every file the series changes
# is the same as in the patched tree.
list=$(g diff --name-only "$pristine" HEAD)
while read -r f; do
	[[ -n $f ]] || continue
	g cat-file blob "HEAD:$f" | cmp -s - "$tree/$f" || die "$f differs between the export and $tree: run 'make tree' and retry"
done <<<"$list"

# format-patch names a hunk's function by the kernel's .gitattributes
# (diff=cpp), which it reads from the work tree.
list=$(g ls-files -- .gitattributes '*/.gitattributes')
mapfile -t attrs <<<"$list"
[[ -n $list ]] || die "the $kernel tree has no .gitattributes: hunk headers would name no function"
g checkout-index -f -- "${attrs[@]}"
rm -rf "$out"
mkdir -p "$out"
g format-patch -q --cover-letter --no-signature -o "$out" "$pristine..HEAD"
"$repo/scripts/cover-letter.sh" "$repo" "$out/0000-cover-letter.patch"
rm -f "$build/export/msg" "$build/export/msg.full" "$build/export/apply.err"
rm -rf "$stage"
echo "  PATCHES $n patches and a cover letter -> ${out#"$repo"/}"
ls "$out" | sed 's/^/          /'
