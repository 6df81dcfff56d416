#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run inside a test guest by selftests/vm (cwd = the repo, the host's root
# as the guest's root): run every selftest binary with $NICTL_KO loaded (but
# nictl_dkms, which loads the module DKMS built and unloads it again, and
# nictl_absent, which runs without it), with
# its TAP in $NICTL_RESULTS/<binary>.tap and its stderr in <binary>.log; exit
# non-zero when any test failed, crashed or was skipped. The guest provides
# everything the tests need, so a skip means a broken guest or test, never
# a pass.
#
# Usage: guest-suite.sh [--half 1|2 | --core | --cross | --kernel-side | BINARY...]
# (default: all, in the order below; --half: the first or second half of it;
# --core: the core every suite kernel runs; --cross: the core of another
# architecture's kernel; --kernel-side: all but the controller's own
# surface; as defined below)
# Environment: NICTL_KREL, NICTL_KO, NICTL_CTL, NICTL_RESULTS, NICTL_REPO;
# NICTL_BUILD (default $NICTL_REPO/build) holds selftests/.
set -u

# nictl_dkms goes first, before $NICTL_KO is loaded; nictl_absent last, without
# it: it turns on module signature enforcement, which stays on. genl, events, daemon,
# stress, lifecycle and sticky go last: they rebind vnode1's PCI function (sticky
# igb0's too), which renumbers the device's IRQs and virtio name for whatever
# runs after.
# The halves take about the same time on the debug kernel (one to two hours
# each, from the minutes each binary took there: docs/reliability.md), where
# `make check-debug` runs them in two guests at once: a guest keeps one host
# core busy (single-threaded TCG), so two use a 2-core machine.
FIRST_HALF="nictl_dkms nictl_discovery nictl_bind nictl_stacked nictl_errors nictl_security nictl_netns
	nictl_fuzz nictl_rollback nictl_shared nictl_stats"
SECOND_HALF="nictl_cli nictl_steer nictl_doctor nictl_ynl nictl_igb nictl_genl nictl_events
	nictl_daemon nictl_balance nictl_banned nictl_metrics nictl_kept nictl_stress nictl_lifecycle
	nictl_sticky nictl_absent"
# What every suite kernel runs, where the whole suite runs on the oldest and
# newest only (scripts/kernels.list, CHECK core): the module as DKMS builds
# it, finding queue IRQs (igb0's too) and binding them, the accounting and
# events. The controller's commands that rest on those (daemon, steer,
# doctor, cli), nictl_igb, and what the oldest and newest kernels already
# bracket run with the whole suite only, to keep make check within its
# time: stacked devices (no instance lock before 6.15: 5.10's way; 7.2
# takes one per member), the security rules (the events group's permission
# check is nictl's compat one on 5.10, the kernel's own on the others),
# other namespaces, and the controller without the module (no netdev-genl
# on 5.10, all of it on 7.2).
CORE="nictl_dkms nictl_discovery nictl_bind nictl_stats nictl_events"
# The core for a kernel of another architecture (kernels.list, CHECK
# cross), whose module is cross-built on the host: no DKMS, which builds
# where it runs; and what goes through that architecture's interrupt
# controller besides the bind: the rollback of a failed apply, and the
# sticky placement a driver's new MSIs get when it is reloaded.
CROSS="nictl_discovery nictl_bind nictl_rollback nictl_stats nictl_events nictl_sticky"
# The controller's own surface: its table and JSON, a second client of the
# protocol (YNL), the daemon's /metrics and irqbalance's files; and its
# policies over kernel interfaces older than any suite kernel: RPS and XPS
# masks (steer) and the daemon's rebalancing from the module's counters
# (balance; the counters themselves are nictl_stats'). What they check is
# the same code on every kernel, so the oldest kernel, where each process
# starts four times slower than on the newest (docs/reliability.md), runs
# the rest of the suite without them (kernels.list, CHECK kernel-side).
CONTROLLER="nictl_cli nictl_ynl nictl_metrics nictl_banned nictl_steer nictl_balance"

PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH

die() {
	echo "guest-suite: $*" >&2
	exit 1
}

USAGE="usage: guest-suite.sh [--half 1|2 | --core | --cross | --kernel-side | BINARY...]"
named=0
case ${1:-} in
"")
	TESTS="$FIRST_HALF $SECOND_HALF"
	;;
--core)
	[ $# -eq 1 ] || die "$USAGE"
	TESTS=$CORE
	;;
--cross)
	[ $# -eq 1 ] || die "$USAGE"
	TESTS=$CROSS
	;;
--kernel-side)
	[ $# -eq 1 ] || die "$USAGE"
	TESTS=
	for t in $FIRST_HALF $SECOND_HALF; do
		case " $CONTROLLER " in
		*" $t "*) ;;
		*) TESTS="$TESTS $t" ;;
		esac
	done
	;;
--half)
	[ $# -eq 2 ] || die "$USAGE"
	case $2 in
	1) TESTS=$FIRST_HALF ;;
	2) TESTS=$SECOND_HALF ;;
	*) die "--half takes 1 or 2, not $2" ;;
	esac
	;;
*)
	TESTS=$* named=1
	;;
esac

# On a kernel with kmemleak (the debug kernel) the leak check ends the run,
# after everything else had its chance to leak; a run of named tests runs
# only those.
if [ "$named" -eq 0 ] && [ -e /sys/kernel/debug/kmemleak ]; then
	TESTS="$TESTS nictl_kmemleak"
fi

for var in NICTL_KREL NICTL_KO NICTL_CTL NICTL_RESULTS NICTL_REPO; do
	eval "val=\${$var:-}"
	[ -n "$val" ] || die "$var is not set"
done
bindir=${NICTL_BUILD:-$NICTL_REPO/build}/selftests
[ -f "$NICTL_KO" ] || die "no module at $NICTL_KO"
[ -x "$NICTL_CTL" ] || die "no nictlctl at $NICTL_CTL"

load_module() {
	[ -d /sys/module/nictl ] || insmod "$NICTL_KO"
}

# count PATTERN FILE: the lines of FILE that match the extended regex.
count() {
	grep -cE "$1" "$2"
}

echo "guest-suite: kernel $NICTL_KREL, module $NICTL_KO"

passed=0 failed=0 skipped=0
# The tests that load and unload the module themselves.
without_module() {
	case $1 in
	nictl_dkms | nictl_absent) return 0 ;;
	*) return 1 ;;
	esac
}

# nictl_kept needs a core that keeps a driver's IRQ affinity (6.15+), and
# keptnic.ko, built for the kernels that have it; it is left out, and says
# so, only where the kernel has no netif_set_affinity_auto().
core_keeps_affinity() {
	grep -q ' netif_set_affinity_auto$' /proc/kallsyms
}

for t in $TESTS; do
	if [ "$t" = nictl_kept ] && ! core_keeps_affinity; then
		echo "guest-suite: nictl_kept: not for $NICTL_KREL, whose core keeps no IRQ affinity"
		continue
	fi
	if ! without_module "$t"; then
		load_module || die "insmod $NICTL_KO failed"
	fi
	tap=$NICTL_RESULTS/$t.tap
	# Each binary's seconds: what to look at first when make check runs long.
	started=$(date +%s)
	if [ -x "$bindir/$t" ]; then
		"$bindir/$t" >"$tap" 2>"$NICTL_RESULTS/$t.log"
		rc=$?
	else
		echo "Bail out! $bindir/$t is missing" >"$tap"
		rc=1
	fi
	plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$tap")
	ok=$(count '^ok ' "$tap")
	skip=$(count '^ok .*# SKIP' "$tap")
	notok=$(count '^not ok ' "$tap")
	# Tests that never reported (a crash of the binary) count as failed.
	missing=$(( ${plan:-1} - ok - notok ))
	[ "$missing" -gt 0 ] || missing=0
	fail=$((notok + missing))
	[ "$rc" -eq 0 ] || [ "$fail" -gt 0 ] || fail=1
	pass=$((ok - skip))
	echo "guest-suite: $t: $pass passed, $fail failed, $skip skipped (exit $rc," \
		"$(($(date +%s) - started)) s)"
	if ! without_module "$t" && [ ! -d /sys/module/nictl ]; then
		echo "guest-suite: $t left the module unloaded" >&2
		fail=$((fail + 1))
	fi
	passed=$((passed + pass))
	failed=$((failed + fail))
	skipped=$((skipped + skip))
done

echo "guest-suite: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$skipped" -eq 0 ]
