#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest half of bench/rtnl-hold.sh, in the suite guest. Makes as many
# netdevs as the suite can (VLANs and macvlans on every NIC, and veth
# pairs), then for each module, $NICTL_BENCH_BEFORE_KO ("before") and
# $NICTL_KO ("after"): loads it, starts `nictlctl daemon` keeping vnode0 and
# vnode1 numa-local and a `nictlctl monitor` run as nobody, waits for the
# daemon's binds, and records every rtnl_lock() return and rtnl_unlock()
# call for $SECONDS_MEASURED s with kprobe events. Then it moves one bound
# IRQ, $DRIFTS times, and times, by polling /proc every 50 ms, until the
# daemon put it back. Prints per module:
#   "RESULT <module> <seconds> <rtnl holds, all> <held us, all>
#    <holds from nictl> <held us from nictl> <longest from nictl, us>
#    <drift repaired after, median ms> <max ms>"
set -eu

SECONDS_MEASURED=${NICTL_BENCH_SECONDS:-30}
VLANS=${NICTL_BENCH_VLANS:-20}
VETHS=${NICTL_BENCH_VETHS:-500}
DRIFTS=5
T=/sys/kernel/tracing
CONF=/tmp/rtnl-hold.conf
NICS="vnode0 vnode1 e1k"

log() {
	echo "rtnl-hold: $*"
}

# Wait up to 300 s for file $1 to hold $3 lines matching $2.
wait_for() {
	end=$(($(date +%s) + 300))
	until [ "$(grep -c "$2" "$1")" -ge "$3" ]; do
		if [ "$(date +%s)" -ge $end ]; then
			log "timed out waiting for '$2' in $1"
			tail -n 5 /tmp/monitor-*.json /tmp/monitor-*.err /tmp/daemon-*.log
			exit 1
		fi
		sleep 0.5
	done
}

# VLANs and macvlans on every NIC, then the veth pairs, in one ip process.
make_netdevs() {
	for nic in $NICS; do
		i=1
		while [ $i -le "$VLANS" ]; do
			echo "link add link $nic name $nic.$i type vlan id $i"
			echo "link add link $nic name mv$nic.$i type macvlan"
			i=$((i + 1))
		done
	done >/tmp/links.batch
	i=0
	while [ $i -lt "$VETHS" ]; do
		echo "link add vb$i type veth peer name vp$i"
		i=$((i + 1))
	done >>/tmp/links.batch
	ip -batch /tmp/links.batch
}

# The rtnl holds in trace file $1 (bench/rtnl-holds.awk): "<holds> <us>
# <holds from nictl> <us from nictl> <longest from nictl, us>".
holds() {
	awk -f "$(dirname "$0")/rtnl-holds.awk" "$1"
}

# Move vnode1's first queue IRQ to CPU 0; ms until the daemon put it back.
drift_repair_once() {
	irq=$(awk -v dev="$(basename "$(readlink /sys/class/net/vnode1/device)")" \
		'$NF ~ "^" dev "-input" { sub(/:/, "", $1); print $1; exit }' /proc/interrupts)
	placed=$(cat "/proc/irq/$irq/smp_affinity_list")
	start=$(date +%s%N)
	echo 0 >"/proc/irq/$irq/smp_affinity_list"
	while [ "$(cat "/proc/irq/$irq/smp_affinity_list")" != "$placed" ]; do
		[ $(($(date +%s%N) - start)) -lt 10000000000 ] || { echo -1; return; }
		sleep 0.05
	done
	echo $((($(date +%s%N) - start) / 1000000))
}

# drift_repair_once $DRIFTS times, a random part of a period apart so that
# the writes fall at every phase of the check: "<median> <max>" in ms.
drift_repair_ms() {
	i=0
	while [ $i -lt "$DRIFTS" ]; do
		sleep "0.$(shuf -i 100-999 -n 1)"
		drift_repair_once
		i=$((i + 1))
	done | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)], v[NR] }'
}

measure() {
	name=$1 ko=$2
	insmod "$ko"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$NICTL_CTL" monitor -j \
		>/tmp/monitor-"$name".json 2>/tmp/monitor-"$name".err &
	monitor=$!
	# The monitor listens once it reports e1k coming up (e1k is no rule's).
	until grep -q '"event":"up".*"ifname":"e1k"' /tmp/monitor-"$name".json; do
		ip link set e1k down
		ip link set e1k up
		sleep 0.5
	done
	"$NICTL_CTL" daemon --foreground -c $CONF 2>/tmp/daemon-"$name".log &
	daemon=$!
	wait_for /tmp/monitor-"$name".json "\"event\":\"bound\".*\"pid\":${daemon}[,}]" 2
	# Past the daemon's start; then nothing changes.
	sleep 5
	echo >$T/trace
	sleep "$SECONDS_MEASURED"
	cp $T/trace /tmp/trace-"$name".txt
	repaired=$(drift_repair_ms)
	kill -TERM $daemon $monitor
	wait $daemon $monitor || true
	rmmod nictl
	cp /tmp/trace-"$name".txt /tmp/monitor-"$name".json /tmp/daemon-"$name".log "$NICTL_RESULTS/"
	echo "RESULT $name $SECONDS_MEASURED $(holds /tmp/trace-"$name".txt) $repaired"
}

# The guest's modprobe wrapper (guest-init.sh) finds the kernel's modules
# in the cache, where the host may have no /lib/modules at all.
/run/nictl-modprobe 8021q
/run/nictl-modprobe macvlan
/run/nictl-modprobe veth
make_netdevs
parents=0
for dev in /sys/class/net/*; do
	[ ! -e "$dev/device" ] || parents=$((parents + 1))
done
log "kernel $(uname -r), $(find /sys/class/net -mindepth 1 -maxdepth 1 | wc -l) netdevs," \
	"$parents of them with a parent device"
for nic in vnode0 vnode1; do
	echo "[rule $nic]"
	echo "match-name = $nic"
	echo "cpus = numa-local"
done >$CONF

echo "r:nictlbench/rtnl_locked rtnl_lock" >>$T/kprobe_events
echo "p:nictlbench/rtnl_unlock rtnl_unlock" >>$T/kprobe_events
echo 1 >$T/events/nictlbench/enable
measure before "$NICTL_BENCH_BEFORE_KO"
measure after "$NICTL_KO"
echo 0 >$T/events/nictlbench/enable
