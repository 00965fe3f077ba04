#!/usr/bin/env bash
# Fill in the cover letter git format-patch wrote: the subject and text of
# patches/cover-letter, whose line @BENCH@ becomes the benchmark tables of
# docs/benchmark.md, the tables under its title "# Benchmark" (measured by
# make bench; docs/benchmark.md says how).
# Usage: scripts/cover-letter.sh REPO COVER
set -euo pipefail
repo=$1
cover=$2
src=$repo/patches/cover-letter

[[ -f $src ]] || { echo "patches: $src is missing" >&2; exit 1; }
subject=$(head -1 "$src")
bench=$(awk '/^# Benchmark/ { on = 1; next } /^# / { on = 0 }
	on && (/^\|/ || /^    ratio /) { sub(/^    /, ""); print }
	on && /^$/ && last ~ /^\|/ { print "" } { last = $0 }' "$repo/docs/benchmark.md")
[[ -n $bench ]] || { echo "patches: no benchmark table in docs/benchmark.md under its title \"# Benchmark\"" >&2; exit 1; }
tail -n +3 "$src" | awk -v bench="$bench" '$0 == "@BENCH@" { print bench; next } { print }' >"$cover.blurb"
awk -v subject="$subject" -v blurbfile="$cover.blurb" '
	/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subject) }
	/^\*\*\* BLURB HERE \*\*\*$/ { while ((getline l < blurbfile) > 0) print l; next }
	{ print }' "$cover" >"$cover.new"
mv "$cover.new" "$cover"
rm -f "$cover.blurb"
