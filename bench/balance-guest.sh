#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest half of bench/balance.sh, in the suite guest: a skewed receive load
# on the two NICs of NUMA node 1 (CPUs 4-7, 2 cores x 2 threads), vnode1
# (virtio-net, 2 queue pairs) and igb0 (igb, 8 queue pairs): 10 queue
# groups for 4 CPUs. vnode0 goes into a network namespace "peer" and sends
# through the host's bridge: 198.18.0.0/24 to vnode1 (198.18.0.2),
# 198.18.1.0/24 to igb0 (198.18.1.2). e1k, which nothing here needs, is down.
#
# One UDP flow per queue, each an iperf3 client in the peer (CPUs 1-3) to a
# server of its own on node 1. Which queue a flow lands on is the hash's
# choice (tap's over the 4-tuple, igb's RSS over the addresses), so the
# guest first finds, for each queue, a source address and port that land
# there (a few probe datagrams, the NIC's per-queue counters). Flows are
# heavy ($HEAVY) or light ($LIGHT):
#   load A  heavy on vnode1 queue 0 and igb0 queues 0, 1, 2
#   load B  heavy on vnode1 queue 1 and igb0 queues 5, 6, 7
# A mode in $SWAP_MODES runs load A for the first half of its measurement
# and load B for the second, whose part after the mode's settling time is
# also reported apart; the others run load A.
#
# Modes, each from the IRQs as the drivers left them (saved at the start and
# written back after each mode, after `nictlctl restore`):
#   driver      nothing
#   bound       nictlctl bind DEV --numa-local --allow-siblings, each NIC
#   irqbalance  Debian's irqbalance, `irqbalance --foreground` as its
#               systemd unit runs it, default settings, for its whole mode
#   balance     nictlctl balance vnode1 igb0 --numa-local --allow-siblings
#               --window 5, once, under load A
#   daemon      nictlctl daemon -f with balance = yes for both NICs
# Each mode: the traffic starts, the mode's policy is applied, $SETTLE s
# (per mode: irqbalance gets three of its 10 s intervals, the daemon two of
# its 20 s balance intervals), then the measurement: $SECONDS_SHORT s for
# driver, bound and balance, $SECONDS_LONG s for irqbalance and daemon.
#
# An IRQ move is a change of a queue IRQ's /proc/irq/N/smp_affinity_list
# between two samples a second apart (each IRQ counts: virtio-net's rx and
# tx IRQs of a queue pair are two).
#
# Prints per mode and load phase "RESULT <mode> <phase> <ms> <rx packets,
# both NICs> <drops: backlog + NICs' rx_dropped and rx_missed_errors> <UDP
# receive errors> <moves while settling> <moves while measured> <NET_RX ns
# of CPU 0> ... of the last CPU", "QUEUES <mode> <phase> <dev:queue=ms@cpus
# ...>" (each queue's NAPI time and the CPUs its NAPI ran on) and "FLOWS"
# once (each queue's source address and port).
set -euo pipefail

SECONDS_SHORT=${NICTL_BENCH_SECONDS:-60}
SECONDS_LONG=${NICTL_BENCH_LONG_SECONDS:-300}
MODES=${NICTL_BENCH_MODES:-driver bound irqbalance balance daemon}
SWAP_MODES=${NICTL_BENCH_SWAP_MODES:-irqbalance daemon}
HEAVY=${NICTL_BENCH_HEAVY:-8M}
LIGHT=${NICTL_BENCH_LIGHT:-100K}
IRQBALANCE=${NICTL_IRQBALANCE:-/var/cache/nictl/bench/irqbalance/usr/sbin/irqbalance}
NICS="vnode1 igb0"
PEER_NIC=vnode0
SEND_CPUS=1-3
APP_CPUS=4-7
# Per queue group: NIC, queue, server port, kind under load A, under load B.
SLOTS="vnode1 0 5201 H L
vnode1 1 5202 L H
igb0 0 5203 H L
igb0 1 5204 H L
igb0 2 5205 H L
igb0 3 5206 L L
igb0 4 5207 L L
igb0 5 5208 L H
igb0 6 5209 L H
igb0 7 5210 L H"
CTL=$NICTL_CTL

log() {
	echo "balance: $*"
}

fail() {
	log "$*"
	exit 1
}

in_peer() {
	ip netns exec peer "$@"
}

subnet() {
	case $1 in
	vnode1) echo 198.18.0 ;;
	igb0) echo 198.18.1 ;;
	esac
}

setup_network() {
	local nic net peer_mac k
	[ ! -e /sys/class/net/e1k ] || ip link set e1k down
	"$CTL" bind $PEER_NIC --numa-local >/dev/null
	peer_mac=$(cat /sys/class/net/$PEER_NIC/address)
	ip netns add peer
	ip link set $PEER_NIC netns peer
	in_peer ip link set lo up
	in_peer ip link set $PEER_NIC up
	for nic in $NICS; do
		net=$(subnet "$nic")
		in_peer ip addr add "$net.1/24" dev $PEER_NIC
		ip addr add "$net.2/24" dev "$nic"
		ip link set "$nic" up
		in_peer ip neigh replace "$net.2" dev $PEER_NIC nud permanent \
			lladdr "$(cat "/sys/class/net/$nic/address")"
		# The candidate sources of the flows, with permanent neighbours:
		# no ARP in the measured windows.
		for k in $(seq 10 89); do
			in_peer ip addr add "$net.$k/24" dev $PEER_NIC
			ip neigh replace "$net.$k" dev "$nic" lladdr "$peer_mac" nud permanent
		done
	done
	# igb brings its link up after a while.
	for k in $(seq 1 30); do
		[ "$(cat /sys/class/net/igb0/operstate)" != up ] || break
		sleep 1
	done
}

# Send $5 datagrams of 64 bytes from $1:$2 to $3:$4, in the peer.
probe() {
	in_peer python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((sys.argv[1], int(sys.argv[2])))
for _ in range(int(sys.argv[5])):
    s.sendto(b"p" * 64, (sys.argv[3], int(sys.argv[4])))
' "$@"
}

# Each rx queue's packet count of NIC $1 as nictl's NAPI accounting has it
# (ethtool -S names the counters differently per driver and kernel), one
# "queue count" a line.
queue_packets() {
	"$CTL" stats "$1" -j |
		jq -r '[.queues[] | select(.queue != null)] | group_by(.queue)[]
			| "\(.[0].queue) \(map(.packets) | add)"'
}

# The queue that 30 datagrams from $2:$3 to NIC $1's port $4 landed on,
# or nothing when no queue saw most of them. The guest may take a while to
# poll them on a busy host: up to 4 s.
landing_queue() {
	local nic=$1 before after i
	before=$(queue_packets "$nic")
	probe "$2" "$3" "$(subnet "$nic").2" "$4" 30
	for i in $(seq 20); do
		sleep 0.2
		after=$(queue_packets "$nic")
		printf '%s\n%s\n' "$before" "$after" | awk '
			NR <= n0 { was[$1] = $2; next }
			{ got += $2 - was[$1] }
			END { exit !(got >= 25) }' n0="$(echo "$before" | wc -l)" && break
		[ "$i" -lt 20 ] || return 0
	done
	printf '%s\n%s\n' "$before" "$after" | awk '
		NR <= n0 { was[$1] = $2; next }
		$2 - was[$1] >= 25 { print $1; exit }' n0="$(echo "$before" | wc -l)"
}

# For each slot, a source address and port that land on its queue:
# /tmp/flows holds "nic queue port A B source sport" a line.
find_sources() {
	local nic queue port a b k net q found
	: >/tmp/flows
	for nic in $NICS; do
		[ -n "$(queue_packets "$nic")" ] ||
			fail "no per-queue packet counts in nictlctl stats $nic -j"
	done
	while read -r nic queue port a b; do
		net=$(subnet "$nic")
		found=
		for k in $(seq 10 89); do
			grep -q " $net.$k " /tmp/flows && continue
			q=$(landing_queue "$nic" "$net.$k" $((20000 + k)) "$port")
			if [ "$q" = "$queue" ]; then
				found=$k
				break
			fi
		done
		[ -n "$found" ] || fail "no source lands on $nic queue $queue"
		echo "$nic $queue $port $a $b $net.$found $((20000 + found))" >>/tmp/flows
	done <<EOF
$SLOTS
EOF
	echo "FLOWS $(awk '{ printf "%s:%s=%s:%s ", $1, $2, $6, $7 }' /tmp/flows)"
}

start_servers() {
	local nic queue port rest
	while read -r nic queue port rest; do
		taskset -c $APP_CPUS iperf3 -s -p "$port" >/dev/null 2>&1 &
		servers="$servers $!"
	done </tmp/flows
	while read -r nic queue port rest; do
		until ss -ltn | grep -q ":$port "; do sleep 0.1; done
	done </tmp/flows
}

# Run load phase $1 (A or B) for $2 s, in the background: clients' PIDs in $clients.
start_load() {
	local col=4 nic queue port a b src sport kind rate
	[ "$1" = A ] || col=5
	clients=
	while read -r nic queue port a b src sport; do
		kind=$a
		[ $col = 4 ] || kind=$b
		rate=$LIGHT
		[ "$kind" = L ] || rate=$HEAVY
		in_peer taskset -c $SEND_CPUS iperf3 -c "$(subnet "$nic").2" -p "$port" -u \
			-b "$rate" -t "$2" -B "$src" --cport "$sport" \
			>"/tmp/iperf3-$port.txt" 2>&1 &
		clients="$clients $!"
	done </tmp/flows
}

wait_load() {
	local pid
	for pid in $clients; do
		wait "$pid" || log "an iperf3 client failed: $(cat /tmp/iperf3-*.txt | grep -i error | head -n 1)"
	done
	clients=
	sleep 1
}

# A few datagrams into every queue: an IRQ's move takes effect at its next interrupt.
fire_irqs() {
	local nic queue port a b src sport
	while read -r nic queue port a b src sport; do
		probe "$src" "$sport" "$(subnet "$nic").2" "$port" 5
	done </tmp/flows
}

# The queue IRQs of both NICs.
queue_irqs() {
	local nic
	for nic in $NICS; do
		"$CTL" show "$nic" -j | jq -r '.[0].irqs[].irq'
	done
}

# Each queue IRQ's affinity and effective CPUs, "irq:list/list ...".
placement() {
	local irq a e
	for irq in $irqs; do
		read -r a <"/proc/irq/$irq/smp_affinity_list"
		read -r e <"/proc/irq/$irq/effective_affinity_list"
		printf '%s:%s/%s ' "$irq" "$a" "$e"
	done
}

save_driver_state() {
	local irq
	irqs=$(queue_irqs | tr '\n' ' ')
	for irq in $irqs; do
		echo "$irq $(cat "/proc/irq/$irq/smp_affinity_list")"
	done >/tmp/driver-affinity
	log "queue IRQs as the drivers left them (irq:cpus):" \
		"$(awk '{ printf "%s:%s ", $1, $2 }' /tmp/driver-affinity)"
}

back_to_driver_state() {
	local nic irq list
	for nic in $NICS; do
		"$CTL" restore "$nic" >/dev/null 2>&1 || true
	done
	while read -r irq list; do
		echo "$list" >"/proc/irq/$irq/smp_affinity_list" ||
			log "cannot write back IRQ $irq's affinity $list"
	done </tmp/driver-affinity
	# irqbalance also moved the sender's IRQs.
	"$CTL" -n peer bind $PEER_NIC --numa-local >/dev/null ||
		log "cannot bind $PEER_NIC back to node 0"
	fire_irqs
}

# Counts changes of the queue IRQs' smp_affinity_list, once a second, into
# /tmp/moves (cumulative) until killed. Builtins only: a fork per IRQ and
# second would lag seconds behind under TCG.
move_sampler() {
	local irq n=0 i v
	local -a prev cur
	for irq in $irqs; do
		read -r v <"/proc/irq/$irq/smp_affinity_list"
		prev+=("$v")
	done
	while :; do
		sleep 1
		cur=()
		for irq in $irqs; do
			read -r v <"/proc/irq/$irq/smp_affinity_list"
			cur+=("$v")
		done
		for i in "${!cur[@]}"; do
			[ "${cur[$i]}" = "${prev[$i]}" ] || n=$((n + 1))
		done
		prev=("${cur[@]}")
		echo $n >/tmp/moves.new
		mv /tmp/moves.new /tmp/moves
	done
}

moves() {
	cat /tmp/moves 2>/dev/null || echo 0
}

# Frames the backlog queues dropped on all CPUs so far (softnet_stat's 2nd column, hex).
backlog_drops() {
	local n=0 dropped
	while read -r _ dropped _; do
		n=$((n + 0x$dropped))
	done </proc/net/softnet_stat
	echo $n
}

nic_counter() {
	local n=0 nic
	for nic in $NICS; do
		n=$((n + $(cat "/sys/class/net/$nic/statistics/$1")))
	done
	echo $n
}

# "<rx packets> <drops> <UDP receive errors> <moves>" so far.
counters() {
	echo "$(nic_counter rx_packets)" \
		"$(($(backlog_drops) + $(nic_counter rx_dropped) + $(nic_counter rx_missed_errors)))" \
		"$(awk '$1 == "Udp:" && $2 ~ /^[0-9]/ { print $4 }' /proc/net/snmp)" \
		"$(moves)"
}

# A checkpoint $1: counters, time, and the stats of all CPUs and of each NIC's queues.
checkpoint() {
	local nic
	counters >"/tmp/cp-$1"
	date +%s%N >>"/tmp/cp-$1"
	"$CTL" stats -j >"/tmp/cp-$1.cpus"
	for nic in $NICS; do
		"$CTL" stats "$nic" -j >"/tmp/cp-$1.$nic"
		"$CTL" show "$nic" -j >"/tmp/cp-$1.$nic.show"
	done
}

# The RESULT and QUEUES lines of phase $2 of mode $1, from checkpoint $3 to $4,
# with the moves while settling $5.
result() {
	local rx0 drop0 udp0 mv0 t0 rx1 drop1 udp1 mv1 t1 cpus queues nic
	{ read -r rx0 drop0 udp0 mv0; read -r t0; } <"/tmp/cp-$3"
	{ read -r rx1 drop1 udp1 mv1; read -r t1; } <"/tmp/cp-$4"
	cpus=$(jq -r -n --slurpfile a "/tmp/cp-$3.cpus" --slurpfile b "/tmp/cp-$4.cpus" \
		'[range($b[0].cpus | length) as $i | $b[0].cpus[$i].net_rx.time_ns - $a[0].cpus[$i].net_rx.time_ns]
		| map(tostring) | join(" ")')
	echo "RESULT $1 $2 $(((t1 - t0) / 1000000)) $((rx1 - rx0)) $((drop1 - drop0))" \
		"$((udp1 - udp0)) $5 $((mv1 - mv0)) $cpus"
	queues=
	for nic in $NICS; do
		queues="$queues $(jq -r -n --arg nic "$nic" --slurpfile a "/tmp/cp-$3.$nic" \
			--slurpfile b "/tmp/cp-$4.$nic" --slurpfile s "/tmp/cp-$4.$nic.show" '
			[$b[0].queues[] | select(.queue != null) as $q
			| ([$a[0].queues[] | select(.napi_id == $q.napi_id)] | first
				// {time_ns: 0, packets: 0}) as $o
			| ([$s[0][0].irqs[] | select(.queue == $q.queue and .kind != "tx")
				| .effective_list] | first // "?") as $cpu
			| "\($nic):\($q.queue)=\((($q.time_ns - $o.time_ns) / 1000000) | floor)ms" +
				"/\($q.packets - $o.packets)p@\($cpu)"]
			| join(" ")')"
	done
	echo "QUEUES $1 $2$queues"
}

write_daemon_conf() {
	local nic
	for nic in $NICS; do
		cat <<EOF
[rule $nic]
match-name = $nic
cpus = numa-local
allow-siblings = yes
balance = yes
balance-interval = 20
balance-threshold = 10

EOF
	done >/tmp/balance.conf
}

# Apply mode $1's policy; a process it leaves running goes in $policy_pid.
apply() {
	local nic
	case $1 in
	driver) ;;
	bound)
		for nic in $NICS; do
			"$CTL" bind "$nic" --numa-local --allow-siblings >/dev/null
		done
		;;
	irqbalance)
		"$IRQBALANCE" --foreground >/tmp/irqbalance.log 2>&1 &
		policy_pid=$!
		;;
	balance)
		# The command measures for its window: all flows must be up.
		sleep 10
		# shellcheck disable=SC2086 # the NICs, one a word
		"$CTL" balance $NICS --numa-local --allow-siblings --window 5 >/tmp/balance.out 2>&1 ||
			log "nictlctl balance failed: $(tail -n 3 /tmp/balance.out)"
		sed 's/^/balance: | /' /tmp/balance.out
		;;
	daemon)
		write_daemon_conf
		"$CTL" daemon -f -c /tmp/balance.conf >/tmp/daemon.log 2>&1 &
		policy_pid=$!
		;;
	esac
}

stop_policy() {
	[ -n "$policy_pid" ] || return 0
	kill "$policy_pid" 2>/dev/null || true
	wait "$policy_pid" 2>/dev/null || true
	policy_pid=
	case $1 in
	irqbalance) tail -n 5 /tmp/irqbalance.log | sed 's/^/balance: irqbalance | /' ;;
	daemon) grep -i -E 'balanc|error|warn' /tmp/daemon.log | tail -n 20 | sed 's/^/balance: daemon | /' || true ;;
	esac
}

settle_time() {
	case $1 in
	driver | bound) echo 5 ;;
	balance) echo 5 ;;
	irqbalance) echo 30 ;;
	daemon) echo 45 ;;
	esac
}

measure_time() {
	case $1 in
	irqbalance | daemon) echo "$SECONDS_LONG" ;;
	*) echo "$SECONDS_SHORT" ;;
	esac
}

run_mode() {
	local mode=$1 settle secs half swap=no mv_start mv_settle
	settle=$(settle_time "$mode")
	secs=$(measure_time "$mode")
	case " $SWAP_MODES " in *" $mode "*) swap=yes ;; esac
	half=$((secs / 2))
	log "mode $mode: ${settle} s to settle, $secs s measured, load changes half-way: $swap"
	mv_start=$(moves)
	# balance's apply waits for the flows and measures: 10 + 5 s more load.
	[ "$mode" != balance ] || settle=$((settle + 15))
	if [ $swap = yes ]; then
		start_load A $((settle + half))
	else
		start_load A $((settle + secs))
	fi
	[ "$mode" != balance ] || settle=$((settle - 15))
	apply "$mode"
	sleep "$settle"
	log "$mode: queue IRQs now (irq:affinity/effective): $(placement)"
	checkpoint start
	read -r _ _ _ mv_settle <"/tmp/cp-start"
	mv_settle=$((mv_settle - mv_start))
	wait_load
	checkpoint a
	log "$mode: queue IRQs after load A: $(placement)"
	result "$mode" A start a "$mv_settle"
	if [ $swap = yes ]; then
		start_load B $((secs - half))
		# The same time to settle again after the change, measured apart.
		sleep "$settle"
		checkpoint b1
		wait_load
		checkpoint b
		log "$mode: queue IRQs after load B: $(placement)"
		result "$mode" B a b 0
		result "$mode" "B-after-${settle}s" b1 b 0
		result "$mode" all start b "$mv_settle"
	fi
	stop_policy "$mode"
	back_to_driver_state
	sleep 2
}

servers='' clients='' policy_pid='' sampler=''
# Nothing may keep the results folder busy when the guest powers off.
trap 'kill $servers $clients $policy_pid $sampler 2>/dev/null || true' EXIT

insmod "$NICTL_KO"
command -v iperf3 >/dev/null || fail "iperf3 is not installed"
for mode in $MODES; do
	[ "$mode" != irqbalance ] || [ -x "$IRQBALANCE" ] || fail "no $IRQBALANCE"
done
"$CTL" stats --on
setup_network
log "kernel $(uname -r), node 1 CPUs $(cat /sys/devices/system/node/node1/cpulist)," \
	"heavy $HEAVY, light $LIGHT; modes $MODES"
find_sources
start_servers
save_driver_state
move_sampler &
sampler=$!
fire_irqs
sleep 2
for mode in $MODES; do
	run_mode "$mode"
done
log "UDP counters at the end: $(grep '^Udp:' /proc/net/snmp | tr '\n' ' ')"
# Whose NET_RX time the CPUs of node 0 ran (the "other CPUs" of the table).
log "NET_RX of node 0's CPUs since the start, ms (NAPI / backlog / other):" \
	"$("$CTL" stats -j | jq -r '[.cpus[] | select(.cpu < 4) | "CPU \(.cpu) " +
		"\(.net_rx_split.napi_ns / 1e6 | floor) / \(.net_rx_split.backlog_ns / 1e6 | floor)" +
		" / \(.net_rx_split.other_ns / 1e6 | floor)"] | join(", ")')"
log "$PEER_NIC's queues (peer namespace), NAPI ms @ CPUs:" \
	"$("$CTL" -n peer stats $PEER_NIC -j | jq -r '[.queues[] |
		"\(.queue)=\(.time_ns / 1e6 | floor)@\(.napi_cpus | map(tostring) | join(","))"] | join(" ")')"
