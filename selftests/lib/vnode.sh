# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# The shell selftests' view of $IFACE, a virtio_net NIC of the guest, from
# /proc/irq alone (sourced): its queue IRQs' affinities, and whether they
# are bound as `bind --numa-local` must leave them.

# Print the CPU list of IRQ $1, or nothing when there is no such IRQ.
irq_cpus() {
	[ -n "$1" ] && cat "/proc/irq/$1/smp_affinity_list" 2>/dev/null
}

# Print the IRQ named $1 in /proc/interrupts.
irq_named() {
	awk -v name="$1" '$NF == name { sub(":", "", $1); print $1 }' /proc/interrupts
}

# Print "IRQ:CPUS" for each of vnode1's queue IRQs, on one line.
queue_affinities() {
	dev=$(readlink -e "/sys/class/net/$IFACE/device") || return 1
	virtio=$(basename "$dev")
	for name in input.0 output.0 input.1 output.1; do
		irq=$(irq_named "$virtio-$name")
		printf '%s:%s ' "$irq" "$(irq_cpus "$irq")"
	done
}

# Is vnode1 bound as `bind --numa-local` must leave it? Each queue's rx and
# tx IRQ on one and the same CPU of the NIC's node, the queues on different
# cores. virtio_net names the IRQs virtioK-input.Q / virtioK-output.Q after
# its virtio device; the PCI function above that carries the node.
check_binding() {
	dev=$(readlink -e "/sys/class/net/$IFACE/device") || return 1
	virtio=$(basename "$dev")
	node=$(cat "$dev/../numa_node")
	cores=
	for q in 0 1; do
		rx=$(irq_cpus "$(irq_named "$virtio-input.$q")")
		tx=$(irq_cpus "$(irq_named "$virtio-output.$q")")
		echo "# $IFACE queue $q: rx IRQ on CPUs '$rx', tx IRQ on CPUs '$tx' (node $node)"
		case $rx in
		'' | *[!0-9]*) return 1 ;;
		esac
		[ "$tx" = "$rx" ] && [ -e "/sys/devices/system/cpu/cpu$rx/node$node" ] || return 1
		core=$(cat "/sys/devices/system/cpu/cpu$rx/topology/thread_siblings_list")
		case " $cores " in
		*" $core "*) return 1 ;;
		esac
		cores="$cores $core"
	done
}
