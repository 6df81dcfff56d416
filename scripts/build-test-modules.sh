#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build the test flavour of nictl.ko (W=1, fault injection) once for every
# suite kernel, each in its own copy of the sources so the builds cannot mix.
# Any compiler or modpost warning fails the build. scripts/kmake.sh builds on
# the host or in the kernel's chroot, against the cache's build tree.
# Usage: build-test-modules.sh OUTDIR   (OUTDIR/<krel>/nictl.ko, and keptnic.ko
# where the kernel has what it tests)
set -eu
out=${1:?usage: build-test-modules.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)

# kbuild KREL SRC NAME MAKEARG...: build module NAME.ko in SRC for KREL, W=1,
# its log in SRC/../NAME-build.log; a failure or any warning fails it. The
# module is copied beside the log when the build made one.
kbuild() {
	krel=$1 src=$2 name=$3
	shift 3
	log=$(dirname "$src")/$name-build.log
	rm -f "$(dirname "$src")/$name.ko"
	if ! "$top/scripts/kmake.sh" "$krel" M="$src" W=1 "$@" modules >"$log" 2>&1; then
		cat "$log" >&2
		echo "build of $name.ko for $krel failed" >&2
		return 1
	fi
	if grep -E 'warning:|WARNING:' "$log" >&2; then
		echo "build of $name.ko for $krel has warnings" >&2
		return 1
	fi
	if [ -f "$src/$name.ko" ]; then
		cp "$src/$name.ko" "$(dirname "$src")/$name.ko"
		echo "built $(dirname "$src")/$name.ko"
	fi
}

build_one() {
	krel=$1
	dir=$out/$krel
	"$top/scripts/module-source.sh" "$dir/src"
	# kbuild compiles one file at a time unless told: every core takes one.
	kbuild "$krel" "$dir/src" nictl -j"$(nproc)" NICTL_FAULT_INJECT=y
	[ -f "$dir/nictl.ko" ] || return 1
	# The suite's test NIC, for the kernels whose core keeps IRQ affinity:
	# its Kbuild builds nothing for the others.
	rm -rf "$dir/keptnic-src"
	cp -r "$top/selftests/keptnic" "$dir/keptnic-src"
	kbuild "$krel" "$dir/keptnic-src" keptnic
}

for krel in $("$top/scripts/kernels.sh" --build); do
	build_one "$krel"
done
