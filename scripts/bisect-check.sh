#!/usr/bin/env bash
# make bisect-check: build the debug flavor (bzImage and modules) after each
# patch of the exported series in turn (make patches makes it), in one O=
# directory so that each step rebuilds only what the patch changed.
# Options that a patch has not brought yet are left out of that step's
# config; everything else is the debug flavor's.
# Usage: scripts/bisect-check.sh REPO BUILD JOBS
set -euo pipefail
repo=$1
build=$2
jobs=$3
ex=$build/export/linux
out=$build/bisect
log=$build/logs/bisect-check.log

die() { echo "bisect-check: $*" >&2; exit 1; }
. "$repo/scripts/tree-common.sh"
lock_export
[[ -d $ex ]] && git -C "$ex" rev-parse -q --verify series >/dev/null ||
	die "no exported series in $ex: run 'make patches' first"
pristine=$(git -C "$ex" rev-list --max-parents=0 series)
mapfile -t commits < <(git -C "$ex" rev-list --reverse "$pristine..series")
((${#commits[@]})) || die "the exported series is empty"
mkdir -p "$out" "$build/logs"
: >"$log"

i=0
for c in "${commits[@]}"; do
	i=$((i + 1))
	subject=$(git -C "$ex" log -1 --format=%s "$c")
	git -C "$ex" checkout -q -f "$c"
	printf '  BISECT  %2d/%d %s\n' "$i" "${#commits[@]}" "$subject"
	start=$SECONDS
	if ! {
		"$repo/scripts/config-kernel.sh" --allow-missing "$ex" "$out" \
			"$repo/configs/base.config" "$repo/configs/debug.config" \
			$(ls "$repo/configs/${KERNEL:-6.1}/debug.config" 2>/dev/null) &&
		make -s -C "$ex" O="$out" ARCH=i386 -j"$jobs" bzImage modules
	} >"$out/step.log" 2>&1; then
		cat "$out/step.log" >>"$log"
		git -C "$ex" checkout -q -f series
		echo "bisect-check: the debug flavor does not build after patch $i, '$subject':" >&2
		grep -E 'error|Error' "$log" | head -20 | sed 's/^/  /' >&2
		die "fix that patch so it builds on its own (the whole log: ${log#"$repo"/})"
	fi
	cat "$out/step.log" >>"$log"
	# The series' own files build without a warning at every step (before
	# the debug patch, whose option does not exist yet, that is the
	# release code).
	warn=$(grep -E '^[^ :]*(kmap|highmem-typed)[^ :]*:[0-9]+(:[0-9]+)?: warning:' "$out/step.log" | sort -u || true)
	if [[ -n $warn ]]; then
		git -C "$ex" checkout -q -f series
		echo "bisect-check: the series' files warn after patch $i, '$subject':" >&2
		head -20 <<<"$warn" | sed 's/^/  /' >&2
		die "fix that patch so it builds cleanly on its own (the whole log: ${log#"$repo"/})"
	fi
	# Say which of the series' options this step built with.
	opts=$(grep -hoE '^CONFIG_[A-Z0-9_]*(KMAP_ATOMIC|BIO_KMAP)[A-Z0-9_]*=[ym]' "$out/.config" | sed 's/^CONFIG_//' | tr '\n' ' ' || true)
	echo "          built in $((SECONDS - start)) s${opts:+; $opts}"
done
git -C "$ex" checkout -q -f series
echo "bisect-check: all ${#commits[@]} patches build"
