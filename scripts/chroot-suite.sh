#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# chroot-suite.sh SUITE [--pristine]: print the directory of a chroot of
# Debian SUITE in the project's cache, made on first use: CACHE/chroots/SUITE
# (CACHE: NICTL_CACHE, default /var/cache/nictl), debootstrap's minbase with
# make and dkms; with --pristine, CACHE/chroots/SUITE-pristine, the minbase
# alone, which the package test copies to install the packages into as on a
# new machine (selftests/pkg/pkg_test.sh). Modules for kernels whose compiler
# or kbuild binaries the host cannot run (scripts/kernels.list: BUILD chroot)
# are built in it (scripts/krun.sh), which installs each kernel's compiler
# and libraries there. The chroot
# appears complete or not at all: made next to it and renamed into place.
# debootstrap mounts /proc and /sys in the chroot while it works; it runs in
# a mount namespace of its own, so those mounts end with it whatever happens.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/cache-make.sh
. "$top/scripts/cache-make.sh"

die() {
	echo "chroot-suite: $*" >&2
	exit 1
}

# Make the chroot of SUITE in the new directory $2; pristine ($3 = yes), the
# minbase alone.
make_chroot() {
	suite=$1 dir=$2 pristine=$3
	mirror=$("$top/scripts/apt-suite.sh" "$suite" mirror)
	unshare --mount --propagation private \
		debootstrap --variant=minbase "$suite" "$dir" "$mirror" >&2 ||
		die "debootstrap of $suite from $mirror failed (its log: $dir/debootstrap/debootstrap.log)"
	# As for the host's private apt (scripts/apt-suite.sh): old suites'
	# Release files have expired.
	echo 'Acquire::Check-Valid-Until "false";' >"$dir/etc/apt/apt.conf.d/90nictl"
	[ "$pristine" = no ] || return 0
	# dkms for DKMS builds there; nothing the kernel does not need.
	"$top/scripts/chroot-run.sh" "$dir" -- apt-get -q install -y --no-install-recommends \
		make dkms >&2 || die "cannot install make and dkms in the $suite chroot"
	"$top/scripts/chroot-run.sh" "$dir" -- apt-get clean
}

# Make the chroot of SUITE (pristine: $2) in the new directory $4, then
# rename it to $3.
install_chroot() {
	suite=$1 pristine=$2 dest=$3 tmp=$4
	echo "chroot-suite: making a $suite chroot in $dest" >&2
	make_chroot "$suite" "$tmp" "$pristine"
	mv -T "$tmp" "$dest"
}

main() {
	case $# in
	1) pristine=no name=$1 ;;
	2) [ "$2" = --pristine ] || die "usage: chroot-suite.sh SUITE [--pristine]"
	   pristine=yes name=$1-pristine ;;
	*) die "usage: chroot-suite.sh SUITE [--pristine]" ;;
	esac
	suite=$1
	cache=${NICTL_CACHE:-/var/cache/nictl}/chroots
	dest=$cache/$name
	cache_make "$dest" "$cache/.$name.lock" "$cache/.$name.XXXXXX" \
		install_chroot "$suite" "$pristine" "$dest"
	echo "$dest"
}

main "$@"
