#!/usr/bin/env bash
# Print the kernel tree under BUILD/src (make tree creates it).
# Usage: scripts/tree-path.sh BUILD
for d in "$1"/src/linux-6.*; do
	[[ -f $d/Makefile ]] && { echo "$d"; exit 0; }
done
echo "no kernel tree under $1/src: run 'make tree'" >&2
echo /nonexistent-kernel-tree
exit 1
