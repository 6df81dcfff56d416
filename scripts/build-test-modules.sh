#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build the test flavour of nictl.ko (W=1, fault injection) once for every
# suite kernel, each in its own copy of the sources so the builds cannot mix.
# Any compiler or modpost warning fails the build. scripts/kmake.sh builds on
# the host or in the kernel's chroot, against the cache's build tree.
# Usage: build-test-modules.sh OUTDIR   (OUTDIR/<krel>/nictl.ko)
set -eu
out=${1:?usage: build-test-modules.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)

build_one() {
	krel=$1
	dir=$out/$krel
	"$top/scripts/module-source.sh" "$dir/src"
	# kbuild compiles one file at a time unless told: every core takes one.
	if ! "$top/scripts/kmake.sh" "$krel" -j"$(nproc)" M="$dir/src" W=1 NICTL_FAULT_INJECT=y \
		modules >"$dir/build.log" 2>&1; then
		cat "$dir/build.log" >&2
		echo "build of nictl.ko for $krel failed" >&2
		return 1
	fi
	if grep -E 'warning:|WARNING:' "$dir/build.log" >&2; then
		echo "build of nictl.ko for $krel has warnings" >&2
		return 1
	fi
	cp "$dir/src/nictl.ko" "$dir/nictl.ko"
	echo "built $dir/nictl.ko"
}

for krel in $("$top/scripts/kernels.sh"); do
	build_one "$krel"
done
