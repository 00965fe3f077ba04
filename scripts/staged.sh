#!/usr/bin/env bash
# Files that change across patches (docs/series.md): each new file as it is
# after each patch that adds or changes it, to edit by hand, and back into
# patches/staged/.
#   scripts/staged.sh extract DIR  DIR/<patch>/<file>, from the exported
#                                  series (make patches makes it)
#   scripts/staged.sh write DIR    patches/staged/<patch>: the diff of each
#                                  file from its version at the patch before
# In DIR, a file's first version is at the patch that adds it
# (patches/new-files) and its last is the overlay's, which make tree builds.
# KERNEL=6.12 works on 6.12's series (writing patches/6.12/staged/ only for
# a patch whose diff is there already).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=$repo/build
[[ ${KERNEL:-6.1} == 6.1 ]] || build=$repo/build/$KERNEL
. "$repo/scripts/tree-common.sh"

die() { echo "staged: $*" >&2; exit 1; }
[[ $# == 2 && ($1 == extract || $1 == write) ]] || die "usage: scripts/staged.sh extract|write DIR"
dir=$2
mapfile -t names < <(series_names)

if [[ $1 == extract ]]; then
	[[ ! -e $dir || -z $(ls -A "$dir") ]] || die "$dir is not empty: extract into a new folder, so that no old version is taken for a new one"
	ex=$build/export/linux
	lock_export
	git -C "$ex" rev-parse -q --verify series >/dev/null 2>&1 || die "no exported series: run 'make patches' first"
	pristine=$(git -C "$ex" rev-list --max-parents=0 series)
	mapfile -t commits < <(git -C "$ex" rev-list --reverse "$pristine..series")
	((${#commits[@]} == ${#names[@]})) || die "the export has ${#commits[@]} commits and the series ${#names[@]} patches: run 'make patches' again"
	mapfile -t overlay < <(overlay_files)
	for ((k = 0; k < ${#names[@]}; k++)); do
		while read -r f; do
			printf '%s\n' "${overlay[@]}" | grep -qxF "$f" || continue
			mkdir -p "$(dirname "$dir/${names[k]}/$f")"
			git -C "$ex" show "${commits[k]}:$f" >"$dir/${names[k]}/$f"
		done < <(git -C "$ex" diff-tree --no-commit-id --name-only -r "${commits[k]}")
	done
	echo "staged: each new file after each patch that adds or changes it -> $dir"
	exit 0
fi

# write: the diffs between a file's consecutive versions. A patch that has
# a staged diff and no folder in DIR would lose its change to the next.
[[ -d $dir ]] || die "no folder $dir: make it with scripts/staged.sh extract $dir"
for ((k = 0; k < ${#names[@]}; k++)); do
	p=${names[k]}
	[[ -f $(patch_path "staged/$p") && ! -d $dir/$p ]] &&
		die "$dir has no folder for $p, which has a staged diff: extract again, or remove patches/staged/$p first if the change is to go"
done
declare -A last=() out=()
for ((k = 0; k < ${#names[@]}; k++)); do
	p=${names[k]}
	[[ -d $dir/$p ]] || continue
	while read -r f; do
		if [[ -n ${last[$f]:-} ]]; then
			out[$p]+=$(diff -u --label "a/$f" --label "b/$f" "${last[$f]}" "$dir/$p/$f" || true)$'\n'
		fi
		last[$f]=$dir/$p/$f
	done < <(cd "$dir/$p" && find . -type f | sed 's|^\./||' | LC_ALL=C sort)
done
for f in "${!last[@]}"; do
	cmp -s "${last[$f]}" "$repo/$f" || die "$f's last version in $dir differs from the overlay's: the overlay is what make tree builds, so make them the same"
done
for ((k = 0; k < ${#names[@]}; k++)); do
	p=${names[k]}
	d=$repo/patches/staged/$p
	[[ $kernel != 6.1 && -f $repo/patches/$kernel/staged/$p ]] && d=$repo/patches/$kernel/staged/$p
	body=${out[$p]:-}
	body=${body%$'\n'}
	if [[ -z ${body//$'\n'/} ]]; then
		[[ -f $d ]] && rm "$d" && echo "  REMOVE  ${d#"$repo"/}"
		continue
	fi
	mkdir -p "$(dirname "$d")"
	printf '%s\n' "$body" >"$d.new"
	if cmp -s "$d.new" "$d"; then rm "$d.new"; else mv "$d.new" "$d"; echo "  STAGED  ${d#"$repo"/}"; fi
done
