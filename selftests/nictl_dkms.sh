#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run inside a test guest by guest-suite.sh: load the nictl.ko that DKMS
# built and installed for this kernel (scripts/build-dkms-modules.sh, run by
# `make check` before the guests boot), which is the build users get, bind
# vnode1 with nictlctl, read the binding back from /proc/irq, restore it (the
# tests after this one expect vnode1 as the guest booted) and unload the
# module again. TAP on stdout; every test reports, none is skipped.
# Environment: NICTL_KREL, NICTL_CTL, NICTL_REPO, NICTL_BUILD (see guest-suite.sh).
set -u

IFACE=vnode1
DKMS_DIR=${NICTL_BUILD:-$NICTL_REPO/build}/dkms/install/$NICTL_KREL/updates/dkms

# shellcheck source=selftests/lib/tap.sh
. "$NICTL_REPO/selftests/lib/tap.sh"

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

# run COMMAND...: run it with its output as TAP comments; its exit status.
run() {
	out=$("$@" 2>&1)
	status=$?
	[ -z "$out" ] || printf '%s\n' "$out" | sed 's/^/# /'
	return "$status"
}

echo "1..6"

set -- "$DKMS_DIR"/nictl.ko*
ko=$1
vermagic=$(modinfo -F vermagic "$ko" 2>/dev/null)
echo "# $ko: vermagic $vermagic"
[ "${vermagic%% *}" = "$NICTL_KREL" ]
tap $? "DKMS installed a nictl.ko for $NICTL_KREL"

# The suite's own build is loaded when this test does not run first.
[ ! -d /sys/module/nictl ] || run rmmod nictl
# nictlctl's version and dkms.conf's both come from the top Makefile; the
# suite's build has a fault-injection knob, the DKMS build must not.
run insmod "$ko" &&
	[ "$("$NICTL_CTL" --version)" = "nictlctl $(cat /sys/module/nictl/version)" ] &&
	[ ! -e /sys/module/nictl/parameters/fault_fail_nth ]
tap $? "insmod of the DKMS build: nictlctl's version, no fault injection"

before=$(queue_affinities)
run "$NICTL_CTL" bind "$IFACE" --numa-local
tap $? "nictlctl bind $IFACE --numa-local"

check_binding
tap $? "/proc/irq: each $IFACE queue on one CPU of its node, one core per queue"

run "$NICTL_CTL" restore "$IFACE" &&
	after=$(queue_affinities) &&
	echo "# IRQ:CPUS before the bind: $before; after the restore: $after" &&
	[ "$after" = "$before" ]
tap $? "nictlctl restore $IFACE: /proc/irq as before the bind"

run rmmod nictl
tap $? "rmmod nictl"

[ "$failed" -eq 0 ]
