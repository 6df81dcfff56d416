#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# krun.sh KREL [--rw DIR]... -- CMD...: run CMD where modules for suite kernel
# KREL are built (scripts/kernels.list, BUILD): on the host, or chrooted into
# a chroot of the kernel's suite (scripts/chroot-suite.sh) that has the
# compiler and libraries its headers need (DIR/headers/needs, installed there
# on first use), with the kernel's cache directory mounted read-only and each
# DIR writable, all at their own paths (scripts/chroot-run.sh). A kernel the
# list does not have (the debug kernel) is built on the host.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)

die() {
	echo "krun: $*" >&2
	exit 1
}

main() {
	[ $# -ge 3 ] || die "usage: krun.sh KREL [--rw DIR]... -- CMD..."
	krel=$1
	shift
	build=$("$top/scripts/kernels.sh" "$krel" build 2>/dev/null) || build=host
	case $build in
	host)
		while [ "$1" != -- ]; do
			shift
		done
		shift
		exec "$@"
		;;
	chroot)
		suite=$("$top/scripts/kernels.sh" "$krel" suite)
		root=$("$top/scripts/chroot-suite.sh" "${suite%-security}")
		kdir=$("$top/scripts/kernel-build-dir.sh" "$krel")
		kernel=$(cd "$kdir/.." && pwd -P)
		# shellcheck disable=SC2046 # one package a word
		"$top/scripts/chroot-install.sh" "$root" "needs-$krel" $(cat "$kernel/headers/needs")
		exec "$top/scripts/chroot-run.sh" "$root" --ro "$kernel" "$@"
		;;
	*)
		die "$krel: unknown BUILD $build in scripts/kernels.list (host, chroot)"
		;;
	esac
}

main "$@"
