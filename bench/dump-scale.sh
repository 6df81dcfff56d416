#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark: what an unprivileged DEV_GET dump costs as a host's netdevs
# grow. DEV_GET dumps are open to every user; before 6.6 a dump resumed by
# walking the whole device list once per device it visited, O(N^2) under
# rtnl. In one suite guest, the module before the change (git ref
# NICTL_BENCH_BEFORE) and the one of this tree each time `nictlctl show -j`
# run as nobody with 1,000 and then 2,000 extra dummy netdevs, and report
# the longest rtnl hold nictl made during the dumps (kprobe events on
# rtnl_lock() and rtnl_unlock()). Dummies have no bus device, so every dump
# describes the same NICs: what grows is the walk alone.
#
# Usage: bench/dump-scale.sh [KREL...] (default: the oldest and the newest
# suite kernels, one after the other)
# Environment: NICTL_BENCH_BEFORE (default 2821d29: main before the second
# review), NICTL_BENCH_STEP (1000), NICTL_BENCH_REPEAT (7 dumps per
# count). Needs root, like the guest runner. Prints a table per kernel.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd -P)
before=${NICTL_BENCH_BEFORE:-2821d29}
step=${NICTL_BENCH_STEP:-1000}
if [ $# -eq 0 ]; then
	set -- "$("$top/scripts/kernels.sh" | head -n 1)" "$("$top/scripts/kernels.sh" | tail -n 1)"
fi

make -C "$top" --no-print-directory test-modules ctl >/dev/null

# The module before, built the way the test build is, for kernel $1 into $2.
build_before() {
	rm -rf "$2"
	mkdir -p "$2/src"
	git -C "$top" archive "$before" Kbuild Makefile kmod include/uapi/linux/nictl.h |
		tar -x -C "$2/src"
	"$top/scripts/kmake.sh" "$1" M="$2/src" W=1 NICTL_FAULT_INJECT=y modules \
		>"$2/build.log" 2>&1 ||
		{ cat "$2/build.log" >&2; exit 1; }
}

for krel in "$@"; do
	out=$top/build/bench/dump-scale-$krel
	build_before "$krel" "$out/before"
	rm -rf "$out/guest"
	mkdir -p "$out/guest"
	NICTL_VM_QUIET=1 NICTL_VM_TIMEOUT=${NICTL_VM_TIMEOUT:-2400} \
		"$top/selftests/vm/run-guest.sh" "$krel" "$out/guest" \
		env NICTL_BENCH_BEFORE_KO="$out/before/src/nictl.ko" \
		NICTL_BENCH_STEP="$step" NICTL_BENCH_REPEAT="${NICTL_BENCH_REPEAT:-7}" \
		bench/dump-scale-guest.sh >/dev/null
	echo "## $krel"
	echo
	echo "| module | extra netdevs | dump, ms: median | max | longest rtnl hold by nictl, us |"
	echo "| --- | ---: | ---: | ---: | ---: |"
	tr -d '\r' <"$out/guest/console.log" | awk '$1 == "RESULT" {
		printf "| %s | %s | %s | %s | %s |\n", $2, $3, $4, $5, $6
		med[$2, $3] = $4; n[$2] = n[$2] " " $3
	}
	END {
		for (m in n) {
			split(n[m], c, " ")
			if (med[m, c[1]] > 0)
				printf "\n%s: the median grows %.2fx from %s to %s extra netdevs\n",
					m, med[m, c[2]] / med[m, c[1]], c[1], c[2]
		}
	}'
	echo
done
