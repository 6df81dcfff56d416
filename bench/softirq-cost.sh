#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark: what always-on NET_RX softirq accounting costs, nictl's native
# tracepoint probes against the eBPF tools operators use today. One guest
# runs a fixed NET_RX workload (UDP over a veth pair, one NET_RX run per
# datagram, bench/softirq-flood.c) four ways, round by round:
#   base      nictl loaded with stats=0 (no probe attached)
#   nictl     `nictlctl stats --on`, timed by the raw TSC
#   nictl-clock  the same, timed by local_clock() (no constant-rate TSC)
#   bpftrace  bench/softirq-netrx.bt, the seed's per-CPU histogram script
#   bcc       BCC's softirqs -d, when it runs
# The guest's clocks count executed instructions, 1 ns each (QEMU -icount):
# under TCG on a shared host real time varies by tens of percent from one
# second to the next, which buries a cost of tens of ns per softirq; the
# instruction count of a fixed workload does not vary, so the difference
# between two modes is what the probes add. The figures are instructions,
# not host nanoseconds: compare them with each other. See docs/benchmarks.md.
#
# Usage: bench/softirq-cost.sh [KREL] (default: the newest suite kernel).
# Debian's 6.1 does not boot under -icount with more than one vCPU in
# Debian 12's QEMU (it hangs bringing up the secondary CPUs), so only 6.12
# can be measured here; the probes are the same code on both.
# An arm64 kernel (6.12.117+deb12-arm64) is measured in the arm64 guest,
# with the flood cross-built and bpftrace from the arm64 root's bench
# flavour (selftests/vm/guest-root.sh ARCH bench): there is no TSC, so
# nictl-clock would repeat nictl, and BCC, which compiles against the
# kernel's headers in the guest, is left out; its default modes are
# "base nictl bpftrace".
# Environment: NICTL_BENCH_ROUNDS (3), NICTL_BENCH_COUNT (datagrams per
# timed run, 20000), NICTL_BENCH_REPEAT (timed runs per session, 5),
# NICTL_BENCH_MODES ("base nictl nictl-clock bpftrace bcc"). Needs root, like the
# guest runner; installs bpftrace and bpfcc-tools when missing, since the
# guest runs the host's root file system.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd -P)
krel=${1:-$("$top/scripts/kernels.sh" | tail -n 1)}
arch=$("$top/scripts/kernels.sh" "$krel" arch)
host_arch=$(dpkg --print-architecture)
out=$top/build/bench/softirq-cost-$krel

die() {
	echo "softirq-cost: $*" >&2
	exit 1
}

install_tools() {
	local pkg missing=()
	for pkg in bpftrace bpfcc-tools; do
		dpkg-query -W -f='${Status}\n' "$pkg" 2>/dev/null | grep -q ' installed$' ||
			missing+=("$pkg")
	done
	[ ${#missing[@]} -gt 0 ] || return 0
	echo "softirq-cost: installing ${missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >&2
	apt-get install -y -q --no-install-recommends "${missing[@]}" >&2 ||
		die "cannot install ${missing[*]}"
}

build() {
	make -C "$top" --no-print-directory test-modules ctl >/dev/null
	if [ "$arch" = "$host_arch" ]; then
		mkdir -p "$top/build/bench"
		cc -O2 -Wall -Wextra -Werror -o "$top/build/bench/softirq-flood" \
			"$top/bench/softirq-flood.c"
		kheaders
		return
	fi
	# The guest runs nictlctl and the flood of BUILD/ARCH (run-guest.sh).
	"$top/scripts/cross-userspace.sh" "$top/build" "$arch" >/dev/null
	mkdir -p "$top/build/$arch/bench"
	"$(dpkg-architecture -a"$arch" -qDEB_HOST_GNU_TYPE 2>/dev/null)-gcc" -O2 -Wall -Wextra \
		-Werror -o "$top/build/$arch/bench/softirq-flood" "$top/bench/softirq-flood.c"
}

# BCC wants one headers tree; Debian ships the kernel's in two packages
# (arch and common), which the module build unpacked into the cache. A
# tree of symbolic links joins them, the arch's files over the common ones.
kheaders() {
	local src=${NICTL_CACHE:-/var/cache/nictl}/kernels/$krel/headers/usr/src
	local arch=$src/linux-headers-$krel common=$src/linux-headers-${krel%-amd64}-common
	kh=$top/build/bench/kheaders-$krel
	[ -f "$kh/include/linux/kconfig.h" ] && return
	[ -d "$arch" ] && [ -d "$common" ] || return 0
	rm -rf "$kh" && mkdir -p "$kh"
	cp -rs "$common/." "$kh/" && cp -rsf --remove-destination "$arch/." "$kh/"
}

# The guest's result lines of one kind.
lines() {
	tr -d '\r' <"$out/console.log" | grep "^$1 " || true
}

# Per mode, one line: "<mode> <sessions> <NET_RX runs per datagram> <median
# ns per datagram> <min> <max> <runs the tool saw / runs counted, lowest>".
summarize() {
	{
		lines NETRX
		lines RUN
		lines SEEN
	} | awk '
		$1 == "NETRX" { sessions[$3]++; runs[$3] += $4; sent[$3] += $5; next }
		$1 == "RUN" { k = $3; n[k]++; v[k, n[k]] = $5 / $4; next }
		$1 == "SEEN" { r = $5 ? $4 / $5 : 0; if (!($3 in seen) || r < seen[$3]) seen[$3] = r }
		END {
			for (k in sessions) {
				m = n[k]
				for (i = 1; i <= m; i++)
					for (j = i + 1; j <= m; j++)
						if (v[k, j] < v[k, i]) { t = v[k, i]; v[k, i] = v[k, j]; v[k, j] = t }
				med = m % 2 ? v[k, (m + 1) / 2] : (v[k, m / 2] + v[k, m / 2 + 1]) / 2
				printf "%s %d %.4f %.1f %.1f %.1f %s\n", k, sessions[k], runs[k] / sent[k],
					med, v[k, 1], v[k, m], k in seen ? sprintf("%.3f", seen[k]) : "-"
			}
		}'
}

report() {
	local sum config
	sum=$(summarize)
	config=$(lines CONFIG | head -n 1)
	[ -n "$config" ] && [ -n "$sum" ] || die "no results; see $out/console.log"
	read -r _ rounds count repeat cpu <<<"$config"
	echo "kernel $krel, QEMU -icount (1 instruction = 1 ns of guest time), $rounds rounds of"
	echo "$repeat x $count datagrams per mode on CPU $cpu; median and range over the timed runs"
	echo
	echo "| mode | NET_RX runs per datagram | ns per datagram | range | added per NET_RX run, ns | added, % of the workload | tool saw / NET_RX runs |"
	echo "| --- | --- | --- | --- | --- | --- | --- |"
	awk -v order="base nictl nictl-clock bpftrace bcc" '
		{ row[$1] = $0; rx[$1] = $3; ns[$1] = $4 }
		END {
			if (!("base" in row)) exit 1
			split(order, modes, " ")
			for (i = 1; i in modes; i++) {
				k = modes[i]
				if (!(k in row)) continue
				split(row[k], f, " ")
				# Counted instructions repeat to a few per mille: a wider
				# range means other work ran on the CPU in some runs.
				if (f[6] > 1.05 * f[5])
					spread = spread " " k
				add = (ns[k] - ns["base"]) / rx[k]
				printf "| %s | %.3f | %.0f | %.0f-%.0f | %s | %s | %s |\n", k, rx[k], ns[k], f[5], f[6],
					k == "base" ? "-" : sprintf("%+.0f", add),
					k == "base" ? "-" : sprintf("%+.2f", 100 * (ns[k] - ns["base"]) / ns["base"]),
					f[7]
			}
			if (spread != "") {
				printf "\nno verdict: the runs of%s spread over more than 5 %% (the range", spread
				printf " above), so something besides the workload ran; rerun them\n"
				exit 0
			}
			if (!("nictl" in row) || !("bpftrace" in row)) exit 0
			n = (ns["nictl"] - ns["base"]) / rx["nictl"]
			b = (ns["bpftrace"] - ns["base"]) / rx["bpftrace"]
			pct = 100 * (ns["nictl"] - ns["base"]) / ns["base"]
			printf "\nnictl adds %.0f ns per NET_RX run, bpftrace %.0f: nictl / bpftrace = %.2f", n, b, n / b
			printf " (target <= 0.33: %s); nictl adds %.2f %% to the workload (target < 2 %%: %s)\n",
				n / b <= 1 / 3 ? "met" : "MISSED", pct, pct < 2 ? "met" : "MISSED"
		}' <<<"$sum"
	lines CLOCK | sort -u | awk '{ print "clock of mode " $2 ": " $3 }'
	lines SKIP | sed 's/^SKIP /not measured: /'
	lines FAIL | sed 's/^FAIL /failed: /'
}

main() {
	[ "$(id -u)" -eq 0 ] || die "must run as root (guest network namespace, packages)"
	local modes="base nictl nictl-clock bpftrace bcc" root=
	if [ "$arch" = "$host_arch" ]; then
		install_tools
	else
		modes="base nictl bpftrace" root=bench
	fi
	build
	NICTL_VM_ICOUNT=1 NICTL_VM_QUIET=1 NICTL_VM_TIMEOUT=${NICTL_VM_TIMEOUT:-1800} \
		NICTL_VM_ROOT=$root \
		"$top/selftests/vm/run-guest.sh" "$krel" "$out" \
		env NICTL_BENCH_ROUNDS="${NICTL_BENCH_ROUNDS:-3}" \
		NICTL_BENCH_COUNT="${NICTL_BENCH_COUNT:-20000}" \
		NICTL_BENCH_REPEAT="${NICTL_BENCH_REPEAT:-5}" \
		NICTL_BENCH_MODES="${NICTL_BENCH_MODES:-$modes}" \
		NICTL_BENCH_KHEADERS="${kh:-}" \
		bench/softirq-cost-guest.sh >/dev/null ||
		die "the guest failed; see $out/console.log"
	report
}

main
