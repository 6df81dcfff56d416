#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark: how long rtnl is held per second in steady state, with
# `nictlctl daemon` keeping two NICs bound and an unprivileged `nictlctl
# monitor` listening, nothing changing, on a suite guest with as many
# netdevs as it can make (its 3 NICs, NICTL_BENCH_VLANS VLANs and as many
# macvlans on each, NICTL_BENCH_VETHS veth pairs). The module before the
# change (git ref NICTL_BENCH_BEFORE) and the one of this tree are measured
# one after the other in the same guest; holds are found with kprobe
# events on rtnl_lock() (return, which names the caller) and rtnl_unlock().
# Also times how long a drift takes to be repaired by the daemon (5 times).
#
# Usage: bench/rtnl-hold.sh [KREL] (default: the newest suite kernel)
# Environment: NICTL_BENCH_BEFORE (default 0fbf769: main before the drift
# check stopped taking rtnl), NICTL_BENCH_SECONDS (default 30),
# NICTL_BENCH_VLANS (default 20), NICTL_BENCH_VETHS (default 500). Needs
# root, like the guest runner.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd -P)
krel=${1:-$("$top/scripts/kernels.sh" | tail -n 1)}
before=${NICTL_BENCH_BEFORE:-0fbf769}
out=$top/build/bench/rtnl-hold-$krel

make -C "$top" --no-print-directory test-modules ctl >/dev/null
# The module before, built the way the test build is.
rm -rf "$out/before"
mkdir -p "$out/before/src" "$out/guest"
git -C "$top" archive "$before" Kbuild Makefile kmod include/uapi/linux/nictl.h |
	tar -x -C "$out/before/src"
make -C "$("$top/scripts/kernel-build-dir.sh" "$krel")" M="$out/before/src" W=1 \
	NICTL_FAULT_INJECT=y modules >"$out/before/build.log" 2>&1 ||
	{ cat "$out/before/build.log" >&2; exit 1; }
NICTL_VM_QUIET=1 NICTL_VM_TIMEOUT=${NICTL_VM_TIMEOUT:-2400} \
	"$top/selftests/vm/run-guest.sh" "$krel" "$out/guest" \
	env NICTL_BENCH_BEFORE_KO="$out/before/src/nictl.ko" \
	NICTL_BENCH_SECONDS="${NICTL_BENCH_SECONDS:-30}" \
	NICTL_BENCH_VLANS="${NICTL_BENCH_VLANS:-20}" NICTL_BENCH_VETHS="${NICTL_BENCH_VETHS:-500}" \
	bench/rtnl-hold-guest.sh >/dev/null

lines() {
	tr -d '\r' <"$out/guest/console.log" | grep "^$1 " || true
}

echo "kernel $krel, suite guest (8 vCPUs, TCG); before = $before," \
	"after = $(git -C "$top" rev-parse --short HEAD)"
lines rtnl-hold:
echo
echo "| module | rtnl holds/s, all | rtnl held us/s, all | holds/s by nictl | held us/s by nictl | longest hold by nictl, us | drift repaired after, ms: median | max |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
lines RESULT | while read -r _ name secs n us nn nus max repaired worst; do
	awk -v m="$name" -v s="$secs" -v n="$n" -v us="$us" -v nn="$nn" -v nus="$nus" \
		-v max="$max" -v r="$repaired" -v w="$worst" \
		'BEGIN { printf "| %s | %.2f | %.0f | %.2f | %.0f | %.0f | %d | %d |\n",
			 m, n / s, us / s, nn / s, nus / s, max, r, w }'
done
