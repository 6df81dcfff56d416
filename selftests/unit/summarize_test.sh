#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# selftests/vm/summarize.sh, the script whose last line is the verdict of
# `make check`, on results folders made here: what it counts as passed, failed
# and skipped, the checks it adds for a guest, and its exit status.
# selftests/unit/Makefile fills in the path of the repository.
# No check's name here may hold "# SKIP": the summary of this test's own TAP
# would count that check as skipped.
set -u

REPO=@NICTL_REPO@
SUMMARIZE=$REPO/selftests/vm/summarize.sh

# shellcheck source=selftests/unit/tap.sh
. "$REPO/selftests/unit/tap.sh"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# A results folder $1 below $TMP, emptied; the folder's name is its label.
results()
{
	rm -rf "${TMP:?}/$1"
	mkdir -p "$TMP/$1"
}

# Write TAP file $1 (a path below $TMP) from the rest of the arguments, a line
# each. The TAP rules are tested in a folder named "host", which gets no guest
# checks.
tap()
{
	local file=$TMP/$1

	shift
	printf '%s\n' "$@" >"$file"
}

# A guest's results folder $1 that finished with rc $2 and kernel log $3.
guest()
{
	results "$1"
	echo "$2" >"$TMP/$1/rc"
	printf '%s\n' "$3" >"$TMP/$1/dmesg.txt"
}

# Run summarize.sh on the folders $TMP/$1...: its output in OUT, its exit
# status in RC.
summary()
{
	local dirs=()

	for d in "$@"; do
		dirs+=("$TMP/$d")
	done
	RC=0
	OUT=$("$SUMMARIZE" "${dirs[@]}") || RC=$?
}

# Summarize the folders $3...: the last line must be $1 and the exit status
# zero when $2 is "pass", non-zero when "fail". On a mismatch the whole
# output is shown.
verdict()
{
	local line=$1 want=$2

	shift 2
	summary "$@"
	if [[ $(tail -n 1 <<<"$OUT") == "$line" ]] &&
		{ [[ $want == pass && $RC -eq 0 ]] || [[ $want == fail && $RC -ne 0 ]]; }; then
		return 0
	fi
	echo "expected \"$line\" ($want), got exit status $RC and:"
	echo "$OUT"
	return 1
}

# Does the summary of folders $2... have a line containing $1?
says()
{
	local text=$1

	shift
	summary "$@"
	grep -qF -- "$text" <<<"$OUT" && return 0
	echo "no line with \"$text\" in:"
	echo "$OUT"
	return 1
}

# A host folder whose one file passed its two tests.
host_passed()
{
	results host
	tap host/a.tap 'TAP version 13' '1..2' 'ok 1 - one' 'ok 2 - two'
}

host_passed
tap_check "passes are counted, a host folder adds no check" \
	verdict "2 passed, 0 failed" pass host
tap_check "every line is shown, prefixed with its folder" \
	says "[host] ok 2 - two" host

results host
tap host/a.tap '1..2' 'ok 1 - one' 'ok 2 - two # SKIP no e1000e'
tap_check "a skip is not a pass and fails the run" \
	verdict "1 passed, 0 failed, 1 skipped" fail host
tap host/a.tap '1..0 # SKIP not on this kernel'
tap_check "a skipped file (a plan of 0 tests, skipped) fails the run" \
	verdict "0 passed, 0 failed, 1 skipped" fail host

results host
tap host/a.tap '1..4' 'ok 1 - one' 'not ok 2 - two'
tap_check "results missing from the plan count as failed" \
	verdict "1 passed, 3 failed" fail host
tap_check "and the summary says how many are missing" \
	says "planned 4, got 2: 2 missing" host

results host
tap host/a.tap '1..1' 'ok 1 - one' 'ok 2 - two'
tap_check "more results than planned is one failure" \
	verdict "2 passed, 1 failed" fail host

results host
tap host/a.tap 'ok 1 - one'
tap_check "a file with no plan is one failure" \
	verdict "1 passed, 1 failed" fail host

results host
tap host/a.tap 'ok 1 - one' 'Bail out! no module'
tap_check "a bail-out fails, with or without a plan" \
	verdict "1 passed, 1 failed" fail host

guest 6.12-clean 0 '[    1.0] loading out-of-tree module taints kernel.'
tap 6.12-clean/a.tap '1..1' 'ok 1 - one'
tap_check "a guest with a clean log adds one passed check" \
	verdict "2 passed, 0 failed" pass 6.12-clean
host_passed
tap_check "the folders' counts add up" \
	verdict "4 passed, 0 failed" pass host 6.12-clean

guest 6.12-splat 0 '[    9.1] WARNING: CPU: 3 PID: 7 at kmod/bind.c:10 bind+0x1/0x2'
tap 6.12-splat/a.tap '1..1' 'ok 1 - one'
tap_check "a WARN in the kernel log fails the guest" \
	verdict "1 passed, 1 failed" fail 6.12-splat
tap_check "and the summary quotes it" \
	says "[6.12-splat] # [    9.1] WARNING: CPU: 3" 6.12-splat

guest 6.12-rc 1 ''
tap 6.12-rc/a.tap '1..1' 'ok 1 - one'
tap_check "a non-zero rc with no failed test is one failure" \
	verdict "2 passed, 1 failed" fail 6.12-rc

guest 6.12-notap 0 ''
tap_check "a guest that wrote no TAP fails" \
	verdict "1 passed, 1 failed" fail 6.12-notap

results 6.12-died
tap 6.12-died/a.tap '1..2' 'ok 1 - one'
printf '%s\n' 'guest-init: running' 'BUG: kernel NULL pointer dereference' >"$TMP/6.12-died/console.log"
tap_check "a guest that died: its console is the kernel log, and no rc fails" \
	verdict "1 passed, 3 failed" fail 6.12-died
tap_check "and the summary says it did not finish" \
	says "guest finished (no rc: it crashed, hung or never booted" 6.12-died

results 6.12-limit
tap 6.12-limit/a.tap '1..2' 'ok 1 - one'
echo 14400 >"$TMP/6.12-limit/timed-out"
: >"$TMP/6.12-limit/console.log"
tap_check "a guest stopped by its time limit fails" \
	verdict "2 passed, 2 failed" fail 6.12-limit
tap_check "and the summary names the limit, not a crash" \
	says "guest finished (stopped by its limit, NICTL_VM_TIMEOUT=14400" 6.12-limit

# The end of the summary, after its folders: what a CI page that shows only
# the tail of the log must say of a failure.
tail_says()
{
	local text=$1

	shift
	summary "$@"
	tail -n 8 <<<"$OUT" | grep -qF -- "$text" && return 0
	echo "no line with \"$text\" in the last 8 of:"
	echo "$OUT"
	return 1
}

printf '%s\n' 'CPU 0: PC cpu_do_idle+0x8, LR arch_cpu_idle+0x10' '  stack: do_idle+0x284' \
	'CPU 1: PC queued_spin_lock_slowpath+0x220, LR sch_direct_xmit+0x244' \
	>"$TMP/6.12-limit/vcpus.txt"
tap_check "and where each vCPU was at the limit, at the end too" \
	tail_says "at the limit: CPU 1: PC queued_spin_lock_slowpath+0x220" 6.12-limit

guest 7.2-failed 1 ''
tap 7.2-failed/nictl_kept.tap '1..2' '#  RUN           kept.slow ...' \
	'# IRQ 63 kept the default for 4174 ms' '# slow: Test failed' '#          FAIL  kept.slow' \
	'not ok 1 kept.slow' 'ok 2 kept.other'
printf '%s\n' '# passed event seq 3: bound kept0' \
	'# nictl_kept.c:370:slow:Expected 0U (0) == drifts (1)' >"$TMP/7.2-failed/nictl_kept.log"
results host
tap host/a.tap '1..1' 'ok 1 - one'
tap_check "the end names each failure again, and its folder" \
	tail_says "[7.2-failed] not ok 1 kept.slow" host 7.2-failed
tap_check "with what the test printed before it, the harness's own lines passed over" \
	tail_says "  [7.2-failed] # IRQ 63 kept the default for 4174 ms" host 7.2-failed
tap_check "and what it wrote of itself to its stderr log" \
	tail_says "  # nictl_kept.c:370:slow:Expected 0U (0) == drifts (1)" host 7.2-failed
tap_check "with the lines it wrote to its stderr log just before" \
	tail_says "  # passed event seq 3: bound kept0" host 7.2-failed
tap_check "the verdict is still the last line" \
	verdict "3 passed, 1 failed" fail host 7.2-failed
tap 7.2-failed/nictl_kept.tap '1..2' 'ok 1 kept.other' '#  RUN           kept.slow ...' \
	'not ok 2 kept.slow'
# The summary of the folders $2... has no line that matches regex $1.
never_says()
{
	local regex=$1

	shift
	summary "$@"
	grep -qE -- "$regex" <<<"$OUT" || return 0
	echo "a line matches \"$regex\" in:"
	echo "$OUT"
	return 1
}

tap_check "an earlier result and the RUN line are not what a test printed" \
	never_says '^  \[7.2-failed\] (ok 1|#  RUN)' 7.2-failed

tap_check "no folder at all is a usage error" \
	bash -c '! "$1" >/dev/null 2>&1' _ "$SUMMARIZE"

tap_done
