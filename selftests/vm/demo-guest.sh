#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs inside the demo guest (see demo.sh): load nictl, bind vnode1's queue
# IRQs to the CPUs of its NUMA node, then send traffic at it and show where
# its interrupts land. Exits 1, saying which, when one lands on a CPU outside
# the node or none lands at all: `make demo` fails, and with it .ci/run,
# which runs the README's commands.
# Environment: NICTL_KO, NICTL_CTL, NICTL_BUILD (its selftests/bcast-flood,
# bench/bcast-flood.c built by selftests/Makefile).
set -eu
FLOOD=$NICTL_BUILD/selftests/bcast-flood

# Echo a command, then run it.
run() {
	echo
	echo "demo# $*"
	"$@"
}

# vnode1's queue IRQ lines of /proc/interrupts: "IRQ COUNT_CPU0 COUNT_CPU1 ...".
queue_counts() {
	awk -v dev="$virtio" -v ncpu="$ncpu" '$NF ~ "^" dev "-(input|output)\\." {
		sub(":", "", $1)
		line = $1
		for (i = 2; i <= ncpu + 1; i++)
			line = line " " $i
		print line
	}' /proc/interrupts
}

# Broadcast frames out of vnode0 for $1 seconds: the bridge behind the guest
# floods them into vnode1, whose receive queues interrupt.
traffic() {
	"$FLOOD" vnode0 2000 &
	flood=$!
	sleep "$1"
	kill "$flood"
	wait "$flood" 2>/dev/null || true
}

# Is CPU $1 in the CPU list $2 (as 0-3,8)?
in_cpulist() {
	echo "$2" | tr ',' '\n' | awk -F- -v c="$1" '
		{ hi = NF > 1 ? $2 : $1; if (c >= $1 && c <= hi) found = 1 }
		END { exit !found }'
}

# virtio_net names the IRQs after the virtio device (virtioK-input.Q), not
# after the interface; the PCI function above it carries the NUMA node.
virtio=$(basename "$(readlink -f /sys/class/net/vnode1/device)")
node=$(cat /sys/class/net/vnode1/device/../numa_node)
cpus=$(cat "/sys/devices/system/node/node$node/cpulist")
ncpu=$(grep -c '^processor' /proc/cpuinfo)
echo "demo: vnode1 is $virtio on NUMA node $node, whose CPUs are $cpus"
ip link set vnode0 up
ip link set vnode1 up
run grep -E "CPU0|$virtio-" /proc/interrupts
run insmod "$NICTL_KO"
run "$NICTL_CTL" show vnode1
run "$NICTL_CTL" bind vnode1 --numa-local
run "$NICTL_CTL" show vnode1

# On x86 an IRQ moves at its next interrupt: let each fire once first. One
# that did not (a transmit queue vnode1 had no reason to use) still has its
# old effective CPU, where its next interrupt goes: it is left out.
traffic 1
settled='' pending=''
for irq in $(queue_counts | cut -d' ' -f1); do
	eff=$(cat "/proc/irq/$irq/effective_affinity_list")
	if in_cpulist "$eff" "$cpus"; then
		settled="$settled $irq"
	else
		pending="$pending $irq (on CPU $eff)"
	fi
done
[ -z "$pending" ] || echo "demo: not moved yet, no interrupt since the bind:$pending"
before=$(queue_counts)
echo
echo "demo: 3 s of broadcast frames from vnode0 into vnode1"
traffic 3
after=$(queue_counts)
run grep -E "CPU0|$virtio-" /proc/interrupts

# "IRQ:CPU:COUNT" for each interrupt count that grew during the traffic.
deltas=$(printf '%s\n%s\n' "$before" "$after" | awk '
	seen[$1]++ == 0 { for (i = 2; i <= NF; i++) start[$1, i] = $i; next }
	{ for (i = 2; i <= NF; i++) if ($i > start[$1, i]) print $1 ":" i - 2 ":" $i - start[$1, i] }')
echo
echo "demo: interrupts of vnode1's queue IRQs during the traffic, by CPU:"
total=0 stray=''
for d in $deltas; do
	irq=${d%%:*} rest=${d#*:}
	cpu=${rest%%:*} n=${rest#*:}
	echo "  IRQ $irq: $n on CPU $cpu"
	case " $settled " in
	*" $irq "*) ;;
	*) continue ;;
	esac
	total=$((total + n))
	in_cpulist "$cpu" "$cpus" || stray="$stray IRQ $irq: $n on CPU $cpu;"
done
if [ -n "$stray" ]; then
	echo "demo: FAILED: interrupts landed outside node $node's CPUs $cpus:$stray"
	exit 1
fi
if [ "$total" -eq 0 ]; then
	echo "demo: FAILED: no interrupt of vnode1's moved queue IRQs during the traffic"
	exit 1
fi
echo "demo: all $total interrupts of the moved IRQs landed on node $node's CPUs ($cpus)"
