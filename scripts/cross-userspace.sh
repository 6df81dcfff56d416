#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# cross-userspace.sh BUILD [ARCH...]: build nictlctl and the guest
# selftests into BUILD/ARCH (BUILD/ARCH/bin/nictlctl, BUILD/ARCH/selftests/)
# for each ARCH named, by default for each architecture not the host's that
# a guest of `make check` runs (scripts/kernels.sh --guests;
# scripts/kernels.list, ARCH). The same
# Makefiles as the host's build, with the host's cross compiler
# (TRIPLET-gcc, from install-deps.sh, with its cross C library) and the
# guests' own root (selftests/vm/guest-root.sh) for libnl's, libmnl's and
# libmicrohttpd's headers and libraries, so that the programs link against
# the very libraries they run with. The host's /usr/include is never
# searched.
set -eu
[ $# -ge 1 ] || { echo "usage: cross-userspace.sh BUILD [ARCH...]" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
host=$(dpkg --print-architecture)

# Build for architecture $1 into $2.
build_for() {
	arch=$1 out=$2
	triplet=$(dpkg-architecture -a"$arch" -qDEB_HOST_GNU_TYPE 2>/dev/null)
	root=$("$top/selftests/vm/guest-root.sh" "$arch")
	lib=$root/usr/lib/$triplet
	mkdir -p "$out"
	# -idirafter: the cross C library's headers come first, the root's after.
	cc="$triplet-gcc -idirafter $root/usr/include"
	make -s -j"$(nproc)" -C "$top/ctl" BUILD="$out" CC="$cc" \
		NL_CFLAGS="-I$root/usr/include/libnl3" NL_LIBS="-L$lib -lnl-genl-3 -lnl-3"
	make -s -j"$(nproc)" -C "$top/selftests" BUILD="$out" CC="$cc" LDLIBS="-L$lib -lmnl"
	echo "built $out/bin/nictlctl and $out/selftests for $arch"
}

# The architectures of the guests.
guest_arches() {
	for krel in $("$top/scripts/kernels.sh" --guests); do
		"$top/scripts/kernels.sh" "$krel" arch
	done | sort -u
}

mkdir -p "$1"
build=$(cd "$1" && pwd)
shift
# shellcheck disable=SC2046 # one architecture a word
[ $# -gt 0 ] || set -- $(guest_arches)
for arch; do
	[ "$arch" = "$host" ] || build_for "$arch" "$build/$arch"
done
