#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kernel-build-dir.sh KREL: print the tree external modules are built against
# for suite kernel KREL: Debian's headers package, or the build tree of a
# kernel the project built itself (selftests/vm/build-debug-kernel.sh).
set -eu
krel=${1:?usage: kernel-build-dir.sh KREL}
for dir in "/usr/src/linux-headers-$krel" "${NICTL_CACHE:-/var/cache/nictl}/kernels/$krel/build"; do
	if [ -f "$dir/Makefile" ]; then
		echo "$dir"
		exit 0
	fi
done
echo "kernel-build-dir: no build tree for $krel (make deps installs Debian's headers;" \
	"selftests/vm/build-debug-kernel.sh builds the debug kernel)" >&2
exit 1
