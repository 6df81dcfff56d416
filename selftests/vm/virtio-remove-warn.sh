#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside a guest, with nictl never loaded: does this kernel still WARN
# in virtio_net's remove path (refcount underflow of a send skb in
# free_unused_bufs()) when vnode1's PCI function is unbound while it
# transmits and CPUs go offline and online? Debian's 6.12.117 does within
# minutes; nictl_stress keeps its unbinds away from CPU cycles because of
# it (docs/reliability.md). With panic_on_warn (run-guest.sh boots with
# it) a WARN ends the guest; otherwise this prints what it did and exits 0.
#
#   selftests/vm/run-guest.sh KREL OUTDIR selftests/vm/virtio-remove-warn.sh [SECONDS]
set -u

seconds=${1:-900}
end=$((SECONDS + seconds))
pcidev=$(readlink -f /sys/class/net/vnode1/device/..)
bdf=$(basename "$pcidev")
counts=$(mktemp -d)

# The function's new netdev, renamed vnode1 and up, with a neighbour to
# send to that needs no ARP.
revive() {
	local name=""

	for _ in $(seq 100); do
		name=$(ls "$pcidev"/virtio*/net 2>/dev/null)
		[ -n "$name" ] && break
		sleep 0.1
	done
	[ -n "$name" ] || { echo "no netdev after binding $bdf" >&2; return 1; }
	[ "$name" = vnode1 ] || ip link set "$name" name vnode1
	ip link set vnode1 up
	ip addr replace 198.18.0.1/24 dev vnode1
	ip neigh replace 198.18.0.2 lladdr 02:00:00:00:00:02 dev vnode1
}

rebind() {
	local n=0

	while [ $SECONDS -lt $end ]; do
		echo "$bdf" >/sys/bus/pci/drivers/virtio-pci/unbind || return 1
		n=$((n + 1))
		sleep 0.$((2 + RANDOM % 8))
		echo "$bdf" >/sys/bus/pci/drivers/virtio-pci/bind || return 1
		revive || return 1
		sleep $((1 + RANDOM % 3))
	done
	echo "$n" >"$counts/unbinds"
}

# Floods from every CPU that stays online, so that send skbs are still in
# the rings when the function goes.
transmit() {
	local cpu

	while [ $SECONDS -lt $end ]; do
		for cpu in 0 1 2 4 5 7; do
			taskset -c $cpu ping -q -f -c 200 -w 1 -s $((RANDOM % 1400)) \
				198.18.0.2 >/dev/null 2>&1
		done
		sleep 0.1
	done
}

# CPU 3 (node 0) and CPU 6 (node 1, vnode1's) in turn.
hotplug() {
	local n=0 cpu

	while [ $SECONDS -lt $end ]; do
		for cpu in 3 6; do
			# EBUSY while the function probes: try again.
			until echo 0 >/sys/devices/system/cpu/cpu$cpu/online; do
				sleep 0.1
			done 2>/dev/null
			sleep 0.$((3 + RANDOM % 7))
			until echo 1 >/sys/devices/system/cpu/cpu$cpu/online; do
				sleep 0.1
			done 2>/dev/null
			n=$((n + 1))
			sleep $((2 + RANDOM % 4))
		done
	done
	echo "$n" >"$counts/cycles"
}

echo "virtio-remove-warn: $(uname -r), $bdf, ${seconds} s," \
	"nictl $(grep -q '^nictl ' /proc/modules && echo loaded || echo 'not loaded')"
revive || exit 1
rebind & r=$!
transmit & hotplug &
wait $r || { echo "virtio-remove-warn: the rebind loop failed"; exit 1; }
wait
echo "virtio-remove-warn: $(cat "$counts/unbinds") unbinds," \
	"$(cat "$counts/cycles") CPU cycles"
if dmesg | grep -E "WARNING|refcount_t|BUG:"; then
	echo "virtio-remove-warn: the kernel warned"
	exit 1
fi
echo "virtio-remove-warn: not reproduced"
