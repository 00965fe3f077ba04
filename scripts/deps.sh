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
	[$tarball]=linux-source-${KERNEL:-6.1}
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
if [[ $tarball != "/usr/src/linux-source-${KERNEL:-6.1}.tar.xz" && ! -e $tarball ]]; then
	echo "deps: TARBALL=$tarball does not exist; point TARBALL at a linux-${KERNEL:-6.1}.y .tar.xz or leave it unset" >&2
	exit 1
fi
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u | sed '/^$/d')
need_busybox=0
[[ -x $busybox ]] || need_busybox=1
((${#missing[@]} == 0 && need_busybox == 0)) && exit 0

# apt-get update, once more if it fails, then go on: one index that fails
# (a mirror in mid-sync) need not stop an install whose packages are in the
# others. What failed is kept for the message if an install then fails.
update_failed=
apt_update() {
	local err
	err=$(apt-get update -qq 2>&1 >/dev/null) && { update_failed=; return 0; }
	echo "  DEPS    apt-get update failed; trying once more" >&2
	err=$(apt-get update -qq 2>&1 >/dev/null) && { update_failed=; return 0; }
	update_failed=$(grep -E '^(E|W): ' <<<"$err" | grep -v 'Some index files failed' || true)
	[[ -n $update_failed ]] || update_failed=$err
	echo "  DEPS    apt-get update failed again; going on with the package lists there are:" >&2
	sed 's/^/          /' <<<"$update_failed" >&2
}
# The packages of @ that apt cannot install, each tried alone, for the message.
apt_install() {
	local p bad=()
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null && return 0
	for p in "$@"; do
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$p" >/dev/null 2>&1 || bad+=("$p")
	done
	((${#bad[@]})) || return 0
	echo "deps: cannot install ${bad[*]} (apt-get install ${bad[*]} says why)." >&2
	if [[ -n $update_failed ]]; then
		echo "deps: apt-get update had failed for these indexes; retry when the mirror is whole:" >&2
		sed 's/^/  /' <<<"$update_failed" >&2
	fi
	return 1
}

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
	apt_update
	apt_install "${missing[@]}"
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
		apt_update
	fi
	debs=$build/debs
	rm -rf "$debs" "$build/busybox"
	mkdir -p "$debs"
	if ! (cd "$debs" && apt-get download -qq busybox-static:i386 2>/dev/null); then
		# The i386 package list may be older than the architecture switch.
		((EUID == 0)) && apt_update
		if ! (cd "$debs" && apt-get download -qq busybox-static:i386); then
			echo "deps: cannot download busybox-static:i386${update_failed:+; apt-get update had failed for:}" >&2
			[[ -z $update_failed ]] || sed 's/^/  /' <<<"$update_failed" >&2
			exit 1
		fi
	fi
	dpkg-deb -x "$debs"/busybox-static_*_i386.deb "$build/busybox"
	[[ -x $busybox ]] || { echo "deps: $busybox missing after unpacking busybox-static:i386" >&2; exit 1; }
fi
