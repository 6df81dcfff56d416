#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark: what `nictlctl bind --steer` does for a NIC with fewer queues
# than its node has CPUs. In one suite guest, vnode1 (virtio-net, NUMA node
# 1 = CPUs 4-7) with one, then two queue pairs receives a many-flow load
# (iperf3 -P 8 UDP and TCP, a small-packet broadcast flood) from vnode0 in
# a network namespace of the guest, through the bridge of the runner's own
# namespace; its IRQs bound numa-local with no steering, with --steer, and
# with the seeds' manual recipes (bench/steer-guest.sh says which). Per
# cell: packets per second vnode1 received, drops, and each node-1 CPU's
# share of node 1's NET_RX time as nictl's own accounting measured it.
# Ratios between modes of one run are the result, not the absolute
# figures: under TCG every vCPU is a thread of a 2-core host. See
# docs/benchmarks.md.
#
# Usage: bench/steer.sh [KREL] (default: the newest suite kernel)
# Environment: NICTL_BENCH_SECONDS (per cell, 8), NICTL_BENCH_ROUNDS (2),
# NICTL_BENCH_PPS (flood frames/s, 20000), NICTL_BENCH_QUEUES ("1 2"),
# NICTL_BENCH_LOADS ("udp tcp flood"), NICTL_BENCH_MODES ("bound steer
# manual-all manual-queue"), NICTL_BUILD (the build tree, default build/).
# Needs root, like the guest runner; installs iperf3 on the host when it is
# missing, since the guest runs the host's root file system over 9p.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd -P)
# shellcheck source=bench/need-iperf3.sh
. "$top/bench/need-iperf3.sh"
krel=${1:-$("$top/scripts/kernels.sh" | tail -n 1)}
build=${NICTL_BUILD:-$top/build}
out=$build/bench/steer-$krel

die() {
	echo "steer: $*" >&2
	exit 1
}

lines() {
	tr -d '\r' <"$out/console.log" | grep "^$1 " || true
}

# One row per queue pairs, load and mode, summed over the rounds, in the
# order the guest ran them; then whether --steer met the goals.
report() {
	local cpus
	cpus=$(lines steer: | sed -n 's/.*node 1 CPUs \([0-9]*-[0-9]*\),.*/\1/p' | head -n 1)
	if [ -z "$cpus" ] || [ -z "$(lines RESULT)" ]; then
		die "no results; see $out/console.log"
	fi
	lines steer: | sed 's/^steer: //' | grep -v '^[0-9]* queue pairs, round'
	echo
	echo "| queue pairs | load | mode | packets/s | vs bound | drops | UDP receive errors |" \
		"NET_RX time share, CPUs $cpus | hottest / mean | node 1 NET_RX ms |"
	echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
	lines RESULT | awk -v lo="${cpus%-*}" -v hi="${cpus#*-}" '
		{
			key = $2 " " $3 " " $4
			if (!(key in ms)) order[++n] = key
			ms[key] += $6; rx[key] += $7; drops[key] += $8; udp[key] += $9
			for (c = lo; c <= hi; c++) ns[key, c] += $(10 + c)
		}
		END {
			for (i = 1; i <= n; i++) {
				k = order[i]
				split(k, f, " ")
				pps[k] = rx[k] * 1000 / ms[k]
				all = 0; top = 0
				for (c = lo; c <= hi; c++) {
					all += ns[k, c]
					if (ns[k, c] > top) top = ns[k, c]
				}
				shares = ""
				for (c = lo; c <= hi; c++)
					shares = shares (c > lo ? " / " : "") \
						sprintf("%.0f", all ? 100 * ns[k, c] / all : 0)
				ratio[k] = all ? top * (hi - lo + 1) / all : 0
				base = f[1] " " f[2] " bound"
				vs = base in pps && pps[base] ? sprintf("%.2f", pps[k] / pps[base]) : "-"
				printf "| %s | %s | %s | %.0f | %s | %d | %d | %s %% | %.2f | %.0f |\n",
					f[1], f[2], f[3], pps[k], vs, drops[k], udp[k], shares, ratio[k],
					all / 1e6
			}
			print ""
			for (i = 1; i <= n; i++) {
				k = order[i]
				split(k, f, " ")
				base = f[1] " " f[2] " bound"
				if (f[3] != "steer" || !(base in pps))
					continue
				printf "%s queue pair(s), %s: --steer hottest / mean %.2f (goal <= 1.5: %s);" \
					" packets/s %.2fx those bound (goal >= 1: %s)\n", f[1], f[2], ratio[k],
					(ratio[k] <= 1.5 ? "met" : "MISSED"), pps[k] / pps[base],
					(pps[k] >= pps[base] ? "met" : "MISSED")
			}
		}'
	echo
	echo "RPS masks per mode (rx queue:rps_cpus):"
	lines MASKS | sed 's/^MASKS /- /'
}

main() {
	[ "$(id -u)" -eq 0 ] || die "must run as root (guest network namespace, packages)"
	need_iperf3 steer
	make -C "$top" --no-print-directory BUILD="$build" test-modules ctl >/dev/null
	mkdir -p "$build/bench"
	cc -O2 -Wall -Wextra -Werror -o "$build/bench/bcast-flood" "$top/bench/bcast-flood.c"
	NICTL_BUILD=$build NICTL_VM_QUIET=1 NICTL_VM_TIMEOUT=${NICTL_VM_TIMEOUT:-2400} \
		"$top/selftests/vm/run-guest.sh" "$krel" "$out" \
		env NICTL_BENCH_SECONDS="${NICTL_BENCH_SECONDS:-8}" \
		NICTL_BENCH_ROUNDS="${NICTL_BENCH_ROUNDS:-2}" \
		NICTL_BENCH_PPS="${NICTL_BENCH_PPS:-20000}" \
		NICTL_BENCH_QUEUES="${NICTL_BENCH_QUEUES:-1 2}" \
		NICTL_BENCH_LOADS="${NICTL_BENCH_LOADS:-udp tcp flood}" \
		NICTL_BENCH_MODES="${NICTL_BENCH_MODES:-bound steer manual-all manual-queue}" \
		bench/steer-guest.sh >/dev/null ||
		die "the guest job failed; see $out/console.log"
	report
}

main
