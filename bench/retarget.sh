#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark: retarget every queue IRQ of a NIC with one `nictlctl bind`
# versus the per-IRQ shell loop operators use today (an echo to
# /proc/irq/N/smp_affinity_list for each IRQ), for NICs with 4, 16 and 32
# queue pairs in one 16-vCPU guest. Both are timed side by side in the same
# guest run, and only their ratio is meant to be compared: TCG and a busy
# host make absolute times meaningless.
#
# Usage: bench/retarget.sh [KREL] (default: the newest suite kernel)
# Environment: NICTL_BENCH_ROUNDS (default 20) round trips per NIC and way.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd -P)
krel=${1:-$("$top/scripts/kernels.sh" | tail -n 1)}
rounds=${NICTL_BENCH_ROUNDS:-20}
out=$top/build/bench/retarget-$krel

make -C "$top" --no-print-directory test-modules ctl >/dev/null
NICTL_VM_PROFILE=bench NICTL_VM_QUIET=1 "$top/selftests/vm/run-guest.sh" "$krel" "$out" \
	env NICTL_BENCH_ROUNDS="$rounds" bench/retarget-guest.sh >/dev/null

echo "kernel $krel, 16 vCPUs (TCG), $rounds round trips per NIC and way"
echo
echo "| queue pairs | queue IRQs | shell loop (finds IRQs, echoes), ms | echo-only loop, ms | nictlctl bind, ms | shell / nictl | echo-only / nictl |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
grep '^RESULT ' "$out/console.log" | tr -d '\r' |
while read -r _ nic pairs irqs shell_us echo_us nictl_us; do
	awk -v p="$pairs" -v i="$irqs" -v s="$shell_us" -v e="$echo_us" -v n="$nictl_us" \
		'BEGIN { printf "| %d | %d | %.1f | %.1f | %.1f | %.2f | %.2f |\n",
			 p, i, s / 1000, e / 1000, n / 1000, s / n, e / n }'
done
