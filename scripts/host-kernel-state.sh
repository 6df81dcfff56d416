#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What of the host's kernel `make check` must leave alone, to prove it does
# (selftests/unit/host_kernel_test.sh):
#   host-kernel-state.sh snapshot [ROOT]         print the state
#   host-kernel-state.sh compare BEFORE [ROOT]   print what changed since
#                                                snapshot BEFORE was taken;
#                                                fails when anything did
# The state: every file, directory and link below /boot and /lib/modules and
# the boot loader's settings (/etc/default/grub, grub.d), each with its type,
# size, modification time and link target, plus a checksum of the GRUB
# files; and dpkg's record of every kernel image, modules and headers package
# (version and status). ROOT (default /) lets the test make up a host.
set -eu

die() {
	echo "host-kernel-state: $*" >&2
	exit 2
}

snapshot() {
	root=${1%/}
	for path in /boot /lib/modules /etc/default/grub /etc/default/grub.d; do
		[ -e "$root$path" ] || continue
		# Relative to ROOT, then made absolute: "./boot/x" -> "/boot/x".
		(cd "$root/" && find ".$path" \( -type l -printf '%y %s %T@ %p -> %l\n' \) \
			-o -printf '%y %s %T@ %p\n') | sed 's| \./| /|'
	done | sort -k4
	for file in /boot/grub/grub.cfg /etc/default/grub; do
		[ ! -f "$root$file" ] || echo "sha256 $(sha256sum <"$root$file" | cut -d' ' -f1) $file"
	done
	# Patterns that match no package make dpkg-query fail; that is no change.
	dpkg-query --admindir="$root/var/lib/dpkg" -W \
		-f='package ${Package} ${Version} ${db:Status-Abbrev}\n' \
		'linux-image-*' 'linux-headers-*' 'linux-modules-*' 'linux-binary-*' \
		2>/dev/null | sort || true
}

main() {
	[ $# -ge 1 ] || die "usage: host-kernel-state.sh snapshot [ROOT] | compare BEFORE [ROOT]"
	cmd=$1
	shift
	case $cmd in
	snapshot)
		[ $# -le 1 ] || die "usage: host-kernel-state.sh snapshot [ROOT]"
		snapshot "${1:-/}"
		;;
	compare)
		if [ $# -lt 1 ] || [ $# -gt 2 ]; then
			die "usage: host-kernel-state.sh compare BEFORE [ROOT]"
		fi
		[ -f "$1" ] || die "no snapshot $1"
		now=$(snapshot "${2:-/}")
		# "-" lines were there before, "+" lines are there now.
		if ! echo "$now" | diff -U0 "$1" - | grep '^[-+][^-+]'; then
			return 0
		fi
		echo "host-kernel-state: the host's kernel state changed since $1 was taken (above: - before, + now)"
		return 1
		;;
	*)
		die "unknown command $cmd (snapshot, compare)"
		;;
	esac
}

main "$@"
