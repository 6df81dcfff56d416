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

# Install the packages kernel $1's headers need into chroot $2, once: the
# list installed last is kept in the chroot and compared.
chroot_needs() {
	krel=$1 root=$2 needs=$3
	stamp=$root/var/lib/nictl/needs-$krel
	cmp -s "$needs" "$stamp" 2>/dev/null && return 0
	# The lock chroot-suite.sh makes the chroot under.
	exec 8>"$(dirname "$root")/.$(basename "$root").lock"
	flock 8
	cmp -s "$needs" "$stamp" 2>/dev/null && return 0
	echo "krun: installing what $krel's headers need in $root: $(paste -sd' ' "$needs")" >&2
	run() {
		"$top/scripts/chroot-run.sh" "$root" -- "$@" >&2
	}
	# shellcheck disable=SC2046 # one package a word
	{ run apt-get -q update && run apt-get -q install -y --no-install-recommends \
		$(cat "$needs") && run apt-get clean; } ||
		die "cannot install what $krel's headers need in $root"
	mkdir -p "$root/var/lib/nictl"
	cp "$needs" "$stamp"
	exec 8>&-
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
		chroot_needs "$krel" "$root" "$kernel/headers/needs"
		exec "$top/scripts/chroot-run.sh" "$root" --ro "$kernel" "$@"
		;;
	*)
		die "$krel: unknown BUILD $build in scripts/kernels.list (host, chroot)"
		;;
	esac
}

main "$@"
