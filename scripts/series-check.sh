#!/usr/bin/env bash
# make test's check of the series itself: make patches must export it
# (each patch applies to the pristine tree, each new file comes at its
# patch, every staged change comes out of the overlay exactly, and the
# result is the tree make test builds). A KTAP result for the count.
# Usage: scripts/series-check.sh REPO BUILD KTAP
set -uo pipefail
repo=$1 build=$2 ktap=$3
log=${ktap%.ktap}.log
n=$(grep -cv '^#\|^$' "$(. "$repo/scripts/tree-common.sh"; patch_path series)")
# The export waits for another user of build/export/linux: say so here,
# as its own message goes to the log.
(exec 9>"$build/.export.lock" && flock -n 9) 2>/dev/null ||
	echo "  SERIES  waiting for the make checkpatch or bisect-check that uses ${build#"$repo"/}/export/linux" >&2
if "$repo/scripts/export-series.sh" "$repo" "$build" "$build/patches" >"$log" 2>&1; then
	result="ok 1 the ${KERNEL:-6.1} series exports: $n patches (make patches)"
	echo "  SERIES  ${KERNEL:-6.1}: $n patches export"
else
	result="not ok 1 the ${KERNEL:-6.1} series does not export (make patches: ${log#"$repo"/})"
	sed 's/^/  /' "$log" | tail -5 >&2
fi
printf 'KTAP version 1\n1..1\n%s\n' "$result" >"$ktap"
