#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs inside the demo guest (see demo.sh): load nictl and bind vnode1's
# queue IRQs to the CPUs of its NUMA node, showing each step.
set -eu

# Echo a command, then run it.
run() {
	echo
	echo "demo# $*"
	"$@"
}

# virtio_net names the IRQs after the virtio device (virtioK-input.Q), not
# after the interface; the PCI function above it carries the NUMA node.
virtio=$(basename "$(readlink -f /sys/class/net/vnode1/device)")
node=$(cat /sys/class/net/vnode1/device/../numa_node)
echo "demo: vnode1 is $virtio on NUMA node $node," \
	"whose CPUs are $(cat "/sys/devices/system/node/node$node/cpulist")"
run grep -E "CPU0|$virtio-" /proc/interrupts
run insmod "$NICTL_KO"
run "$NICTL_CTL" show vnode1
run "$NICTL_CTL" bind vnode1 --numa-local
run "$NICTL_CTL" show vnode1
run grep -E "CPU0|$virtio-" /proc/interrupts
