#!/usr/bin/env bash
# make checkpatch: review the exported series (make patches makes it) with
# the patched tree's own tools:
#  - scripts/checkpatch.pl --strict on each patch: 0 errors, and no warning
#    or check but those scripts/checkpatch-kept.txt keeps, with their reasons;
#  - scripts/kernel-doc -v on the series' new C files: no warnings;
#  - Documentation/mm/kmap-atomic.rst built by Sphinx with its kernel-doc
#    directives, warnings as errors, and listed in Documentation/mm/index.rst;
#  - scripts/get_maintainer.pl on the series names its MAINTAINERS entry.
# Usage: scripts/checkpatch.sh REPO BUILD PATCHDIR
set -euo pipefail
repo=$1
build=$2
pdir=$3
ex=$build/export/linux
fail=0

die() { echo "checkpatch: $*" >&2; exit 1; }
. "$repo/scripts/tree-common.sh"
lock_export
[[ -d $ex ]] && git -C "$ex" rev-parse -q --verify series >/dev/null ||
	die "no exported series in $ex: run 'make patches' first"
git -C "$ex" checkout -q -f series
mapfile -t patches < <(ls "$pdir"/[0-9][0-9][0-9][0-9]-*.patch 2>/dev/null | grep -v /0000-cover-letter)
((${#patches[@]})) || die "no patches in $pdir: run 'make patches' first"

# The series teaches checkpatch the typed form: check that it flags the
# one-argument kmap_atomic(page) still, and only that.
echo "  CHECK   checkpatch.pl knows kmap_atomic(page, type)"
probe=$build/export/probe
mkdir -p "$probe"
cat >"$probe/probe.patch" <<'PROBE'
--- a/drivers/misc/probe.c
+++ b/drivers/misc/probe.c
@@ -1,1 +1,8 @@
 int probe;
+void *a(struct page *p) { return kmap_atomic(p, KM_USER0); }
+void *b(struct page *p) { return kmap_atomic(p); }
+void *c(struct page *p, bool t) { return t ? kmap_atomic(p, KM_IRQ0) : kmap_atomic(p); }
+void *d(struct page *p) { return kmap_atomic(nth_page(p, 1), KM_USER1); }
+void *e(struct page *p) { return kmap_atomic(nth_page(p, 1)); }
+void *f(struct page *p) { return kmap_atomic(p,
+					     KM_SOFTIRQ0); }
PROBE
flagged=$(cd "$ex" && scripts/checkpatch.pl --no-tree --no-signoff --types DEPRECATED_API \
	--color=never "$probe/probe.patch" 2>&1 | sed -n 's/^+void \*\([a-f]\)(.*/\1/p' | tr -d '\n') || true
if [[ $flagged == bce ]]; then
	echo "          ok   flags b, c, e (one argument), not a, d, f (typed)"
else
	echo "          checkpatch flagged '$flagged' of a..f; want 'bce' (the one-argument calls)"
	fail=1
fi

echo "  CHECK   checkpatch.pl --strict"
# The warnings we keep, and why: scripts/checkpatch-kept.txt. Each entry
# names one finding: the patch, the type, and how "message @ where" ends,
# from the "@" on, where is "file: the line" (the line's blanks squeezed
# to one space, its number left out, so
# that an entry survives the code around it moving) or "commit message:
# the line". An entry that keeps more than one finding fails.
# A later kernel's checkpatch.pl finds more: scripts/checkpatch-kept-KERNEL.txt
# keeps those, beside the shared list.
kept_lists=("$repo/scripts/checkpatch-kept.txt")
[[ -f $repo/scripts/checkpatch-kept-${KERNEL:-6.1}.txt ]] &&
	kept_lists+=("$repo/scripts/checkpatch-kept-${KERNEL:-6.1}.txt")
declare -A kept_used=() kept_in=()
kept=()
for list in "${kept_lists[@]}"; do
	lname=${list#"$repo"/}
	while IFS= read -r line; do
		[[ -z $line || $line == \#* ]] && continue
		IFS='|' read -r glob type text reason <<<"$line"
		if [[ ${glob//\*/} == "" || -z $type || -z $text || -z $reason ]]; then
			echo "          FAIL $lname: '$line' needs a glob that names a patch, a type, a text and a reason"
			fail=1
			continue
		fi
		if [[ $text != "@ "* && $text != *" @ "* ]]; then
			echo "          FAIL $lname: '$line': the text must be '@ file: line' or '@ commit message: line', after checkpatch's message where one line has two findings of a type"
			fail=1
			continue
		fi
		kept+=("$glob|$type|$text|$reason")
		kept_in[$glob|$type|$text]=$lname
	done <"$list"
done
kept_why() { # patch name, type, "message @ where": sets why to the reason it is kept, or ""
	local entry glob type text reason
	why=
	for entry in "${kept[@]}"; do
		IFS='|' read -r glob type text reason <<<"$entry"
		# shellcheck disable=SC2053 # $glob is a glob on purpose
		if [[ $1 == $glob && $2 == "$type" && ($3 == "$text" || $3 == *" $text") ]]; then
			kept_used[$glob|$type|$text]=$((${kept_used[$glob|$type|$text]:-0} + 1))
			why=$reason
			return
		fi
	done
}
# checkpatch's findings as "LEVEL|TYPE|message @ where", one per line.
findings() {
	awk '
	function flush() { if (head != "") print head " @ " where; head = "" }
	/^(ERROR|WARNING|CHECK):[A-Z0-9_]+: / {
		flush()
		level = $0; sub(/:.*/, "", level)
		type = $0; sub(/^[A-Z]+:/, "", type); sub(/:.*/, "", type)
		msg = $0; sub(/^[A-Z]+:[A-Z0-9_]+: /, "", msg)
		head = level "|" type "|" msg; where = ""; state = 1; next
	}
	state == 1 && /^#[0-9]+: FILE: / {
		file = $0; sub(/^#[0-9]+: FILE: /, "", file); sub(/:[0-9]+:$/, "", file)
		state = 2; next
	}
	state == 1 && /^#[0-9]+: *$/ { file = "commit message"; state = 2; next }
	state == 2 {
		code = $0; sub(/^\+/, "", code); gsub(/^[ \t]+|[ \t]+$/, "", code); gsub(/[ \t]+/, " ", code)
		where = file ": " code; state = 0; next
	}
	/^$/ { flush(); state = 0 }
	END { flush() }'
}
for p in "${patches[@]}"; do
	name=$(basename "$p")
	res=$(cd "$ex" && scripts/checkpatch.pl --strict --show-types --color=never "$p" 2>&1) || true
	total=$(grep -m1 '^total: ' <<<"$res" || echo "total: ? (checkpatch printed no total)")
	if [[ $total == "total: 0 errors, 0 warnings, 0 checks, "* ]]; then
		echo "          ok   $name"
		continue
	fi
	unkept=0 seen=0 shown=()
	while IFS='|' read -r level type msg; do
		seen=$((seen + 1))
		why=
		[[ $level != ERROR ]] && kept_why "$name" "$type" "$msg"
		if [[ -n $why ]]; then shown+=("$level $type: $msg" "  kept: $why"); else unkept=1; fi
	done < <(findings <<<"$res")
	# Every message counted in the total must have been read.
	want=$(sed -n 's/^total: \([0-9]*\) errors, \([0-9]*\) warnings, \([0-9]*\) checks.*/\1 + \2 + \3/p' <<<"$total")
	if [[ -z $want ]] || ((unkept || seen == 0 || seen != want)); then
		echo "          FAIL $name: $total"
		sed -n '/^\(ERROR\|WARNING\|CHECK\):/,/^$/p' <<<"$res" | sed 's/^/            /'
		fail=1
	else
		echo "          ok   $name, with what the kept lists keep:"
		printf '                 %s\n' "${shown[@]}"
	fi
done
for entry in "${kept[@]}"; do
	IFS='|' read -r glob type text _ <<<"$entry"
	n=${kept_used[$glob|$type|$text]:-0}
	((n == 1)) && continue
	if ((n == 0)); then
		echo "          FAIL ${kept_in[$glob|$type|$text]} keeps '$type' ($text) in $glob, which checkpatch no longer reports: remove the line"
	else
		echo "          FAIL ${kept_in[$glob|$type|$text]} keeps '$type' ($text) in $glob for $n findings: an entry keeps one; change the code, or argue each"
	fi
	fail=1
done

echo "  CHECK   kernel-doc -v"
pristine=$(git -C "$ex" rev-list --max-parents=0 series)
mapfile -t cfiles < <(git -C "$ex" diff --name-only --diff-filter=A "$pristine" series -- '*.c' '*.h')
kd=$(cd "$ex" && scripts/kernel-doc -none -v "${cfiles[@]}" 2>&1 | grep -v ': info: ') || true
if [[ -n $kd ]]; then
	echo "$kd" | sed 's/^/          /'
	fail=1
else
	echo "          ok   ${#cfiles[@]} files"
fi

echo "  CHECK   Sphinx: Documentation/mm/kmap-atomic.rst"
grep -qx '   kmap-atomic' "$ex/Documentation/mm/index.rst" || {
	echo "          Documentation/mm/index.rst does not list kmap-atomic"
	fail=1
}
docs=$build/export/docs
rm -rf "$docs"
mkdir -p "$docs/src" "$docs/conf"
cp "$ex/Documentation/mm/kmap-atomic.rst" "$docs/src/"
cat >"$docs/conf/conf.py" <<CONF
# Just this page, with the kernel's own kernel-doc extension.
import sys
sys.path.insert(0, '$ex/Documentation/sphinx')
extensions = ['kerneldoc']
master_doc = 'kmap-atomic'
project = 'kmap-atomic'
kerneldoc_bin = '$ex/scripts/kernel-doc'
kerneldoc_srctree = '$ex'
primary_domain = 'c'
highlight_language = 'none'
CONF
if sphinx-build -q -W --keep-going -b html -c "$docs/conf" "$docs/src" "$docs/html" >"$docs/log" 2>&1; then
	echo "          ok   no warnings (build/export/docs/html/kmap-atomic.html)"
else
	sed 's/^/          /' "$docs/log"
	fail=1
fi

echo "  CHECK   get_maintainer.pl"
gm=$(cd "$ex" && scripts/get_maintainer.pl --no-git --no-git-fallback --no-rolestats "${patches[@]}" 2>&1) || true
entry=$(sed -n '/^KMAP ATOMIC/,/^$/p' "$ex/MAINTAINERS" | sed -n 's/^M:\t//p' | head -1)
if [[ -n $entry ]] && grep -qF "$entry" <<<"$gm"; then
	echo "          ok   names $entry"
else
	echo "          the series' MAINTAINERS entry (KMAP ATOMIC ...) is not named; get_maintainer.pl says:"
	echo "$gm" | sed 's/^/            /'
	fail=1
fi

((fail == 0)) || die "the series has findings (above); fix the files in the repository, then make patches && make checkpatch"
echo "checkpatch: ${#patches[@]} patches clean"
