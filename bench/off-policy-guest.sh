#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest half of bench/off-policy.sh, in the suite guest. While
# build/bench/bcast-flood sends broadcast frames out of vnode0, which the
# bridge floods into every other NIC, each of vnode1 (virtio-net, node 1)
# and igb0 (igb, node 1) goes through $ROUNDS rounds of each event
#   reload    PCI driver unbind + bind (then renamed back and brought up)
#   channels  ethtool -L combined 1, 2 s, then back to the count it had
# under each way of keeping it numa-local:
#   none            one `nictlctl bind`, nothing after (bound again before
#                   each round)
#   daemon          `nictlctl daemon`, a rule for the NIC with sticky = no
#   sticky          `nictlctl bind --sticky`, no daemon
# and once more held away from its node:
#   sticky-far      `nictlctl bind --cpus <the other node's CPUs> --sticky`:
#                   what the kernel picks at allocation (a CPU of the NIC's
#                   node) is off this policy, so every interrupt before the
#                   module's apply counts
# build/bench/off-policy counts each queue IRQ's interrupts per CPU in
# /proc/interrupts from before the event until the IRQs have been back on
# their placement for 2 s (or 8 s after the event, when they never are).
# Packets: a histogram trigger on the kernel's napi:napi_poll tracepoint
# adds up each poll's work per CPU and netdev name (nictl's own NAPI
# accounting gives a NAPI's packets and the set of CPUs it was polled on,
# not its packets per CPU). Prints
#   "RESULT <nic> <event> <mode> <round> <interrupts> <off policy>
#    <off target> <packets> <packets off policy> <their CPU:count,...>
#    <on policy again: yes|no> <ms from the event's end to on policy>"
#   "DETAIL <nic> <event> <mode> <round> <the helper's IRQ line>" for every
#    IRQ life with an interrupt off its target
#   "NA <nic> <event> <mode> <why>" for a mode this module cannot run.
set -eu

ROUNDS=${NICTL_BENCH_ROUNDS:-5}
PPS=${NICTL_BENCH_PPS:-1000}
NICS=${NICTL_BENCH_NICS:-vnode1 igb0}
MODES=${NICTL_BENCH_MODES:-none daemon sticky sticky-far}
SENDER=vnode0
HELPER=$NICTL_BUILD/bench/off-policy
FLOOD=$NICTL_BUILD/bench/bcast-flood
CONF=/tmp/off-policy.conf
NAPI=/sys/kernel/tracing/events/napi/napi_poll
NAPI_HIST='hist:keys=common_cpu,dev_name:vals=hitcount,work:size=2048'
WAIT_S=60

log() {
	echo "off-policy: $*"
}

fail() {
	log "$*"
	exit 1
}

# Run "$@" until it succeeds, once a second, for up to $WAIT_S s; false if it never did.
within() {
	end=$(($(date +%s) + WAIT_S))
	until "$@"; do
		[ "$(date +%s)" -lt $end ] || return 1
		sleep 1
	done
}

# The PCI function of netdev $1 (a virtio netdev's parent is a virtio device).
pci_of() {
	dev=$(readlink -f "/sys/class/net/$1/device")
	case ${dev##*/} in
	virtio*) dev=${dev%/*} ;;
	esac
	echo "$dev"
}

combined() {
	ethtool -l "$1" | awk '/^Current/ { now = 1 } now && /^Combined:/ { print $2; exit }'
}

placement_now() {
	"$HELPER" state "$bdf"
}

in_force() {
	[ "$(placement_now)" = "$placement" ]
}

link_up() {
	[ "$(cat "/sys/class/net/$nic/operstate")" = up ]
}

bind_once() {
	# shellcheck disable=SC2086 # $opts: one option per word
	out=$("$NICTL_CTL" bind "$nic" $opts "$@" 2>&1) ||
		fail "nictlctl bind $nic $opts $*: $out"
}

# The placement in force and the link up (traffic arriving) before a round.
# A mode that keeps the placement by itself was given a round to do so; it
# is bound again (and told) only when it did not.
prepare() {
	within link_up || fail "$nic: operstate $(cat "/sys/class/net/$nic/operstate"), want up"
	in_force && return
	case $mode in
	none) bind_once ;;
	daemon) log "$nic $event $mode: not on policy before a round, bound again"; bind_once ;;
	*) log "$nic $event $mode: not on policy before a round, bound again"; bind_once --sticky ;;
	esac
	in_force || fail "$nic: placement $(placement_now) after a bind, want $placement"
}

# Work by netdev name and CPU from the napi_poll histogram: "cpu name work" lines.
napi_work() {
	if [ "$packets" = yes ]; then
		awk '/^\{/ && match($0, /cpu: *[0-9]+/) {
			split(substr($0, RSTART, RLENGTH), c, ":")
			match($0, /dev_name: *[^ }]+/)
			split(substr($0, RSTART, RLENGTH), d, ": *")
			match($0, /work: *[0-9]+/)
			split(substr($0, RSTART, RLENGTH), w, ": *")
			print c[2] + 0, d[2], w[2]
		}' "$NAPI/hist"
	fi
}

# "<packets> <off policy> <by CPU>": the NAPI work of netdevs named in $1 (a
# comma list) between histograms $2 and $3, all of it, that on CPUs off
# $policy, and the latter per CPU ("2:40,3:7"; "-": none).
packets_between() {
	[ "$packets" = yes ] || { echo "- - -"; return; }
	awk -v names="$1" -v policy="$policy" -v first="$2" '
		BEGIN {
			n = split(names, a, ",")
			for (i = 1; i <= n; i++) want[a[i]] = 1
			n = split(policy, r, ",")
			for (i = 1; i <= n; i++) {
				if (split(r[i], b, "-") == 1) b[2] = b[1]
				for (c = b[1]; c <= b[2]; c++) on[c] = 1
			}
		}
		FILENAME == first { before[$1, $2] = $3; next }
		$2 in want {
			d = $3 - before[$1, $2]
			all += d
			if (!($1 in on) && d) {
				off += d
				by = by (by == "" ? "" : ",") $1 ":" d
			}
		}
		END { print all + 0, off + 0, by == "" ? "-" : by }' "$2" "$3"
}

# $ROUNDS rounds of $event on $nic under $mode.
cell() {
	case $event in
	reload) args="reload $driver" ;;
	channels) args="channels 1 $queues" ;;
	esac
	i=1
	while [ $i -le "$ROUNDS" ]; do
		prepare
		napi_work >/tmp/napi.before
		# shellcheck disable=SC2086 # $args: the event and its arguments
		"$HELPER" round "$bdf" "$nic" "$policy" "$placement" $args >/tmp/round.txt ||
			fail "$nic $event $mode round $i: the helper failed"
		napi_work >/tmp/napi.after
		[ "$(combined "$nic")" = "$queues" ] ||
			fail "$nic has $(combined "$nic") combined channels after the round, want $queues"
		read -r settled back names <<EOF
$(awk '$1 == "ROUND" { print $2, $4, $5 }' /tmp/round.txt)
EOF
		pkts=$(packets_between "$names" /tmp/napi.before /tmp/napi.after)
		irqs=$(awk '$1 == "IRQ" { n += $4; p += $5; t += $6 } END { print n + 0, p + 0, t + 0 }' \
			/tmp/round.txt)
		echo "RESULT $nic $event $mode $i $irqs $pkts $settled $back"
		awk -v head="DETAIL $nic $event $mode $i" '$1 == "IRQ" && $6 > 0 { print head, $0 }' \
			/tmp/round.txt
		cat /tmp/round.txt >>"/tmp/rounds-$nic.txt"
		i=$((i + 1))
	done
}

# Both events under $mode on $nic.
cells() {
	for event in reload channels; do
		cell
	done
}

# The NIC's facts: $bdf, $driver, $node, $policy (its node's CPUs), $queues, $opts.
use_nic() {
	nic=$1
	pci=$(pci_of "$nic")
	bdf=${pci##*/}
	driver=$(basename "$(readlink "$pci/driver")")
	node=$(cat "$pci/numa_node")
	policy=$(cat "/sys/devices/system/node/node$node/cpulist")
	queues=$(combined "$nic")
	placement=
	opts=--numa-local
	# igb0 has a queue pair per vCPU (8) and node 1 two cores: they share.
	[ "$nic" != igb0 ] || opts="$opts --allow-siblings"
}

run_none() {
	mode=none
	bind_once
	placement=$(placement_now)
	log "$nic = $bdf ($driver), $queues combined channels, policy CPUs $policy," \
		"placement $placement"
	cells
}

run_daemon() {
	mode=daemon
	siblings=no
	case $opts in *--allow-siblings*) siblings=yes ;; esac
	# What a plain bind places, when run_none did not find it.
	[ -n "$placement" ] || { bind_once; placement=$(placement_now); }
	cat >$CONF <<EOF
[rule bench]
match-mac = $(cat "/sys/class/net/$nic/address")
cpus = numa-local
allow-siblings = $siblings
sticky = no
EOF
	"$NICTL_CTL" restore "$nic" >/dev/null
	"$NICTL_CTL" daemon --foreground -c $CONF 2>>"/tmp/daemon-$nic.log" &
	daemon=$!
	within in_force || fail "$nic: placement $(placement_now) under the daemon, want $placement"
	cells
	kill -TERM $daemon
	wait $daemon || true
	daemon=
	"$NICTL_CTL" restore "$nic" >/dev/null
}

run_sticky() {
	mode=$1
	bind_once --sticky
	[ -n "$placement" ] || placement=$(placement_now)
	in_force || fail "$nic: placement $(placement_now) after bind --sticky, want $placement"
	cells
	"$NICTL_CTL" restore "$nic" >/dev/null
}

# The same, with the policy the other node's CPUs.
run_sticky_far() {
	policy=$(cat "/sys/devices/system/node/node$((1 - node))/cpulist")
	opts="--cpus $policy"
	# igb0's 8 queue pairs on the other node's two cores share them too.
	[ "$nic" != igb0 ] || opts="$opts --allow-siblings"
	bind_once --sticky
	placement=$(placement_now)
	log "$nic: held on CPUs $policy, placement $placement"
	cells
	"$NICTL_CTL" restore "$nic" >/dev/null
}

insmod "$NICTL_KO"
packets=yes
echo "$NAPI_HIST" >"$NAPI/trigger" 2>/dev/null || packets=no
log "kernel $(uname -r), watch_period_ms" \
	"$(cat /sys/module/nictl/parameters/watch_period_ms), $PPS frames/s out of $SENDER," \
	"packets counted: $packets"

daemon=
taskset -c 1 "$FLOOD" $SENDER "$PPS" &
flood=$!
# Nothing may keep the results folder busy when the guest powers off.
trap 'kill $flood $daemon 2>/dev/null || true' EXIT

# Whether mode $1 is one of $MODES.
wanted() {
	case " $MODES " in *" $1 "*) return 0 ;; esac
	return 1
}

for name in $NICS; do
	use_nic "$name"
	# sticky-far changes $policy and $opts: last.
	for mode in none daemon sticky sticky-far; do
		if wanted $mode; then
			case $mode in
			none) run_none ;;
			daemon) run_daemon ;;
			sticky) run_sticky sticky ;;
			sticky-far) run_sticky_far ;;
			esac
		fi
	done
done
kill $flood
cp /tmp/rounds-*.txt /tmp/daemon-*.log "$NICTL_RESULTS/" 2>/dev/null || true
