#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark: interrupts and packets that arrive off-policy while a NIC's
# queue IRQs are re-created or changed under traffic. In one suite guest,
# with broadcast frames flooding in from another NIC, vnode1 (virtio-net)
# and igb0 (igb), both on NUMA node 1, are reloaded (PCI driver unbind +
# bind) and have their channels changed (ethtool -L combined 1, then back),
# NICTL_BENCH_ROUNDS times each, while kept numa-local by: nothing after
# one `nictlctl bind`; `nictlctl daemon` (rule with sticky = no); a sticky
# binding; and a sticky binding to the other node's CPUs. Counted from
# /proc/interrupts per queue IRQ, from before the event until 2 s after
# the IRQs are back on their placement (8 s after the event if never):
# interrupts on CPUs off the policy (node 1; node 0 for the last), and off
# the IRQ's own target CPU; from the kernel's napi:napi_poll tracepoint,
# packets polled on CPUs off the policy.
# Counts, not times, are the result: TCG distorts the guest's clock. See
# docs/benchmarks.md.
#
# Usage: bench/off-policy.sh [KREL] (default: the newest suite kernel)
# Environment: NICTL_BENCH_ROUNDS (default 5), NICTL_BENCH_PPS (frames/s,
# default 1000), NICTL_BENCH_MODES (default "none daemon sticky
# sticky-far"), NICTL_BUILD (the build tree, default build/). Needs root,
# like the guest runner.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd -P)
krel=${1:-$("$top/scripts/kernels.sh" | tail -n 1)}
rounds=${NICTL_BENCH_ROUNDS:-5}
pps=${NICTL_BENCH_PPS:-1000}
build=${NICTL_BUILD:-$top/build}
out=$build/bench/off-policy-$krel

make -C "$top" --no-print-directory BUILD="$build" test-modules ctl >/dev/null
mkdir -p "$build/bench"
cc -O2 -Wall -Wextra -Werror -pthread -o "$build/bench/off-policy" "$top/bench/off-policy.c" \
	"$top/bench/placement.c"
cc -O2 -Wall -Wextra -Werror -o "$build/bench/bcast-flood" "$top/bench/bcast-flood.c"
status=0
NICTL_BUILD=$build NICTL_VM_QUIET=1 NICTL_VM_TIMEOUT=${NICTL_VM_TIMEOUT:-2400} \
	"$top/selftests/vm/run-guest.sh" "$krel" "$out" \
	env NICTL_BENCH_ROUNDS="$rounds" NICTL_BENCH_PPS="$pps" \
	NICTL_BENCH_MODES="${NICTL_BENCH_MODES:-none daemon sticky sticky-far}" bench/off-policy-guest.sh \
	>/dev/null || status=$?

lines() {
	tr -d '\r' <"$out/console.log" | grep "^$1 " || true
}

if [ "$status" -ne 0 ]; then
	echo "the guest job failed ($status); its last words:" >&2
	tr -d '\r' <"$out/console.log" | grep '^off-policy:' | tail -n 5 >&2
	exit "$status"
fi
lines off-policy: | sed 's/^off-policy: //'
echo
echo "$rounds rounds per row; each cell: sum over the rounds (largest round)"
echo
echo "| NIC | event | kept by | queue IRQ interrupts | off policy (CPUs off the policy's node) |" \
	"not on the IRQ's target CPU | packets | packets off policy | rounds back on policy |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
# One row per NIC, event and mode, in the order the guest ran them.
lines RESULT | awk '
	{
		key = $2 " " $3 " " $4
		if (!(key in rows)) order[++n] = key
		rows[key]++
		for (c = 6; c <= 10; c++) {
			sum[key, c] += $c
			if ($c > max[key, c]) max[key, c] = $c
		}
		back[key] += $12 == "yes"
	}
	END {
		for (i = 1; i <= n; i++) {
			k = order[i]
			split(k, f, " ")
			printf "| %s | %s | %s |", f[1], f[2], f[3]
			for (c = 6; c <= 10; c++)
				printf " %d (%d) |", sum[k, c], max[k, c]
			printf " %d of %d |\n", back[k], rows[k]
		}
	}'
lines NA | awk '{
	printf "| %s | %s | %s | n/a (%s) | | | | | |\n", $2, $3, $4, substr($0, index($0, $5))
}'
echo
echo "Queue IRQs with interrupts off their target CPU under a sticky binding" \
	"(IRQ life: key, number, interrupts, off policy, off target, CPU:count):"
lines DETAIL | awk '$4 ~ /^sticky/ { $1 = "-"; print; found = 1 }
	END { if (!found) print "- none" }'
echo
echo "Packets polled off policy, by CPU (NIC, event, kept by, round, CPU:packets):"
lines RESULT | awk '$11 != "-" { print "-", $2, $3, $4, $5, $11; found = 1 }
	END { if (!found) print "- none" }'
