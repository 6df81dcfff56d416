#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fetch-headers.sh KREL: print the build tree external modules are built
# against for suite kernel KREL (scripts/kernels.list), made from Debian's
# packages in the cache, never installed on the host:
#   DIR/headers/          linux-headers-KREL, its -common headers and its
#                         linux-kbuild package, unpacked (dpkg-deb -x) as
#                         a root: usr/src/linux-headers-*, usr/lib/linux-kbuild-*
#   DIR/headers/needs     what the packages depend on besides each other
#                         (compiler, kbuild's libraries): what a system
#                         that builds with them must have (scripts/kmake.sh)
# For a kernel of another architecture than the host's (kernels.list, ARCH)
# the headers are that architecture's, kbuild's programs the host's (they
# run on it), and the compiler the needs name the host's cross compiler.
#   DIR/build -> headers/usr/src/linux-headers-KREL
# DIR is CACHE/kernels/KREL (CACHE: NICTL_CACHE, default /var/cache/nictl),
# the directory selftests/vm/fetch-kernel.sh puts the image in. The headers
# appear complete or not at all (scripts/cache-make.sh).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/cache-make.sh
. "$top/scripts/cache-make.sh"

die() {
	echo "fetch-headers: $*" >&2
	exit 1
}

# Debian's tree Makefile includes the -common one by its absolute path
# below /usr/src (and 7.x also names itself there); make those paths
# relative to where the Makefile is, so the tree works where it was unpacked.
relocate_makefile() {
	makefile=$1
	# shellcheck disable=SC2016 # make's $(...), not the shell's
	{
		echo '# nictl: /usr/src was made relative to this file (scripts/fetch-headers.sh)'
		echo 'nictl-usr-src := $(realpath $(dir $(lastword $(MAKEFILE_LIST)))..)'
		sed 's|/usr/src/|$(nictl-usr-src)/|g' "$makefile"
	} >"$makefile.new"
	mv "$makefile.new" "$makefile"
}

# Every link of the build tree ("scripts -> ../../lib/linux-kbuild-X/scripts")
# must resolve inside root $1, or the tree would use the host's files.
check_links() {
	root=$(cd "$1" && pwd -P)
	find "$root/usr/src" "$root/usr/lib"/linux-kbuild-* -type l | while read -r link; do
		target=$(realpath -e "$link" 2>/dev/null) ||
			die "$link -> $(readlink "$link") does not resolve"
		case $target in
		"$root"/*) ;;
		*) die "$link -> $(readlink "$link") leaves the unpacked headers" ;;
		esac
	done
}

# Unpack KREL's headers from SUITE into the new directory $3, for the
# host's architecture.
unpack_native() {
	krel=$1 suite=$2 root=$3
	"$top/scripts/fetch-debs.sh" "$suite" "$root" '^linux-(headers|kbuild)-' \
		"linux-headers-$krel" >"$root/depends"
	grep -Ev '^linux-(base|image)' "$root/depends" >"$root/needs" || true
	rm "$root/depends"
}

# The same for architecture $4: its headers, the host's kbuild of the
# version they depend on, and gcc-N as the host's gcc-N-TRIPLET.
unpack_cross() {
	krel=$1 suite=$2 root=$3 arch=$4
	NICTL_APT_ARCH=$arch "$top/scripts/fetch-debs.sh" "$suite" "$root" '^linux-headers-' \
		"linux-headers-$krel" >"$root/depends"
	kbuild=$(grep -E '^linux-kbuild-' "$root/depends") ||
		die "linux-headers-$krel depends on no linux-kbuild package"
	triplet=$(dpkg-architecture -a"$arch" -qDEB_HOST_GNU_TYPE 2>/dev/null) ||
		die "dpkg-architecture knows no architecture $arch"
	{
		grep -Ev '^linux-(base|image|kbuild|compiler)' "$root/depends" |
			sed "s/^gcc-[0-9]*\$/&-$triplet/"
		"$top/scripts/fetch-debs.sh" "$suite" "$root" '^$' "$kbuild"
	} | sort -u >"$root/needs"
	rm "$root/depends"
}

# Unpack KREL's headers from SUITE into the new directory $3.
unpack_headers() {
	krel=$1 suite=$2 root=$3
	arch=$("$top/scripts/kernels.sh" "$krel" arch)
	if [ "$arch" = "$(dpkg --print-architecture)" ]; then
		unpack_native "$krel" "$suite" "$root"
	else
		unpack_cross "$krel" "$suite" "$root" "$arch"
	fi
	tree=$root/usr/src/linux-headers-$krel
	[ -f "$tree/Makefile" ] || die "linux-headers-$krel has no usr/src/linux-headers-$krel/Makefile"
	relocate_makefile "$tree/Makefile"
	check_links "$root"
}

# Unpack KREL's headers into the new directory $3 and put them in place at
# $2: DIR/build/Makefile, which says they are complete, resolves only once
# both the link and the headers are there.
install_headers() {
	krel=$1 dest=$2 tmp=$3
	suite=$("$top/scripts/kernels.sh" "$krel" suite) ||
		die "add $krel to scripts/kernels.list to fetch its headers"
	# Left by a run that stopped before its build link resolved.
	rm -rf "$dest/headers"
	unpack_headers "$krel" "$suite" "$tmp" >&2
	ln -sfn "headers/usr/src/linux-headers-$krel" "$dest/.build"
	mv -T "$dest/.build" "$dest/build"
	mv -T "$tmp" "$dest/headers"
}

main() {
	[ $# -eq 1 ] || die "usage: fetch-headers.sh KREL"
	krel=$1
	cache=${NICTL_CACHE:-/var/cache/nictl}/kernels
	dest=$cache/$krel
	cache_make "$dest/build/Makefile" "$cache/.$krel.lock" "$dest/.headers.XXXXXX" \
		install_headers "$krel" "$dest"
	echo "$dest/build"
}

main "$@"
