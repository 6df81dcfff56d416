#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kmake.sh KREL ARG...: `make -C BUILDTREE ARG...` for suite kernel KREL
# (BUILDTREE: scripts/kernel-build-dir.sh), where modules for it are built
# (scripts/krun.sh: the host, or the kernel's chroot, into which the
# directory of each M=DIR argument is mounted writable).
set -eu
[ $# -ge 1 ] || { echo "usage: kmake.sh KREL ARG..." >&2; exit 2; }
krel=$1
shift
top=$(cd "$(dirname "$0")/.." && pwd)
kdir=$("$top/scripts/kernel-build-dir.sh" "$krel")
binds=
for arg in "$@"; do
	case $arg in
	M=*) binds="$binds --rw ${arg#M=}" ;;
	esac
done
# shellcheck disable=SC2086 # pairs of words; the directories have no blanks
exec "$top/scripts/krun.sh" "$krel" $binds -- make -C "$kdir" "$@"
