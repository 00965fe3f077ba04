#!/usr/bin/env bash
# Make OUT/.config: tinyconfig (or a whole configuration, --base), then
# the fragments merged in order, then olddefconfig; fail naming every
# option a fragment asks for that Kconfig dropped (an unmet dependency or a
# misspelt name).
# Usage: scripts/config-kernel.sh [--allow-missing] [--base CONFIG] TREE OUT FRAGMENT...
# --allow-missing: options the tree does not have yet are left out, not an
# error (make bisect-check, on the series' earlier patches).
# --base CONFIG: start from CONFIG (Debian's 686-pae one) instead; what it
# builds in stays built in, and its modules are turned off: the fragments
# name the modules the tests need (thousands of modules take hours).
set -euo pipefail
allow_missing=0 base=
while [[ $1 == --* ]]; do
	case $1 in
	--allow-missing) allow_missing=1; shift ;;
	--base) base=$2; shift 2 ;;
	*) echo "config-kernel: unknown option $1" >&2; exit 2 ;;
	esac
done
tree=$1
out=$2
shift 2
kmake() { make -s -C "$tree" O="$out" ARCH=i386 "$@"; }

mkdir -p "$out"
from=tinyconfig
[[ -n $base ]] && from="${base##*/} (its modules off)"
# Fragments by their path under configs/ (6.1/debug.config beside debug.config).
names=$(printf '%s ' "${@#*/configs/}")
echo "  CONFIG  $(basename "$out"): $from + $names"
# An unchanged result keeps its old time, so nothing rebuilds for it.
[[ -f $out/.config ]] && cp -p "$out/.config" "$out/.config.prev"
if [[ -n $base ]]; then
	[[ -f $base ]] || { echo "config-kernel: no base configuration $base" >&2; exit 1; }
	sed 's/^\(CONFIG_[A-Za-z0-9_]*\)=m$/# \1 is not set/' "$base" >"$out/.config"
else
	kmake tinyconfig >/dev/null
fi
"$tree/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$@" >/dev/null
kmake olddefconfig 2>&1 | { grep -v "changes choice state" || true; } >&2
if [[ -n $base ]]; then
	# What the base builds in and this kernel does not: options of the
	# modules turned off or selected by them, and what the fragments turn
	# off. Listed, so that nothing falls unseen (docs/debian.md sums it up).
	comm -23 <(grep '=y$' "$base" | sort) <(grep '=y$' "$out/.config" | sort) >"$out/base-dropped.txt"
	echo "  CONFIG  $(wc -l <"$out/base-dropped.txt") built-in options of ${base##*/} are not in $(basename "$out"): $(basename "$out")/base-dropped.txt"
fi
if [[ -f $out/.config.prev ]]; then
	cmp -s "$out/.config" "$out/.config.prev" && touch -r "$out/.config.prev" "$out/.config"
	rm -f "$out/.config.prev"
fi

# What the fragments ask for, the last one that names an option winning
# (a highmem fragment turns off what the debug one turned on).
declare -A want=()
order=()
while read -r line; do
	if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
		[[ -v want[${BASH_REMATCH[1]}] ]] || order+=("${BASH_REMATCH[1]}")
		want[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
	elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
		[[ -v want[${BASH_REMATCH[1]}] ]] || order+=("${BASH_REMATCH[1]}")
		want[${BASH_REMATCH[1]}]=n
	fi
done < <(cat "$@")
dropped=()
for opt in "${order[@]}"; do
	val=${want[$opt]}
	if [[ $val == n ]]; then
		grep -q "^$opt=" "$out/.config" &&
			dropped+=("$opt should be off (got: $(grep "^$opt=" "$out/.config"))")
	else
		grep -qxF "$opt=$val" "$out/.config" ||
			dropped+=("$opt=$val (got: $(grep -E "^(# )?$opt[= ]" "$out/.config" || echo absent))")
	fi
done
if ((${#dropped[@]} && !allow_missing)); then
	echo "config: Kconfig did not take these options from $names:" >&2
	printf '  %s\n' "${dropped[@]}" >&2
	echo "config: check their dependencies (make -C $tree O=$out ARCH=i386 menuconfig, then search)" >&2
	rm -f "$out/.config"
	exit 1
fi
