#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# guest-root.sh ARCH [bench]: print a cache directory holding a root file
# system of Debian 12 for architecture ARCH, for the guests of a kernel whose
# architecture is not the host's: an x86 guest runs in the host's own root,
# which an arm64 kernel cannot execute. What the suite runs there: a shell
# and the tools the tests call (ip, ethtool, taskset, unshare, jq, insmod),
# with the libraries nictlctl and the tests link (libnl, libmnl), and a
# static busybox for the guest's initramfs (mkinitramfs.sh). The same root
# is what they are cross-built against (scripts/cross-userspace.sh): it has
# the libraries' headers too.
# Two packages come without their dependencies: libmicrohttpd's header,
# whose library nictlctl opens only when it serves /metrics (its
# dependencies are a TLS library's headers, which nothing here includes),
# and prometheus for promtool, a Go program that needs only the C library,
# which checks `stats --prometheus` (the rest is a server and its web
# pages, unused).
#
# The packages and everything they depend on are downloaded from bookworm
# for ARCH (scripts/apt-suite.sh closure) and unpacked, as debootstrap's
# first stage does, over a merged /usr. No maintainer script runs (the host
# cannot execute them); what the root needs of theirs is done here: the
# users and groups of base-passwd and the awk of the alternatives.
# DIR is CACHE/roots/bookworm-ARCH (CACHE: NICTL_CACHE, default
# /var/cache/nictl); DIR/etc/passwd, made last, says it is complete.
# "bench" is a second root, DIR-bench, with bpftrace besides: the tool
# bench/softirq-cost.sh measures the module against. With its LLVM it
# nearly doubles the root (520 MB against 275), so the suite's root does
# not carry it.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd -P)
REPO=$(cd "$HERE/../.." && pwd -P)
# shellcheck source=scripts/cache-make.sh
. "$REPO/scripts/cache-make.sh"

PACKAGES="base-files base-passwd libc-bin dash bash coreutils grep sed mawk findutils
	util-linux procps kmod iproute2 ethtool jq busybox-static netbase
	libnl-genl-3-dev libmnl-dev libmicrohttpd12"

die() {
	echo "guest-root: $*" >&2
	exit 1
}

# Unpack ARCH $1's packages, with the extra ones of $3, into the new
# directory $4 and put it in place at $2.
make_root() {
	arch=$1 dest=$2 extra=$3 tmp=$4
	root=$tmp/root
	# shellcheck disable=SC2086 # one package a word
	NICTL_APT_ARCH=$arch "$REPO/scripts/apt-suite.sh" bookworm closure "$tmp/debs" \
		$PACKAGES $extra
	NICTL_APT_ARCH=$arch "$REPO/scripts/apt-suite.sh" bookworm download "$tmp/debs" \
		libmicrohttpd-dev prometheus
	mkdir -p "$root/usr/bin" "$root/usr/sbin" "$root/usr/lib"
	for dir in bin sbin lib; do
		ln -s "usr/$dir" "$root/$dir"
	done
	for deb in "$tmp"/debs/*.deb; do
		dpkg-deb --fsys-tarfile "$deb" | tar -C "$root" --keep-directory-symlink -xf - ||
			die "cannot unpack $deb"
	done
	[ -x "$root/bin/busybox" ] || die "busybox-static left no bin/busybox"
	[ -x "$root/usr/bin/promtool" ] || die "prometheus left no usr/bin/promtool"
	ln -sf mawk "$root/usr/bin/awk"
	cp "$root/usr/share/base-passwd/group.master" "$root/etc/group"
	rm -rf "$dest"
	mkdir -p "$(dirname "$dest")"
	mv -T "$root" "$dest"
	cp "$dest/usr/share/base-passwd/passwd.master" "$dest/etc/passwd"
}

main() {
	name=bookworm-${1:-} extra=
	case $# in
	1) ;;
	2)
		[ "$2" = bench ] || die "usage: guest-root.sh ARCH [bench]"
		name=$name-bench extra=bpftrace
		;;
	*) die "usage: guest-root.sh ARCH [bench]" ;;
	esac
	cache=${NICTL_CACHE:-/var/cache/nictl}/roots
	dest=$cache/$name
	cache_make "$dest/etc/passwd" "$cache/.$name.lock" "$cache/.$name.XXXXXX" \
		make_root "$1" "$dest" "$extra"
	echo "$dest"
}

main "$@"
