#!/usr/bin/env bash
# make bench's picture, for docs/benchmark.md: the release kernel's cost of one
# map + write + unmap pair under QEMU's instruction counting (the "icount"
# rows of results.tsv: executed instructions) for each kind of kmap,
# against the pages the pairs cycle through (2, 512, 4096, log scale), with
# the two floors (a bare pte write and flush, no API) as dashed lines.
# An SVG on white, 800x500, drawn by gnuplot (Debian's gnuplot-nox).
# Usage: scripts/bench-plot.sh IN.tsv OUT.svg [CAPTION]
# CAPTION goes under the title (make bench: which base configuration).
set -euo pipefail
(($# == 2 || $# == 3)) || { echo "usage: scripts/bench-plot.sh IN.tsv OUT.svg [CAPTION]" >&2; exit 2; }
in=$1 out=$2 caption=${3:-}
# The kinds in the legend's order, then the floors, drawn dashed.
kinds=(typed_KM_USER0 typed_KM_SOFTIRQ0 typed_KM_IRQ0 kmap_atomic_untyped kmap_local_page kmap
	typed_KM_USER0_lowmem)
floors=(raw_floor raw_floor_clear)
declare -A floor_title=(
	[raw_floor]="raw_floor: pte write, INVLPG"
	[raw_floor_clear]="raw_floor_clear: + pte clear"
)
pages=(2 512 4096)

[[ -f $in && -r $in ]] || { echo "bench-plot: cannot read $in: run make bench to write it" >&2; exit 1; }

# gnuplot's data, one block per name (index 0, 1, ...): pages and
# instructions per pair, from the release icount rows; a row missing at
# any page count is a "missing:" line instead.
data=$(awk -F'\t' -v names="${kinds[*]} ${floors[*]}" -v pages="${pages[*]}" '
	$4 == "icount" && $5 ~ /^[0-9]+(\.[0-9]+)?$/ { v[$1, $2] = $5 }
	END {
		nn = split(names, name, " ")
		np = split(pages, page, " ")
		for (i = 1; i <= nn; i++) {
			gap = ""
			for (j = 1; j <= np; j++)
				if (!((name[i], page[j]) in v))
					gap = gap (gap == "" ? "" : ", ") page[j]
			if (gap != "") {
				printf "missing: %s at %s pages\n", name[i], gap
				continue
			}
			printf "# %s\n", name[i]
			for (j = 1; j <= np; j++)
				print page[j], v[name[i], page[j]]
			printf "\n\n"
		}
	}
' "$in")
if grep -q '^missing:' <<<"$data"; then
	{
		echo "bench-plot: $in lacks rows the plot needs (release kernel, mode icount, instructions per pair):"
		sed -n 's/^missing: /  /p' <<<"$data"
		echo "run make bench (make bench BASE=debian for build/bench-debian) to write them"
	} >&2
	exit 1
fi
command -v gnuplot >/dev/null 2>&1 ||
	{ echo "bench-plot: gnuplot is missing: apt-get install gnuplot-nox (make bench installs it)" >&2; exit 1; }

# One plot clause per name: solid lines with points for the kinds, dashed
# lines for the floors (line styles 1-7 and 8-9 below).
clauses=() i=0
for name in "${kinds[@]}" "${floors[@]}"; do
	with=linespoints title=$name
	[[ -v floor_title[$name] ]] && with=lines title=${floor_title[$name]}
	clauses+=("\$data index $i using 1:2 with $with ls $((i + 1)) title \"$title\"")
	i=$((i + 1))
done
plot=$(printf '%s, \\\n\t' "${clauses[@]}")
plot=${plot%, \\*}

title="Cost of one kmap pair (map + write one word + unmap), release kernel"
title+="\\nexecuted instructions per pair, QEMU -icount shift=0, one CPU${caption:+, $caption}"
mkdir -p "$(dirname "$out")"
# gnuplot writes a file beside OUT, renamed only once it is complete.
gnuplot <<EOF || { rm -f "$out.tmp"; echo "bench-plot: gnuplot failed on $in" >&2; exit 1; }
set terminal svg size 800,500 font "Helvetica,12" background rgb "white" noenhanced
set output "$out.tmp"
\$data << EOD
$data
EOD
set title "$title"
set xlabel "pages the pairs cycle through (log scale)"
set ylabel "instructions per map + unmap pair"
set logscale x 2
set xrange [1.4:5800]
set xtics ("2" 2, "512" 512, "4096" 4096)
set yrange [0:*]
set grid ytics lc rgb "#dddddd"
set border 3
set tics nomirror
set key outside right top vertical Left reverse samplen 2 spacing 1.2 width -3
set style line 1 lc rgb "#0072b2" lw 2.5 pt 6 ps 1.5
set style line 2 lc rgb "#56b4e9" lw 2 pt 4 ps 1.0
set style line 3 lc rgb "#009e73" lw 1.5 pt 9 ps 0.7
set style line 4 lc rgb "#e69f00" lw 2 pt 11 ps 0.9
set style line 5 lc rgb "#d55e00" lw 2 pt 13 ps 0.9
set style line 6 lc rgb "#cc79a7" lw 2 pt 15 ps 0.9
set style line 7 lc rgb "#8c564b" lw 2 pt 4 ps 0.9
set style line 8 lc rgb "#000000" lw 2 dt 2
set style line 9 lc rgb "#666666" lw 2 dt 4
plot $plot
EOF
mv "$out.tmp" "$out"
echo "  PLOT    ${out#"$PWD"/}"
