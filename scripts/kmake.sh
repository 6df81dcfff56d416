#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kmake.sh KREL ARG...: `make -C BUILDTREE ARG...` for suite kernel KREL
# (BUILDTREE: scripts/kernel-build-dir.sh), where modules for it are built
# (scripts/krun.sh: the host, or the kernel's chroot, into which the
# directory of each M=DIR argument is mounted writable). Both paths are
# given to make without symbolic links: the chroot has the directories the
# links lead to, at the same paths, and not the links. A kernel of another
# architecture (scripts/kernels.list, ARCH) is built with the host's cross
# compiler for it.
set -eu
[ $# -ge 1 ] || { echo "usage: kmake.sh KREL ARG..." >&2; exit 2; }
krel=$1
shift
top=$(cd "$(dirname "$0")/.." && pwd)
kdir=$(cd "$("$top/scripts/kernel-build-dir.sh" "$krel")" && pwd -P)
binds=
for arg; do
	shift
	case $arg in
	M=*)
		dir=$(cd "${arg#M=}" && pwd -P)
		binds="$binds --rw $dir"
		arg=M=$dir
		;;
	esac
	set -- "$@" "$arg"
done
arch=$("$top/scripts/kernels.sh" "$krel" arch)
if [ "$arch" != "$(dpkg --print-architecture)" ]; then
	triplet=$(dpkg-architecture -a"$arch" -qDEB_HOST_GNU_TYPE 2>/dev/null)
	set -- "$@" CROSS_COMPILE="$triplet-"
fi
# shellcheck disable=SC2086 # pairs of words; the directories have no blanks
exec "$top/scripts/krun.sh" "$krel" $binds -- make -C "$kdir" "$@"
