#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark: placing queue IRQs from measured load (`nictlctl balance` and
# the daemon's `balance = yes`) against the IRQs as the drivers left them,
# a static `nictlctl bind --numa-local`, and Debian's irqbalance. In one
# suite guest, the two NICs of NUMA node 1 (CPUs 4-7: 2 cores x 2 threads),
# vnode1 (virtio-net, 2 queue pairs) and igb0 (igb, 8 queue pairs), receive
# a skewed load: one UDP flow per queue from vnode0 in a network namespace
# of the guest, four heavy and six light, with the heavy ones moving to
# other queues half-way through the long modes (bench/balance-guest.sh says
# which). Per mode: each node-1 CPU's NET_RX time as nictl's accounting
# measured it and the busiest one's over their mean, packets per second
# both NICs received, drops, and how often the NICs' queue IRQs moved.
# A static placement cannot follow a load it does not measure; this shows
# whether measuring it pays, and what it costs in IRQ moves. Ratios between
# modes of one run are the result, not the absolute figures: under TCG
# every vCPU is a thread of a 2-core host. See docs/benchmarks.md.
#
# Usage: bench/balance.sh [KREL] (default: the newest suite kernel)
# Environment: NICTL_BENCH_MODES ("driver bound irqbalance balance daemon"),
# NICTL_BENCH_SECONDS (measured, per static mode: driver, bound, balance;
# 60), NICTL_BENCH_LONG_SECONDS (irqbalance and daemon; 300),
# NICTL_BENCH_SWAP_MODES (modes whose load changes half-way; "irqbalance
# daemon"), NICTL_BENCH_HEAVY and NICTL_BENCH_LIGHT (iperf3 -b of a flow;
# 8M, 100K), NICTL_BUILD (the build tree, default build/),
# NICTL_BENCH_REPORT=DIR (no run: print the report of the run in DIR).
# Needs root, like the guest runner. Installs iperf3 on the host when it is
# missing, since the guest runs the host's root file system over 9p, and
# unpacks Debian's irqbalance package (not installed: its scripts would
# start it on the host) under /var/cache/nictl/bench/irqbalance.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd -P)
# shellcheck source=bench/need-iperf3.sh
. "$top/bench/need-iperf3.sh"
krel=${1:-$("$top/scripts/kernels.sh" | tail -n 1)}
build=${NICTL_BUILD:-$top/build}
out=$build/bench/balance-$krel
irqbalance_dir=${NICTL_CACHE:-/var/cache/nictl}/bench/irqbalance

die() {
	echo "balance: $*" >&2
	exit 1
}

# The irqbalance package apt-get download left in the cache, the last in
# version order when there are several.
irqbalance_deb() {
	local f deb=
	for f in "$irqbalance_dir"/../irqbalance_*.deb; do
		[ ! -e "$f" ] || deb=$f
	done
	echo "$deb"
}

# Debian's irqbalance, unpacked, never installed: its maintainer scripts
# would start it on the host. The libraries it links are plain packages.
need_irqbalance() {
	local deb missing
	if [ ! -x "$irqbalance_dir/usr/sbin/irqbalance" ]; then
		echo "balance: fetching Debian's irqbalance into $irqbalance_dir" >&2
		mkdir -p "$irqbalance_dir"
		(cd "$irqbalance_dir/.." && apt-get download irqbalance >&2) ||
			die "cannot download irqbalance (apt-get update first?)"
		deb=$(irqbalance_deb)
		dpkg-deb -x "$deb" "$irqbalance_dir" || die "cannot unpack $deb"
	fi
	missing=$(ldd "$irqbalance_dir/usr/sbin/irqbalance" | awk '/not found/ { print $1 }')
	[ -z "$missing" ] && return
	echo "balance: installing the libraries irqbalance needs: $missing" >&2
	# shellcheck disable=SC2046 # the packages, one a word
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		$(dpkg-deb -f "$(irqbalance_deb)" Depends |
			tr ',' '\n' | sed 's/(.*//; s/ //g' | grep '^lib' | grep -v '^libc6$') >&2 ||
		die "cannot install irqbalance's libraries"
}

lines() {
	tr -d '\r' <"$out/console.log" | grep "^$1 " || true
}

# One row per mode and load phase, in the order the guest ran them; then
# the queues' NAPI time and whether `balance` met the goals.
report() {
	local cpus
	cpus=$(lines balance: | sed -n 's/.*node 1 CPUs \([0-9]*-[0-9]*\),.*/\1/p' | head -n 1)
	if [ -z "$cpus" ] || [ -z "$(lines RESULT)" ]; then
		die "no results; see $out/console.log"
	fi
	lines balance: | sed 's/^balance: //'
	echo
	echo "| mode | load | s measured | NET_RX time share, CPUs $cpus | max / mean |" \
		"node 1 NET_RX ms | other CPUs' NET_RX ms | packets/s | drops | UDP receive errors |" \
		"IRQ moves settling | IRQ moves measured |"
	echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
	lines RESULT | awk -v lo="${cpus%-*}" -v hi="${cpus#*-}" '
		{
			mode = $2; phase = $3; ms = $4
			all = 0; top = 0; other = 0
			for (c = 0; 10 + c <= NF; c++) {
				ns = $(10 + c)
				if (c < lo || c > hi) { other += ns; continue }
				t[c] = ns; all += ns
				if (ns > top) top = ns
			}
			shares = ""
			for (c = lo; c <= hi; c++)
				shares = shares (c > lo ? " / " : "") \
					sprintf("%.0f", all ? 100 * t[c] / all : 0)
			ratio = all ? top * (hi - lo + 1) / all : 0
			printf "| %s | %s | %.0f | %s %% | %.2f | %.0f | %.0f | %.0f | %d | %d | %d | %d |\n",
				mode, phase, ms / 1000, shares, ratio, all / 1e6, other / 1e6,
				ms ? $5 * 1000 / ms : 0, $6, $7, $8, $9
			if (phase == "A")
				ra[mode] = ratio
			if (phase ~ /^B-after/)
				rb[mode] = ratio
			if (phase == "A" || phase == "all") {
				mv[mode] = $8 + $9; sec[mode] = ms / 1000
			}
		}
		END {
			print ""
			if ("balance" in ra) {
				printf "balance: max / mean %.2f (goal <= 1.25: %s)", ra["balance"],
					ra["balance"] <= 1.25 ? "met" : "MISSED"
				if ("bound" in ra)
					printf "; below bound'"'"'s %.2f: %s", ra["bound"],
						ra["balance"] < ra["bound"] ? "met" : "MISSED"
				if ("irqbalance" in ra)
					printf "; below irqbalance'"'"'s %.2f under the same load A: %s",
						ra["irqbalance"], ra["balance"] < ra["irqbalance"] ? "met" : "MISSED"
				print ""
			}
			if ("daemon" in ra) {
				printf "daemon: max / mean %.2f under load A, %s under load B once settled" \
					" (goal <= 1.25: %s)",
					ra["daemon"], "daemon" in rb ? sprintf("%.2f", rb["daemon"]) : "-",
					ra["daemon"] <= 1.25 && (!("daemon" in rb) || rb["daemon"] <= 1.25) ? \
					"met" : "MISSED"
				if ("irqbalance" in ra)
					printf "; IRQ moves %d in %.0f s measured plus settling, irqbalance %d in %.0f s" \
						" (goal fewer: %s)", mv["daemon"], sec["daemon"], mv["irqbalance"],
						sec["irqbalance"], mv["daemon"] < mv["irqbalance"] ? "met" : "MISSED"
				print ""
			}
		}'
	echo
	echo "Each queue's NAPI time in ms @ the CPUs it ran on, per mode and load:"
	lines QUEUES | sed 's/^QUEUES /- /'
	echo
	lines FLOWS | sed 's/^FLOWS /Flows (queue=source:port): /'
}

main() {
	[ "$(id -u)" -eq 0 ] || die "must run as root (guest network namespace, packages)"
	need_iperf3 balance
	need_irqbalance
	make -C "$top" --no-print-directory BUILD="$build" test-modules ctl >/dev/null
	mkdir -p "$build/bench"
	NICTL_BUILD=$build NICTL_VM_QUIET=1 NICTL_VM_TIMEOUT=${NICTL_VM_TIMEOUT:-2400} \
		"$top/selftests/vm/run-guest.sh" "$krel" "$out" \
		env NICTL_BENCH_SECONDS="${NICTL_BENCH_SECONDS:-60}" \
		NICTL_BENCH_LONG_SECONDS="${NICTL_BENCH_LONG_SECONDS:-300}" \
		NICTL_BENCH_MODES="${NICTL_BENCH_MODES:-driver bound irqbalance balance daemon}" \
		NICTL_BENCH_SWAP_MODES="${NICTL_BENCH_SWAP_MODES:-irqbalance daemon}" \
		NICTL_BENCH_HEAVY="${NICTL_BENCH_HEAVY:-8M}" \
		NICTL_BENCH_LIGHT="${NICTL_BENCH_LIGHT:-100K}" \
		NICTL_IRQBALANCE="$irqbalance_dir/usr/sbin/irqbalance" \
		bench/balance-guest.sh >/dev/null ||
		die "the guest job failed; see $out/console.log"
	report
}

# NICTL_BENCH_REPORT=DIR: only the report, from the console of a run in DIR.
if [ -n "${NICTL_BENCH_REPORT:-}" ]; then
	out=$NICTL_BENCH_REPORT
	report
else
	main
fi
