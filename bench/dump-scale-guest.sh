#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest half of bench/dump-scale.sh, in the suite guest. For each module,
# $NICTL_BENCH_BEFORE_KO ("before") and $NICTL_KO ("after"): loads it,
# makes $STEP dummy netdevs, times $REPEAT unprivileged DEV_GET dumps
# (`nictlctl show -j` run as nobody), makes $STEP more and times them again,
# then deletes the dummies and unloads the module. rtnl_lock() returns and
# rtnl_unlock() calls are recorded with kprobe events during the dumps.
# Prints per module and device count:
#   "RESULT <module> <extra devices> <median dump ms> <max dump ms>
#    <longest rtnl hold by nictl, us>"
set -eu

STEP=${NICTL_BENCH_STEP:-1000}
REPEAT=${NICTL_BENCH_REPEAT:-7}
T=/sys/kernel/tracing

log() {
	echo "dump-scale: $*"
}

# ip link $1 (add or del) the dummy netdevs nd$2 to nd$(($3 - 1)), in one
# ip process (the kernel loads the dummy module for the first add).
dummies() {
	i=$2
	while [ "$i" -lt "$3" ]; do
		if [ "$1" = add ]; then
			echo "link add nd$i type dummy"
		else
			echo "link del nd$i"
		fi
		i=$((i + 1))
	done >/tmp/dummies.batch
	ip -batch /tmp/dummies.batch
}

# The longest rtnl hold by nictl in trace file $1, in us (bench/rtnl-holds.awk).
longest_hold() {
	awk -f "$(dirname "$0")/rtnl-holds.awk" "$1" | cut -d' ' -f5
}

# $REPEAT timed dumps as nobody: "<median ms> <max ms>".
time_dumps() {
	i=0
	while [ $i -lt "$REPEAT" ]; do
		start=$(date +%s%N)
		setpriv --reuid=65534 --regid=65534 --clear-groups "$NICTL_CTL" show -j >/dev/null
		echo $((($(date +%s%N) - start) / 1000000))
		i=$((i + 1))
	done | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)], v[NR] }'
}

measure_at() {
	name=$1 extra=$2
	echo >$T/trace
	echo 1 >$T/events/nictlbench/enable
	times=$(time_dumps)
	echo 0 >$T/events/nictlbench/enable
	cp $T/trace "$NICTL_RESULTS/trace-$name-$extra.txt"
	echo "RESULT $name $extra $times $(longest_hold "$NICTL_RESULTS/trace-$name-$extra.txt")"
}

measure() {
	name=$1 ko=$2
	insmod "$ko"
	dummies add 0 "$STEP"
	measure_at "$name" "$STEP"
	dummies add "$STEP" $((2 * STEP))
	measure_at "$name" $((2 * STEP))
	dummies del 0 $((2 * STEP))
	rmmod nictl
}

log "kernel $(uname -r), $(find /sys/class/net -mindepth 1 -maxdepth 1 | wc -l) netdevs to begin with"
echo "r:nictlbench/rtnl_locked rtnl_lock" >>$T/kprobe_events
echo "p:nictlbench/rtnl_unlock rtnl_unlock" >>$T/kprobe_events
measure before "$NICTL_BENCH_BEFORE_KO"
measure after "$NICTL_KO"
