#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest half of bench/steer.sh, in the suite guest. vnode0 goes into a
# network namespace "peer" (198.18.0.1) and sends, through the host's
# bridge, into vnode1 (198.18.0.2, NUMA node 1: CPUs 4-7, 2 cores x 2
# threads), cut to $QUEUES queue pairs in turn. Loads, each $SECONDS s:
#   udp    iperf3 -u -b 0 -P 8 (servers' side on node 1)
#   tcp    iperf3 -P 8
#   flood  build/bench/bcast-flood at $PPS frames/s, 250 flows of small
#          broadcast UDP datagrams to a port nobody listens on
# Modes, all with vnode1's IRQs bound by `nictlctl bind --numa-local`:
#   bound         nothing else: the seeds' one hot CPU
#   steer         the bind with --steer
#   manual-all    seed 003's recipe by hand: every rx queue's rps_cpus = all
#                 CPUs (its "ffffffff"), rps_sock_flow_entries 32768,
#                 rps_flow_cnt 4096
#   manual-queue  seed 002's: rx queue q's rps_cpus = CPU q, rps_flow_cnt
#                 32768, tx queue q's xps_cpus = CPU q
# The modes take turns within each load and round, so a slow stretch of
# the shared host hits all of them alike. The sending side (vnode0's IRQs,
# the senders) stays on node 0; e1k and igb0, which broadcasts would
# reach, are down: node 1's NET_RX time is vnode1's receive work.
# Prints per cell "RESULT <queues> <load> <mode> <round> <ms> <rx packets>
# <drops: backlog + NIC> <UDP receive errors> <NET_RX ns of CPU 0> ... of
# the last CPU" and "MASKS <queues> <mode> <rx queue:rps_cpus ...>".
set -eu

DURATION=${NICTL_BENCH_SECONDS:-8}
ROUNDS=${NICTL_BENCH_ROUNDS:-2}
PPS=${NICTL_BENCH_PPS:-20000}
QUEUES=${NICTL_BENCH_QUEUES:-1 2}
LOADS=${NICTL_BENCH_LOADS:-udp tcp flood}
MODES=${NICTL_BENCH_MODES:-bound steer manual-all manual-queue}
NIC=vnode1
PEER_NIC=vnode0
SEND_CPUS=1-3
APP_CPUS=4-7
FLOOD=$NICTL_BUILD/bench/bcast-flood
ENTRIES=/proc/sys/net/core/rps_sock_flow_entries
QDIR=/sys/class/net/$NIC/queues

log() {
	echo "steer: $*"
}

fail() {
	log "$*"
	exit 1
}

in_peer() {
	ip netns exec peer "$@"
}

setup_network() {
	for nic in e1k igb0; do
		[ ! -e "/sys/class/net/$nic" ] || ip link set "$nic" down
	done
	"$NICTL_CTL" bind $PEER_NIC --numa-local >/dev/null
	peer_mac=$(cat /sys/class/net/$PEER_NIC/address)
	ip netns add peer
	ip link set $PEER_NIC netns peer
	in_peer ip link set lo up
	in_peer ip addr add 198.18.0.1/24 dev $PEER_NIC
	in_peer ip link set $PEER_NIC up
	ip addr add 198.18.0.2/24 dev $NIC
	ip link set $NIC up
	# Permanent neighbours: no ARP in the measured windows.
	ip neigh replace 198.18.0.1 dev $NIC lladdr "$peer_mac" nud permanent
	in_peer ip neigh replace 198.18.0.2 dev $PEER_NIC nud permanent \
		lladdr "$(cat /sys/class/net/$NIC/address)"
}

# The steering values by hand are put back from here after a manual mode.
save_steering() {
	saved=$(cat $ENTRIES)
	for f in "$QDIR"/*/rps_cpus "$QDIR"/*/rps_flow_cnt "$QDIR"/*/xps_cpus; do
		[ ! -e "$f" ] || echo "$f $(cat "$f")"
	done >/tmp/steering.saved
}

put_back_steering() {
	while read -r f v; do
		[ ! -e "$f" ] || echo "$v" >"$f"
	done </tmp/steering.saved
	echo "$saved" >$ENTRIES
}

# A mask of the CPUs from 0 to the last one online: seed 003's "all".
all_mask() {
	printf '%x' $(((1 << ($(nproc --all))) - 1))
}

apply() {
	steer=
	[ "$1" != steer ] || steer=--steer
	"$NICTL_CTL" bind $NIC --numa-local $steer >/dev/null
	case $1 in
	manual-all)
		for q in "$QDIR"/rx-*; do
			all_mask >"$q/rps_cpus"
			echo 4096 >"$q/rps_flow_cnt"
		done
		echo 32768 >$ENTRIES
		;;
	manual-queue)
		for q in "$QDIR"/rx-*; do
			printf '%x' $((1 << ${q##*-})) >"$q/rps_cpus"
			echo 32768 >"$q/rps_flow_cnt"
		done
		for q in "$QDIR"/tx-*; do
			printf '%x' $((1 << ${q##*-})) >"$q/xps_cpus"
		done
		;;
	esac
}

undo() {
	"$NICTL_CTL" restore $NIC >/dev/null
	case $1 in manual-*) put_back_steering ;; esac
}

# Frames the backlog queues dropped on all CPUs so far (softnet_stat's 2nd column, hex).
backlog_drops() {
	n=0
	while read -r _ dropped _; do
		n=$((n + 0x$dropped))
	done </proc/net/softnet_stat
	echo $n
}

# "<rx packets> <backlog + NIC drops> <UDP receive errors>" so far.
counters() {
	echo "$(cat /sys/class/net/$NIC/statistics/rx_packets)" \
		"$(($(backlog_drops) + $(cat /sys/class/net/$NIC/statistics/rx_dropped)))" \
		"$(awk '$1 == "Udp:" && $2 ~ /^[0-9]/ { print $4 }' /proc/net/snmp)"
}

# Run load $1 for $DURATION s.
load() {
	case $1 in
	flood)
		in_peer taskset -c $SEND_CPUS "$FLOOD" $PEER_NIC "$PPS" &
		sender=$!
		sleep "$DURATION"
		kill $sender
		wait $sender 2>/dev/null || true
		sender=
		;;
	udp | tcp)
		taskset -c $APP_CPUS iperf3 -s -1 -p 5201 >/tmp/iperf3-server.txt 2>&1 &
		server=$!
		until ss -ltn | grep -q ':5201 '; do sleep 0.1; done
		# shellcheck disable=SC2046 # the UDP options, one a word
		in_peer taskset -c $SEND_CPUS iperf3 -c 198.18.0.2 -p 5201 -P 8 -t "$DURATION" \
			$([ "$1" = tcp ] || echo -u -b 0) >/tmp/iperf3-client.txt 2>&1 ||
			fail "iperf3 $1: $(tail -n 3 /tmp/iperf3-client.txt)"
		wait $server || true
		server=
		;;
	esac
}

cell() {
	apply "$mode"
	# Frames to fire vnode1's IRQs, whose move takes effect at their next interrupt.
	in_peer timeout 1 "$FLOOD" $PEER_NIC 1000 || true
	read -r rx0 drop0 udp0 <<EOF
$(counters)
EOF
	"$NICTL_CTL" stats --reset
	t0=$(date +%s%N)
	load "$load"
	t1=$(date +%s%N)
	"$NICTL_CTL" stats -j >/tmp/stats.json
	read -r rx1 drop1 udp1 <<EOF
$(counters)
EOF
	echo "RESULT $queues $load $mode $round $(((t1 - t0) / 1000000)) $((rx1 - rx0))" \
		"$((drop1 - drop0)) $((udp1 - udp0))" \
		"$(jq -r '[.cpus[].net_rx.time_ns] | map(tostring) | join(" ")' /tmp/stats.json)"
	[ "$round" -gt 1 ] || [ "$load" != udp ] ||
		echo "MASKS $queues $mode $(for q in "$QDIR"/rx-*; do
			printf '%s:%s ' "${q##*/}" "$(cat "$q/rps_cpus")"; done)"
	undo "$mode"
}

insmod "$NICTL_KO"
command -v iperf3 >/dev/null || fail "iperf3 is not installed"
"$NICTL_CTL" stats --on
setup_network
log "kernel $(uname -r), node 1 CPUs $(cat /sys/devices/system/node/node1/cpulist)," \
	"$DURATION s per cell, $ROUNDS rounds, flood $PPS frames/s"
sender='' server=''
# Nothing may keep the results folder busy when the guest powers off.
trap 'kill $sender $server 2>/dev/null || true' EXIT
for queues in $QUEUES; do
	ethtool -L $NIC combined "$queues"
	save_steering
	round=1
	while [ $round -le "$ROUNDS" ]; do
		for load in $LOADS; do
			for mode in $MODES; do
				log "$queues queue pairs, round $round: $load, $mode"
				cell
			done
		done
		round=$((round + 1))
	done
done
