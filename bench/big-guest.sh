#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest half of bench/big.sh, in the big guest (80 CPUs; bq64, 64 queue
# pairs on node 2). Prints result lines for the host half:
#   RESULT <nic> ...           bench/retarget-guest.sh's line for bq64, moving
#                              its 128 IRQs between CPUs 48-63 and 64-79
#   RTT <irqs> <us>            one BIND request, send to parsed reply, in
#                              one process (bench/bind-rtt.c)
#   STARTUP <us>               `nictlctl --version`: process start-up alone
#   SHOW <us>                  `nictlctl show` of every NIC
#   DAEMON <s> <cpu ms> <irqs> the daemon's CPU time (user + system) over <s>
#                              seconds of steady state, governing bq64
set -eu

ROUNDS=${NICTL_BENCH_ROUNDS:-20}
SETTLE_S=10
STEADY_S=${NICTL_BENCH_STEADY_S:-60}
CONF=/tmp/nictl-bench.conf

[ -d /sys/module/nictl ] || insmod "$NICTL_KO"

now_us() {
	echo $(($(date +%s%N) / 1000))
}

# us per run of "$@" over $ROUNDS runs, after one untimed.
per_run() {
	"$@" >/dev/null 2>&1
	start=$(now_us)
	i=0
	while [ $i -lt "$ROUNDS" ]; do
		"$@" >/dev/null 2>&1
		i=$((i + 1))
	done
	echo $((($(now_us) - start) / ROUNDS))
}

# The clock ticks of user and system time of process $1.
cpu_ticks() {
	awk '{ print $14 + $15 }' "/proc/$1/stat"
}

NICTL_BENCH_NICS=bq64 NICTL_BENCH_SET_A=48-63 NICTL_BENCH_SET_B=64-79 \
	bench/retarget-guest.sh
"$NICTL_BENCH_BIN/bind-rtt" bq64 48-63 64-79 "$ROUNDS"
echo "STARTUP $(per_run "$NICTL_CTL" --version)"
echo "SHOW $(per_run "$NICTL_CTL" show)"
"$NICTL_CTL" restore bq64 >/dev/null 2>&1 || true

printf '[rule big]\nmatch-name = bq64\ncpus = node 2\nallow-siblings = yes\n' >"$CONF"
"$NICTL_CTL" daemon -c "$CONF" --foreground 2>/tmp/nictl-bench-daemon.log &
pid=$!
sleep "$SETTLE_S"
t0=$(cpu_ticks "$pid")
sleep "$STEADY_S"
t1=$(cpu_ticks "$pid")
irqs=$("$NICTL_CTL" show -j bq64 | jq '[.[0].irqs[] | select(.bound)] | length')
kill "$pid"
wait "$pid" || true
echo "DAEMON $STEADY_S $(((t1 - t0) * 1000 / $(getconf CLK_TCK))) $irqs"
