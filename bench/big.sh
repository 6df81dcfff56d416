#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark on the big guest (NICTL_VM_PROFILE=big: 80 vCPUs, bq64 with 64
# queue pairs, 128 queue IRQs): in one guest run, side by side,
#   - moving all 128 IRQs with one `nictlctl bind` against the shell loop
#     operators use (it finds the IRQs in /proc/interrupts, then echoes to
#     each), and against an echo-only loop over IRQs known beforehand;
#   - the BIND request alone, send to reply, timed in one process over many
#     rounds (bench/bind-rtt.c), against that echo-only loop;
#   - process start-up (`nictlctl --version`) and `nictlctl show` of all NICs;
#   - the daemon's CPU time in steady state, governing bq64.
# TCG makes absolute times meaningless: compare the ratios of one run.
#
# Usage: bench/big.sh [KREL] (default: the newest suite kernel)
# Environment: NICTL_BENCH_ROUNDS (default 20), NICTL_BENCH_STEADY_S
# (default 60).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd -P)
krel=${1:-$("$top/scripts/kernels.sh" | tail -n 1)}
rounds=${NICTL_BENCH_ROUNDS:-20}
steady=${NICTL_BENCH_STEADY_S:-60}
out=$top/build/bench/big-$krel
bin=$top/build/bench

make -C "$top" --no-print-directory test-modules ctl >/dev/null
mkdir -p "$bin"
lib=$top/selftests/lib
cc -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -DNICTL_MAX_IRQS=160 -I"$top/include/uapi" -I"$lib" \
	-o "$bin/bind-rtt" "$top/bench/bind-rtt.c" "$lib/nictl.c" "$lib/nl.c" "$lib/cpus.c" -lmnl
NICTL_VM_PROFILE=big NICTL_VM_QUIET=1 NICTL_VM_TIMEOUT=1800 \
	"$top/selftests/vm/run-guest.sh" "$krel" "$out" \
	env NICTL_BENCH_ROUNDS="$rounds" NICTL_BENCH_STEADY_S="$steady" NICTL_BENCH_BIN="$bin" \
	bench/big-guest.sh >/dev/null

line() {
	tr -d '\r' <"$out/console.log" | grep "^$1 " | tail -n 1
}

read -r _ _ pairs irqs shell_us echo_us nictl_us <<<"$(line RESULT)"
read -r _ rtt_irqs rtt_us <<<"$(line RTT)"
read -r _ startup_us <<<"$(line STARTUP)"
read -r _ show_us <<<"$(line SHOW)"
read -r _ secs cpu_ms bound <<<"$(line DAEMON)"
if [ -z "${nictl_us:-}" ] || [ -z "${rtt_us:-}" ] || [ -z "${cpu_ms:-}" ]; then
	echo "big: the guest did not report every figure (see $out/console.log)" >&2
	exit 1
fi

echo "kernel $krel, big guest (80 vCPUs, TCG), bq64: $pairs queue pairs, $irqs queue IRQs;"
echo "$rounds rounds each way; times per call"
echo
echo "| what | ms | shell loop / this | echo-only loop / this |"
echo "| --- | --- | --- | --- |"
awk -v s="$shell_us" -v e="$echo_us" -v n="$nictl_us" -v r="$rtt_us" -v st="$startup_us" \
	-v sh="$show_us" 'function row(what, us) {
		printf "| %s | %.1f | %.1f | %.2f |\n", what, us / 1000, s / us, e / us
	}
	BEGIN {
		row("shell loop (finds the IRQs, echoes)", s)
		row("echo-only loop over known IRQs", e)
		row("`nictlctl bind` (whole process)", n)
		row("BIND request alone (in one process)", r)
		row("`nictlctl --version` (start-up)", st)
		row("`nictlctl show` (all NICs)", sh)
	}'
echo
echo "BIND request: $rtt_irqs IRQs in the reply."
echo "daemon: $cpu_ms ms of CPU in $secs s of steady state, governing $bound bound IRQs."
