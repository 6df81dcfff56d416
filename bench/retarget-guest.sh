#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest half of bench/retarget.sh: for every virtio NIC of the bench guest,
# time moving all of its queue IRQs with one `nictlctl bind` against the
# per-IRQ shell loop operators use today, alternating between two CPU sets
# so that every round really moves every IRQ. Two shell variants: the loop
# as written in the field, which finds the IRQs in /proc/interrupts each
# time, and its lower bound, a loop over IRQs found once beforehand that
# only echoes. Prints one result line per NIC:
# "RESULT <nic> <queue pairs> <irqs> <shell us> <echo-only us> <nictl us>".
# Environment: NICTL_BENCH_ROUNDS, NICTL_BENCH_NICS, and NICTL_BENCH_SET_A
# and _SET_B, two ranges of CPUs as wide as each other (default 0-7, 8-15).
set -eu

ROUNDS=${NICTL_BENCH_ROUNDS:-20}
SET_A=${NICTL_BENCH_SET_A:-0-7}
SET_B=${NICTL_BENCH_SET_B:-8-15}
FIRST_A=${SET_A%-*}
FIRST_B=${SET_B%-*}
WIDTH=$((${SET_A#*-} - FIRST_A + 1))

[ -d /sys/module/nictl ] || insmod "$NICTL_KO"

now_us() {
	echo $(($(date +%s%N) / 1000))
}

# The loop as operators write it: find the queue vectors by name in
# /proc/interrupts, then one echo per IRQ, queue q on the q-th CPU of the set
# (wrapping around).
shell_retarget() {
	nic=$1 first=$2
	vdev=$(basename "$(readlink "/sys/class/net/$nic/device")")
	grep -E " $vdev-(input|output)\.[0-9]+\$" /proc/interrupts |
	while read -r irq rest; do
		q=${rest##*.}
		echo $((first + q % WIDTH)) >"/proc/irq/${irq%:}/smp_affinity_list"
	done
}

# The lower bound of any shell loop: the IRQs ("irq:queue" words) are known
# and each move is one builtin echo.
echo_retarget() {
	first=$2
	for iq in $IRQ_QUEUES; do
		echo $((first + ${iq#*:} % WIDTH)) >"/proc/irq/${iq%:*}/smp_affinity_list"
	done
}

nictl_retarget() {
	"$NICTL_CTL" bind "$1" --cpus "$2" --allow-siblings >/dev/null 2>&1
}

# Time $ROUNDS rounds of "$@ A" / "$@ B" alternately; print us per call.
time_rounds() {
	fn=$1 nic=$2 a=$3 b=$4
	start=$(now_us)
	i=0
	while [ $i -lt "$ROUNDS" ]; do
		"$fn" "$nic" "$a"
		"$fn" "$nic" "$b"
		i=$((i + 1))
	done
	echo $((($(now_us) - start) / (2 * ROUNDS)))
}

for nic in ${NICTL_BENCH_NICS:-bq4 bq16 bq32}; do
	# virtio-net starts with one queue pair per CPU at most: use them all.
	max=$(ethtool -l "$nic" | awk '/maximums/ { f = 1 } f && /^Combined/ { print $2; exit }')
	ethtool -L "$nic" combined "$max"
	pairs=$(ls -d "/sys/class/net/$nic/queues/rx-"* | wc -l)
	vdev=$(basename "$(readlink "/sys/class/net/$nic/device")")
	IRQ_QUEUES=$(grep -E " $vdev-(input|output)\.[0-9]+\$" /proc/interrupts |
		awk '{ q = $NF; sub(/.*\./, "", q); sub(/:/, "", $1); print $1 ":" q }')
	irqs=$(echo "$IRQ_QUEUES" | wc -w)
	# Warm both paths (page cache of the 9p-backed binaries) before timing.
	shell_retarget "$nic" "$FIRST_A"
	nictl_retarget "$nic" "$SET_A"
	shell_us=$(time_rounds shell_retarget "$nic" "$FIRST_A" "$FIRST_B")
	echo_us=$(time_rounds echo_retarget "$nic" "$FIRST_A" "$FIRST_B")
	nictl_us=$(time_rounds nictl_retarget "$nic" "$SET_A" "$SET_B")
	echo "RESULT $nic $pairs $irqs $shell_us $echo_us $nictl_us"
done
"$NICTL_CTL" show >/dev/null
