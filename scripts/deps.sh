#!/usr/bin/env bash
# Install what the build needs from Debian's packages, only what is missing.
# Usage: scripts/deps.sh BUILD_DIR TARBALL [COMMAND=PACKAGE...]
# The optional pairs are what one target needs beyond the build (make
# checkpatch: sphinx-build=python3-sphinx).
# The i386 BusyBox is unpacked into BUILD_DIR/busybox, so the host's own
# tools are never replaced.
set -euo pipefail

build=$1
tarball=$2
shift 2
busybox=$build/busybox/bin/busybox

# command or file -> Debian package that provides it
declare -A need=(
	[gcc]=gcc [make]=make [flex]=flex [bison]=bison [bc]=bc
	[cpio]=cpio [xz]=xz-utils [depmod]=kmod [quilt]=quilt
	[perl]=perl [python3]=python3 [gzip]=gzip
	[qemu-system-i386]=qemu-system-x86
	[/usr/include/libelf.h]=libelf-dev
	[/usr/include/openssl/ssl.h]=libssl-dev
	[$tarball]=linux-source-6.1
)
for pair in "$@"; do
	need[${pair%%=*}]=${pair#*=}
done

missing=()
for what in "${!need[@]}"; do
	if [[ $what == /* ]]; then
		[[ -e $what ]] && continue
	else
		command -v "$what" >/dev/null 2>&1 && continue
	fi
	missing+=("${need[$what]}")
done
# A TARBALL outside the package is the user's own: say so rather than apt it.
if [[ $tarball != /usr/src/linux-source-6.1.tar.xz && ! -e $tarball ]]; then
	echo "deps: TARBALL=$tarball does not exist; point TARBALL at a linux-6.1.y .tar.xz or leave it unset" >&2
	exit 1
fi
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u | sed '/^$/d')
need_busybox=0
[[ -x $busybox ]] || need_busybox=1
((${#missing[@]} == 0 && need_busybox == 0)) && exit 0

i386_enabled=0
dpkg --print-foreign-architectures 2>/dev/null | grep -qx i386 && i386_enabled=1

if ((EUID != 0)); then
	cmd="apt-get update && apt-get install -y ${missing[*]}"
	((i386_enabled)) || cmd="dpkg --add-architecture i386 && $cmd"
	if ((${#missing[@]})); then
		echo "deps: missing ${missing[*]}; run as root, then retry:" >&2
		echo "  $cmd" >&2
		exit 1
	fi
fi

if ((${#missing[@]})); then
	echo "  DEPS    installing ${missing[*]}"
	((i386_enabled)) || dpkg --add-architecture i386
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
	i386_enabled=1
fi

if ((need_busybox)); then
	echo "  DEPS    i386 busybox-static -> $build/busybox"
	if ((!i386_enabled)); then
		if ((EUID != 0)); then
			echo "deps: the i386 architecture is not enabled; run as root, then retry:" >&2
			echo "  dpkg --add-architecture i386 && apt-get update" >&2
			exit 1
		fi
		dpkg --add-architecture i386
		apt-get update -qq
	fi
	debs=$build/debs
	rm -rf "$debs" "$build/busybox"
	mkdir -p "$debs"
	if ! (cd "$debs" && apt-get download -qq busybox-static:i386 2>/dev/null); then
		# The i386 package list may be older than the architecture switch.
		((EUID == 0)) && apt-get update -qq
		(cd "$debs" && apt-get download -qq busybox-static:i386)
	fi
	dpkg-deb -x "$debs"/busybox-static_*_i386.deb "$build/busybox"
	[[ -x $busybox ]] || { echo "deps: $busybox missing after unpacking busybox-static:i386" >&2; exit 1; }
fi
