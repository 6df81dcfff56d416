#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kernel-build-dir.sh KREL: print the tree external modules are built against
# for suite kernel KREL: CACHE/kernels/KREL/build, where
# scripts/fetch-headers.sh unpacks Debian's headers (fetched now when missing
# for a kernel of scripts/kernels.list) and selftests/vm/build-debug-kernel.sh
# puts the debug kernel's build tree. The host's own headers (/usr/src) are
# never used: the build must not depend on what kernels the host has.
set -eu
krel=${1:?usage: kernel-build-dir.sh KREL}
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${NICTL_CACHE:-/var/cache/nictl}/kernels/$krel/build
if [ -f "$dir/Makefile" ]; then
	echo "$dir"
elif "$top/scripts/kernels.sh" "$krel" suite >/dev/null 2>&1; then
	"$top/scripts/fetch-headers.sh" "$krel"
else
	echo "kernel-build-dir: no build tree for $krel: not in scripts/kernels.list," \
		"and selftests/vm/build-debug-kernel.sh did not build it" >&2
	exit 1
fi
