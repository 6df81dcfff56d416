#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run by guest-suite.sh inside the big guest (NICTL_VM_PROFILE=big, see
# selftests/vm/run-guest.sh): 80 CPUs in 4 nodes, node 4 with
# memory and no CPU; bq64, a 64-queue virtio-net on node 2; nl4, on node 4.
# What must hold on such a machine, end to end through nictlctl and its
# JSON against /proc: CPU masks wider than one word, --numa-local with too
# few cores and with enough, the fallback to the nearest node, CPU hotplug
# above CPU 63, a stats table that stays within 80 columns, and the plans
# of bind --steer for 1, 2 and 4 queues on 2 and 4 cores as sysfs gets them.
# TAP on stdout; every test reports, none is skipped. Each test runs in a
# subshell with errexit: its first failing check ends it, failed.
# Environment: NICTL_CTL, NICTL_REPO (see guest-suite.sh); the module is loaded.
set -u

BIG=bq64
FAR=nl4
BIG_NODE=2
NEAREST_TO_4=2
SYSCPU=/sys/devices/system/cpu

# shellcheck source=selftests/lib/tap.sh
. "$NICTL_REPO/selftests/lib/tap.sh"

# Say why a check failed, as a TAP comment; fail (which ends the test).
why() {
	echo "# $*"
	return 1
}

# ctl ARG...: nictlctl with its stdout in $out and its stderr kept in $err
# (and logged on stderr).
ctl() {
	local status=0
	err=$("$NICTL_CTL" "$@" 2>&1 >"$out") || status=$?
	echo "# nictlctl $* -> $status${err:+: $err}" >&2
	return "$status"
}

# affinity IRQ: its smp_affinity_list. An empty read is the kernel's for a
# moment while an affinity move is pending (selftests/lib/irqs.c): read again,
# a little later.
affinity() {
	local list tries=0
	while list=$(cat "/proc/irq/$1/smp_affinity_list") && [ -z "$list" ] &&
		[ $((tries += 1)) -lt 5 ]; do
		sleep 0.01
	done
	printf '%s\n' "$list"
}

out=$(mktemp)
trap 'rm -f "$out"' EXIT

# The queue IRQs of $1 with their targets, "IRQ TARGET QUEUE" per line,
# from nictlctl's JSON (TARGET -1 when not bound).
irqs_of() {
	ctl show -j "$1" || return 1
	jq -r '.[0].irqs[] | "\(.irq) \(.target_cpu // -1) \(.queue)"' "$out"
}

# Every queue IRQ of $1 as nictlctl shows it has the mask /proc shows.
masks_match() {
	ctl show -j "$1" || return 1
	jq -r '.[0].irqs[] | "\(.irq) \(.affinity_list)"' "$out" >"$out.m" || return 1
	[ -s "$out.m" ] || why "no IRQs of $1"
	while read -r irq list; do
		[ "$list" = "$(affinity "$irq")" ] ||
			why "IRQ $irq: nictlctl says '$list', /proc '$(affinity "$irq")'"
	done <"$out.m"
}

# A snapshot of every queue IRQ mask of $1: "IRQ:LIST ..." on one line.
snapshot() {
	local irq
	ctl show -j "$1"
	for irq in $(jq -r '.[0].irqs[].irq' "$out"); do
		printf '%s:%s ' "$irq" "$(affinity "$irq")"
	done
}

# placed DEV CPUS DISTINCT_CORES: every queue IRQ of DEV bound, its /proc mask
# exactly its target, a CPU of the cpulist CPUS; a queue's IRQs together,
# queues on different CPUs (on different cores when DISTINCT_CORES is 1).
placed() {
	local dev=$1 distinct=$3 allowed irq target queue seen="" cores="" mask core
	allowed=",$(expand "$2"),"
	irqs_of "$dev" >"$out.p" || return 1
	while read -r irq target queue; do
		[ "$target" -ge 0 ] || why "IRQ $irq of $dev has no target"
		mask=$(affinity "$irq")
		[ "$mask" = "$target" ] || why "IRQ $irq: target $target, /proc mask $mask"
		case $allowed in
		*",$target,"*) ;;
		*) why "IRQ $irq on CPU $target, outside $2" ;;
		esac
		case " $seen " in
		*" $queue:$target "*) continue ;;
		*" $queue:"*) why "queue $queue split over CPUs" ;;
		*":$target "*) why "CPU $target serves two queues" ;;
		esac
		seen="$seen $queue:$target"
		core=$(cat "$SYSCPU/cpu$target/topology/thread_siblings_list")
		if [ "$distinct" = 1 ]; then
			case " $cores " in
			*" $core "*) why "two queues on the core of CPUs $core" ;;
			esac
		fi
		cores="$cores $core"
	done <"$out.p"
	[ -n "$seen" ] || why "$dev has no queue IRQs"
}

# expand CPULIST: the CPUs one per comma ("1,3-5" -> "1,3,4,5").
expand() {
	local part out=""
	for part in ${1//,/ }; do
		if [ "${part#*-}" != "$part" ]; then
			out="$out,$(seq -s, "${part%-*}" "${part#*-}")"
		else
			out="$out,$part"
		fi
	done
	echo "${out#,}"
}

channels() {
	ethtool -L "$BIG" combined "$1" || why "ethtool -L $BIG combined $1"
}

test_shape() {
	local possible online node4
	possible=$(cat $SYSCPU/possible) online=$(cat $SYSCPU/online)
	node4=$(cat /sys/devices/system/node/node4/cpulist)
	echo "# possible CPUs $possible, online $online, node 4 CPUs '$node4'"
	[ "$online" = 0-79 ] && [ -z "$node4" ]
}

test_masks() {
	local irqs
	ctl show -j "$BIG" || return 1
	irqs=$(jq '.[0].irqs | length' "$out")
	[ "$irqs" = 128 ] || why "$BIG: $irqs queue IRQs, want 128 (64 rx, 64 tx)"
	masks_match "$BIG"
}

test_bind_above_63() {
	local before after
	channels 16 || return 1
	before=$(snapshot "$BIG")
	ctl bind "$BIG" --cpus 64-79 --allow-siblings || return 1
	placed "$BIG" 64-79 0 || return 1
	masks_match "$BIG" || return 1
	ctl show -j "$BIG"
	jq -e '[.[0].irqs[].affinity[]] | min >= 64' "$out" >/dev/null ||
		why "the JSON affinity arrays have CPUs below 64"
	ctl restore "$BIG" || return 1
	after=$(snapshot "$BIG")
	[ "$before" = "$after" ] || why "after restore: $after; before: $before"
}

test_numa_local_short() {
	local before
	channels 64 || return 1
	before=$(snapshot "$BIG")
	if ctl bind "$BIG" --numa-local; then
		why "bind --numa-local of 64 queues on 12 cores succeeded"
		return 1
	fi
	case $err in
	*"64 queues"*"12 physical cores"*) ;;
	*) why "the refusal does not name 64 queues and 12 physical cores" ;;
	esac || return 1
	[ "$(snapshot "$BIG")" = "$before" ] || why "a refused bind moved IRQs"
}

test_numa_local_fits() {
	channels 12 || return 1
	ctl bind "$BIG" --numa-local || return 1
	placed "$BIG" "$(cat /sys/devices/system/node/node$BIG_NODE/cpulist)" 1 || return 1
	ctl restore "$BIG"
}

test_nearest_node() {
	ctl bind "$FAR" --numa-local || return 1
	case $err in
	*"node 4 has no online CPUs: nearest node $NEAREST_TO_4 "*) ;;
	*) why "nictlctl does not say it used node $NEAREST_TO_4, nearest to node 4" ;;
	esac || return 1
	placed "$FAR" "$(cat /sys/devices/system/node/node$NEAREST_TO_4/cpulist)" 1 || return 1
	ctl restore "$FAR"
}

test_hotplug_above_63() {
	local cpu=70 ret=0
	channels 16
	ctl bind "$BIG" --cpus 64-79 --allow-siblings
	echo 0 >"$SYSCPU/cpu$cpu/online"
	# From here on the CPU comes back whatever fails.
	if ! ctl show -j "$BIG" ||
	   ! jq -e "[.[0].irqs[] | select(.target_cpu == $cpu) | .off_target] | all" "$out" \
			>/dev/null; then
		why "IRQs placed on offline CPU $cpu are not flagged off-target" || ret=1
	fi
	if ctl bind "$BIG" --cpus 64-79 --allow-siblings; then
		why "a bind to CPUs 64-79 with CPU $cpu offline succeeded" || ret=1
	elif [ "${err#*"CPU $cpu"}" = "$err" ]; then
		why "the refusal does not name CPU $cpu" || ret=1
	fi
	echo 1 >"$SYSCPU/cpu$cpu/online"
	ctl bind "$BIG" --cpus 64-79 --allow-siblings
	placed "$BIG" 64-79 0
	ctl restore "$BIG"
	return "$ret"
}

test_stats_width() {
	local wide rows all
	ctl stats
	sed 's/^/#   /' "$out"
	wide=$(awk 'length > 80' "$out" | wc -l)
	rows=$(grep -cE '^  [0-9]+ ' "$out" || true)
	[ "$wide" -eq 0 ] || why "$wide lines of stats are wider than 80 columns"
	[ "$rows" -lt 80 ] || why "stats lists $rows CPUs, want a summary"
	ctl stats --all
	all=$(grep -cE '^  [0-9]+ ' "$out" || true)
	# Every CPU in the softirq table and again in the NET_RX split.
	[ "$all" -eq 160 ] || why "stats --all lists $all CPU rows, want 80 in each of 2 tables"
}

# The first $1 physical cores of node $BIG_NODE, both threads of each, as a list.
node_cores() {
	local cpu core list='' cores=' '
	for cpu in $(expand "$(cat /sys/devices/system/node/node$BIG_NODE/cpulist)" | tr , ' '); do
		core=$(cat "$SYSCPU/cpu$cpu/topology/thread_siblings_list")
		case $cores in
		*" $core "*) continue ;;
		esac
		[ "$(wc -w <<<"$cores")" -lt "$1" ] || break
		cores="$cores$core "
		list="$list,$core"
	done
	echo "${list#,}"
}

# mask_cpus MASK: a sysfs CPU mask ("000000ff,00000000") as a list ("32,33,...").
mask_cpus() {
	local group value bit base=0 list=''
	local -a groups
	IFS=, read -ra groups <<<"$1"
	for ((group = ${#groups[@]} - 1; group >= 0; group--)); do
		value=$((16#${groups[group]}))
		for ((bit = 0; bit < 32; bit++)); do
			[ $((value >> bit & 1)) -eq 0 ] || list="$list,$((base + bit))"
		done
		base=$((base + 32))
	done
	echo "${list#,}"
}

# Every rx queue's rps_cpus, rps_flow_cnt and tx queue's xps_cpus of $BIG
# (none with one tx queue), and the host-wide RFS table size.
steering() {
	cat /sys/class/net/$BIG/queues/rx-*/rps_cpus /sys/class/net/$BIG/queues/rx-*/rps_flow_cnt \
		/proc/sys/net/core/rps_sock_flow_entries | paste -sd' '
	cat /sys/class/net/$BIG/queues/tx-*/xps_cpus 2>/dev/null | paste -sd' '
}

# steer_case QUEUES CORES SPREAD: bind --steer $BIG's QUEUES queue pairs to
# CORES cores of node $BIG_NODE. RPS must spread each queue over those CPUs
# when SPREAD is 1, else be off, in the plan and in sysfs; rps_flow_cnt the
# table over the queues; every CPU in exactly one queue's XPS map. restore
# must then put every value back.
steer_case() {
	local queues=$1 cpus want rps q before got all='' flows
	channels "$queues" || return 1
	cpus=$(node_cores "$2")
	want=$(expand "$cpus")
	[ "$3" = 1 ] || want=''
	rps=$([ "$3" = 1 ] && echo spread || echo off)
	before=$(steering)
	ctl bind "$BIG" --cpus "$cpus" --allow-siblings --steer -j || return 1
	jq -e --arg rps "$rps" '[.[0].steer.rx[].rps] | length > 0 and all(. == $rps)' "$out" \
		>/dev/null || why "$queues queues on $2 cores: the plan's RPS is not $rps everywhere"
	flows=$(($(cat /proc/sys/net/core/rps_sock_flow_entries) / queues))
	for ((q = 0; q < queues; q++)); do
		got=$(mask_cpus "$(cat /sys/class/net/$BIG/queues/rx-$q/rps_cpus)")
		[ "$got" = "$want" ] || why "rx-$q rps_cpus '$got', want '$want'"
		got=$(cat /sys/class/net/$BIG/queues/rx-$q/rps_flow_cnt)
		[ "$got" = "$flows" ] || why "rx-$q rps_flow_cnt $got, want $flows"
		# One tx queue has no XPS map (the kernel says ENOENT).
		[ "$queues" -gt 1 ] || continue
		got=$(mask_cpus "$(cat /sys/class/net/$BIG/queues/tx-$q/xps_cpus)")
		[ -n "$got" ] || why "tx-$q has an empty XPS map"
		all="$all,$got"
	done
	[ "$queues" -eq 1 ] ||
		[ "$(tr , '\n' <<<"${all#,}" | sort -n | paste -sd,)" = "$(expand "$cpus")" ] ||
		why "the XPS maps hold CPUs ${all#,}, want each of $cpus once"
	ctl restore "$BIG" || return 1
	[ "$(steering)" = "$before" ] || why "after restore: $(steering); before: $before"
}

# One queue for 2 or 4 cores, two for 4: RPS spreads; a queue per core or more: off.
test_steer_plans() {
	steer_case 1 2 1
	steer_case 2 2 0
	steer_case 4 2 0
	steer_case 1 4 1
	steer_case 2 4 1
	steer_case 4 4 0
}

echo "1..9"
(set -e; test_shape)
tap $? "80 CPUs online; node 4 has none"
(set -e; test_masks)
tap $? "$BIG's 128 queue IRQs in nictlctl's JSON, masks as /proc has them"
(set -e; test_bind_above_63)
tap $? "bind $BIG to CPUs 64-79: every IRQ above CPU 63, then restored"
(set -e; test_numa_local_short)
tap $? "--numa-local: 64 queues on node $BIG_NODE's 12 cores is refused, naming both"
(set -e; test_numa_local_fits)
tap $? "--numa-local: 12 queues, one core each on node $BIG_NODE"
(set -e; test_nearest_node)
tap $? "--numa-local on CPU-less node 4 takes node $NEAREST_TO_4, the nearest, and says so"
(set -e; test_hotplug_above_63)
tap $? "CPU 70 offline: flagged off-target, refused by name; online again binds"
(set -e; test_stats_width)
tap $? "stats of 80 CPUs: a summary within 80 columns; --all lists every CPU"
(set -e; test_steer_plans)
tap $? "bind --steer: 1, 2 and 4 queues on 2 and 4 cores of node $BIG_NODE, in sysfs, restored"
channels 64 >/dev/null
[ "$failed" -eq 0 ]
