#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest half of bench/softirq-cost.sh, run in a guest whose clocks count
# executed instructions (run-guest.sh NICTL_VM_ICOUNT=1). The fixed workload,
# build/bench/softirq-flood over a veth pair pinned to $CPU, runs under each
# accounting mode in turn, for $ROUNDS rounds:
#   base      nictl loaded with stats=0: no probe attached
#   nictl     `nictlctl stats --on`: the module's tracepoint probes, timed
#             by the raw TSC, as on a host whose TSC is constant-rate
#             (fault_tsc_trusted=1: the emulated CPU does not say so)
#   nictl-clock  the same probes timed by local_clock(), the module's clock
#             where the TSC is not constant-rate
#   bpftrace  bench/softirq-netrx.bt, the seed's per-CPU histogram script
#   bcc       BCC's softirqs -d (softirqs-bpfcc)
# A tool is started before and stopped after the workload, so only what it
# costs while it runs is measured, not its start-up (LLVM, clang).
# Prints per session "NETRX <round> <mode> <NET_RX runs on $CPU> <datagrams
# sent>", "RUN <round> <mode> <datagrams> <ns>" for each of the flood's
# timed repeats, and "SEEN <round>
# <mode> <NET_RX runs the tool recorded> <NET_RX runs /proc/softirqs
# counted meanwhile>" (on $CPU, or on all CPUs for BCC, which has no
# per-CPU split). A mode that cannot run prints "SKIP <mode> <why>".
set -eu

ROUNDS=${NICTL_BENCH_ROUNDS:-3}
COUNT=${NICTL_BENCH_COUNT:-20000}
REPEAT=${NICTL_BENCH_REPEAT:-5}
MODES=${NICTL_BENCH_MODES:-base nictl nictl-clock bpftrace bcc}
FLOOD=$NICTL_BUILD/bench/softirq-flood
# The workload gets a CPU of its own; this script and the tools' user
# space stay on another.
CPU=5
TOOL_CPU=0
OUT=$NICTL_RESULTS

log() {
	echo "softirq-cost: $*"
}

# NET_RX runs so far: "<on $CPU> <on all CPUs>".
netrx_runs() {
	awk -v c=$((CPU + 2)) '$1 == "NET_RX:" {
		for (i = 2; i <= NF; i++) all += $i
		print $c, all }' /proc/softirqs
}

# A veth pair: vx1 in namespace "peer" sends, vx0 here receives. Permanent
# neighbour entries: no ARP traffic ever adds NET_RX runs to a window.
setup_network() {
	# The kernel's own module loading runs outside the job's chroot; the
	# guest's modprobe wrapper finds the modules where the host has no
	# /lib/modules at all.
	/run/nictl-modprobe veth
	ip netns add peer
	ip link add vx0 type veth peer name vx1 netns peer
	ip addr add 198.18.1.1/24 dev vx0
	ip link set vx0 up
	ip -n peer addr add 198.18.1.2/24 dev vx1
	ip -n peer link set vx1 up
	ip neigh replace 198.18.1.2 dev vx0 nud permanent \
		lladdr "$(ip -n peer -br link show vx1 | awk '{ print $3 }')"
	ip -n peer neigh replace 198.18.1.1 dev vx1 nud permanent \
		lladdr "$(ip -br link show vx0 | awk '{ print $3 }')"
}

# BCC compiles its programs against the running kernel's headers, which it
# looks for in /lib/modules/KREL/build; the guest's root has no such tree.
# The host half merges Debian's two headers packages (arch and common) into
# $NICTL_BENCH_KHEADERS, the one tree a headers install gives a real host.
bcc_headers() {
	[ -f "${NICTL_BENCH_KHEADERS:-/nonexistent}/include/linux/kconfig.h" ]
}

# Can mode $1 run here? Prints why not.
mode_ok() {
	case $1 in
	bpftrace)
		command -v bpftrace >/dev/null || { echo "bpftrace is not installed"; return 1; }
		;;
	bcc)
		[ -x /usr/sbin/softirqs-bpfcc ] || { echo "bpfcc-tools is not installed"; return 1; }
		bcc_headers || { echo "no headers of $(uname -r) in the cache for BCC"; return 1; }
		;;
	esac
}

# Wait up to $2 (guest) seconds for file $1 to show a line matching $3.
wait_for() {
	t=0
	until grep -q "$3" "$1" 2>/dev/null; do
		[ $t -lt $(($2 * 10)) ] || return 1
		sleep 0.1
		t=$((t + 1))
	done
}

# Load the module for mode $1: the nictl modes choose the probes' clock.
load_module() {
	rmmod nictl 2>/dev/null || true
	case $1 in
	nictl) insmod "$NICTL_KO" stats=0 fault_tsc_trusted=1 ;;
	*) insmod "$NICTL_KO" stats=0 ;;
	esac
}

TOOL_PID=
start_tool() {
	case $1 in
	nictl | nictl-clock)
		load_module "$1"
		echo "CLOCK $1 $(cat /sys/module/nictl/parameters/stats_clock)"
		"$NICTL_CTL" stats --reset
		"$NICTL_CTL" stats --on
		;;
	bpftrace)
		# env restores SIGINT, which sh ignores in background jobs.
		taskset -c $TOOL_CPU env --default-signal=INT \
			bpftrace -B none bench/softirq-netrx.bt >"$2" 2>&1 &
		TOOL_PID=$!
		wait_for "$2" 600 '^READY'
		;;
	bcc)
		taskset -c $TOOL_CPU env --default-signal=INT \
			BCC_KERNEL_SOURCE="$NICTL_BENCH_KHEADERS" \
			python3 -u /usr/sbin/softirqs-bpfcc -d >"$2" 2>&1 &
		TOOL_PID=$!
		wait_for "$2" 1200 '^Tracing soft irq'
		;;
	esac
}

# Stop the tool; Ctrl-C makes bpftrace and BCC print what they hold.
stop_tool() {
	case $1 in
	nictl | nictl-clock)
		"$NICTL_CTL" stats --off
		"$NICTL_CTL" stats --prometheus >"$2"
		load_module base
		;;
	bpftrace | bcc)
		kill -INT "$TOOL_PID"
		wait "$TOOL_PID" || true
		;;
	esac
}

# NET_RX runs tool $1 recorded in log $2: on $CPU (nictl, bpftrace) or on
# all CPUs (BCC).
tool_seen() {
	case $1 in
	nictl | nictl-clock)
		awk -v cpu="cpu=\"$CPU\"" '/^nictl_softirq_runs_total\{/ &&
			index($0, cpu) && /vec="net_rx"/ { n = $2 } END { print n + 0 }' "$2"
		;;
	bpftrace)
		awk -v key="@percpu[$CPU]:" '/^@/ { on = $1 == key }
			on && /^\[/ { sub(/^\[[^]]*[])] */, ""); n += $1 }
			END { print n + 0 }' "$2"
		;;
	bcc)
		awk '/^softirq = / { on = $3 == "net_rx" }
			on && /->/ { sub(/.*: */, ""); n += $1 }
			END { print n + 0 }' "$2"
		;;
	esac
}

# One session of mode $2 in round $1.
run_mode() {
	round=$1 mode=$2 tlog=$OUT/$2-$1.log
	start_tool "$mode" "$tlog"
	set -- $(netrx_runs)
	cpu0=$1 all0=$2
	taskset -c $CPU "$FLOOD" peer 198.18.1.1 "$COUNT" "$REPEAT" >"$OUT/flood.txt"
	set -- $(netrx_runs)
	cpu1=$1 all1=$2
	stop_tool "$mode" "$tlog"
	awk -v r="$round" -v m="$mode" -v n=$((cpu1 - cpu0)) '
		$1 == "warmup" { sent += $2; next }
		{ sent += $1; print "RUN", r, m, $1, $2 }
		END { print "NETRX", r, m, n, sent }' "$OUT/flood.txt"
	case $mode in
	nictl | nictl-clock | bpftrace) echo "SEEN $round $mode $(tool_seen "$mode" "$tlog") $((cpu1 - cpu0))" ;;
	bcc) echo "SEEN $round $mode $(tool_seen "$mode" "$tlog") $((all1 - all0))" ;;
	esac
}

main() {
	taskset -p -c $TOOL_CPU $$ >/dev/null
	log "kernel $(uname -r), clocksource" \
		"$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)," \
		"TSC flags:" $(grep -o -w -E 'constant_tsc|nonstop_tsc' /proc/cpuinfo | sort -u)
	load_module base
	setup_network
	runnable=
	for mode in $MODES; do
		if why=$(mode_ok "$mode"); then
			runnable="$runnable $mode"
		else
			echo "SKIP $mode $why"
		fi
	done
	echo "CONFIG $ROUNDS $COUNT $REPEAT $CPU"
	round=1
	while [ $round -le "$ROUNDS" ]; do
		for mode in $runnable; do
			log "round $round: $mode"
			run_mode $round "$mode"
		done
		round=$((round + 1))
	done
}

main
