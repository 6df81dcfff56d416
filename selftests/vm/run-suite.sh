#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run-suite.sh BUILD: run the whole suite and summarize it.
#   - every executable in BUILD/unit/ on the host, TAP to
#     BUILD/results/host/NAME.tap, and beside them and the guests the
#     Debian packages' test, selftests/pkg/pkg_test.sh, TAP to
#     BUILD/results/host/pkg_test.tap (neither with NICTL_HOST_TESTS=0:
#     `make check-debug` is about the kernel)
#   - selftests/guest-suite.sh in a guest per kernel of scripts/kernels.sh --guests,
#     results in BUILD/results/KREL/: the whole suite, or its core where
#     scripts/kernels.list says CHECK core (CHECK cross: the core of another
#     architecture, in that architecture's guest); with NICTL_GUEST_HALVES=1 (`make
#     check-debug`: one kernel, and a slow one) two guests per kernel that
#     runs the whole suite, each running one half of it, results in
#     BUILD/results/KREL.half1/ and .half2/
#   - nictl_big in the big guest (run-guest.sh NICTL_VM_PROFILE=big) on the
#     newest kernel that runs the whole suite, results in BUILD/results/KREL.big/
#     (not with NICTL_GUEST_HALVES=1)
# then summarize.sh over all of them; its verdict is the exit status.
# An x86 guest keeps one host core busy (QEMU's single-threaded TCG; an
# arm64 guest's threads take what the other guests leave), so at most
# NICTL_GUEST_JOBS guests (default: one per host core) run at a time, the
# others wait for a free core: more guests than cores would only slow every
# one of them down, towards their tests' time limits.
# NICTL_HOG=N runs N busy loops beside everything for the whole run: the
# suite must pass on a busy machine too (docs/reliability.md, A busy host).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd -P)
REPO=$(cd "$HERE/../.." && pwd -P)
# A hung unit test must not hang `make check`.
UNIT_TIMEOUT=300
# The package test builds the packages twice and has DKMS build the module
# twice in a chroot: 4 to 10 minutes beside the guests.
PKG_TIMEOUT=1800
# A whole-suite guest takes about 20 minutes on a 2-core host, a core one 8
# to 12, and far longer when other emulators share the cores; CI allows 90
# minutes in all.
: "${NICTL_VM_TIMEOUT:=2700}"
export NICTL_VM_TIMEOUT

die() {
	echo "run-suite: $*" >&2
	exit 1
}

# Run the host unit tests of $1/unit into $2.
run_host_tests() {
	unit=$1/unit out=$2
	mkdir -p "$out"
	for test in "$unit"/*; do
		if [ ! -f "$test" ] || [ ! -x "$test" ]; then
			continue
		fi
		name=$(basename "$test")
		echo "run-suite: host: $name"
		# The TAP (and a failure) is judged by summarize.sh.
		timeout "$UNIT_TIMEOUT" "$test" >"$out/$name.tap" ||
			echo "run-suite: host: $name exited with $?"
	done
}

# Start the package test in the background, its TAP into $1; its pid in
# pkg_pid. A package test that could not finish leaves a TAP without all
# its results, which the summary counts as failed.
start_pkg_test() {
	mkdir -p "$(dirname "$1")"
	echo "run-suite: host: pkg_test (the Debian packages, in a chroot)"
	timeout "$PKG_TIMEOUT" "$REPO/selftests/pkg/pkg_test.sh" >"$1" 2>"${1%.tap}.log" &
	pkg_pid=$!
}

# Start $NICTL_HOG busy loops; their pids join hog_pids. A loop of the
# shell itself: no process is started per turn, each takes a whole core.
start_hogs() {
	local i

	for ((i = 0; i < ${NICTL_HOG:-0}; i++)); do
		(while :; do :; done) &
		hog_pids="$hog_pids $!"
	done
	[ -z "$hog_pids" ] || echo "run-suite: $NICTL_HOG busy loops beside the suite:$hog_pids"
}

# Queue a guest of profile $1 (run-guest.sh) for kernel $2 with results in
# $3 running guest-suite.sh with the rest of the arguments.
queue_guest() {
	jobs+=("$*")
}

# Boot the guest of the next queued job in the background; the console goes
# to OUTDIR/console.log only, the TAP is printed by the summary.
start_guest() {
	# shellcheck disable=SC2086 # a job is its words
	set -- ${jobs[next]}
	next=$((next + 1))
	profile=$1 krel=$2 out=$3
	shift 3
	echo "run-suite: $krel: booting a $profile guest for ${*:-the whole suite} (console: $out/console.log)"
	NICTL_VM_PROFILE=$profile "$HERE/run-guest.sh" "$krel" "$out" selftests/guest-suite.sh \
		"$@" >/dev/null &
	dirs="$dirs $out" pids="$pids $!" running="$running $!"
}

# Start queued guests while fewer than $max run.
fill_cores() {
	local pid alive=''

	for pid in $running; do
		if kill -0 "$pid" 2>/dev/null; then
			alive="$alive $pid"
		fi
	done
	running=$alive
	while [ "$next" -lt "${#jobs[@]}" ] && [ "$(wc -w <<<"$running")" -lt "$max" ]; do
		start_guest
	done
}

main() {
	[ $# -eq 1 ] || die "usage: run-suite.sh BUILD"
	mkdir -p "$1"
	build=$(cd "$1" && pwd -P)
	results=$build/results
	kernels=$("$REPO/scripts/kernels.sh" --guests) || die "cannot list the suite kernels"
	[ -n "$kernels" ] || die "scripts/kernels.sh listed no kernel"
	# Results of an earlier run must not be summarized as this run's.
	rm -rf "$results"
	export NICTL_BUILD="$build"
	dirs='' pids='' jobs=() hog_pids=''
	# Background jobs ignore SIGINT; pass an interrupt on as SIGTERM so
	# each run-guest.sh stops its QEMU and removes its namespace.
	# shellcheck disable=SC2086 # one pid per word
	trap 'kill $pids $hog_pids 2>/dev/null; exit 130' INT TERM
	# shellcheck disable=SC2086 # one pid per word
	trap 'kill $hog_pids 2>/dev/null' EXIT
	start_hogs
	# The longest guests first, so that the short ones fill the cores
	# at the end instead of one long guest running alone.
	big=''
	for krel in $kernels; do
		# A kernel named by NICTL_KERNELS but not listed (the debug
		# kernel) runs the whole suite.
		plan=$("$REPO/scripts/kernels.sh" "$krel" check 2>/dev/null) || plan=full
		if [ "$plan" = core ] || [ "$plan" = cross ]; then
			continue
		elif [ "${NICTL_GUEST_HALVES:-0}" = 1 ]; then
			queue_guest suite "$krel" "$results/$krel.half1" --half 1
			queue_guest suite "$krel" "$results/$krel.half2" --half 2
		elif [ "$plan" = kernel-side ]; then
			queue_guest suite "$krel" "$results/$krel" --kernel-side
		else
			queue_guest suite "$krel" "$results/$krel"
			big=$krel
		fi
	done
	# Another architecture's core runs longest of the cores (its guest
	# emulates another instruction set), the PREEMPT_RT kernel's next.
	for krel in $kernels; do
		plan=$("$REPO/scripts/kernels.sh" "$krel" check 2>/dev/null) || plan=full
		[ "$plan" != cross ] || queue_guest suite "$krel" "$results/$krel" --cross
	done
	for krel in $(grep -- '-rt-' <<<"$kernels") $(grep -v -- '-rt-' <<<"$kernels"); do
		plan=$("$REPO/scripts/kernels.sh" "$krel" check 2>/dev/null) || plan=full
		[ "$plan" != core ] || queue_guest suite "$krel" "$results/$krel" --core
	done
	# The big guest is the shortest (about 5 minutes): it fills the end.
	[ -z "$big" ] || queue_guest big "$big" "$results/$big.big" nictl_big
	max=${NICTL_GUEST_JOBS:-$(nproc)} next=0 running=''
	fill_cores
	pkg_pid=''
	if [ "${NICTL_HOST_TESTS:-1}" = 1 ]; then
		start_pkg_test "$results/host/pkg_test.tap"
		pids="$pids $pkg_pid"
		run_host_tests "$build" "$results/host"
		dirs="$results/host $dirs"
	fi
	while [ "$next" -lt "${#jobs[@]}" ]; do
		sleep 5
		fill_cores
	done
	# run-guest.sh reports its own failures, pkg_test.sh its own; the
	# summary judges them.
	for pid in $pids; do
		wait "$pid" || true
	done
	if [ -n "$pkg_pid" ] && grep -q '^not ok' "$results/host/pkg_test.tap"; then
		echo "run-suite: host: pkg_test failed; its log: $results/host/pkg_test.log"
	fi
	# shellcheck disable=SC2086 # one pid per word
	[ -z "$hog_pids" ] || kill $hog_pids
	echo
	# shellcheck disable=SC2086 # the folders have no spaces (checked by run-guest.sh)
	exec "$HERE/summarize.sh" $dirs
}

main "$@"
