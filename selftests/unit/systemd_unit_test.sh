#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# systemd/nictl.service does what its comments say, run the way systemd runs
# it: `systemctl reload` fails on a file the daemon would refuse, before any
# signal reaches the daemon, and signals it for a good one; the unit does
# not restart the daemon on the status a refused file makes it exit with.
# The unit's own command lines are run, with the installed paths pointed at
# the build and at a scratch configuration.
# selftests/unit/Makefile fills in the paths of the repository and the build.
# shellcheck disable=SC2317 # the checks are run through tap_check
set -u

REPO=@NICTL_REPO@
BUILD=@NICTL_BUILD@
UNIT=$REPO/systemd/nictl.service

# shellcheck source=selftests/unit/tap.sh
. "$REPO/selftests/unit/tap.sh"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# The values of KEY in the unit, one per line, with the scratch paths.
unit_values() {
	sed -n "s/^$1=//p" "$UNIT" |
		sed -e "s|@SBINDIR@|$BUILD/bin|g" -e "s|/etc/nictl/nictl.conf|$TMP/nictl.conf|g"
}

# A stand-in for the daemon that writes "hup" to a file on SIGHUP; it
# leaves tap_check's output pipe alone, and stop_mainpid ends it.
start_mainpid() {
	rm -f "$TMP/hup"
	bash -c "trap 'echo hup >$TMP/hup' HUP; while :; do sleep 0.1; done" \
		</dev/null >/dev/null 2>&1 &
	MAINPID=$!
	export MAINPID
}

stop_mainpid() {
	kill "$MAINPID"
	wait "$MAINPID" 2>/dev/null
}

# Run the ExecReload lines in order, as systemd does: the first that fails
# fails the reload. Prints the failing status; 0 when all succeeded.
reload() {
	local cmd status=0

	while IFS= read -r cmd; do
		bash -c "$cmd" >/dev/null 2>&1 || { status=$?; break; }
	done < <(unit_values ExecReload)
	echo "$status"
}

reload_refuses_a_bad_file() {
	local status

	printf '[rule data]\nmatch-driver = mlx5_core,ice\n' >"$TMP/nictl.conf"
	start_mainpid
	status=$(reload)
	sleep 0.5
	stop_mainpid
	[ "$status" = 78 ] || { echo "reload ended with status $status, expected 78"; return 1; }
	[ ! -e "$TMP/hup" ] || { echo "the daemon was signalled for a refused file"; return 1; }
}

reload_signals_for_a_good_file() {
	local status i

	printf '[rule data]\nmatch-driver = mlx5_core ice\n' >"$TMP/nictl.conf"
	start_mainpid
	status=$(reload)
	for i in $(seq 50); do
		[ -e "$TMP/hup" ] && break
		sleep 0.1
	done
	stop_mainpid
	[ "$status" = 0 ] || { echo "reload ended with status $status, expected 0"; return 1; }
	[ -e "$TMP/hup" ] || { echo "the daemon got no SIGHUP after $i tries"; return 1; }
}

# The status the daemon exits with on a refused file, and only that one, is
# one the unit does not restart on.
no_restart_on_refused_file() {
	local status prevent

	printf '[rule data]\nmatch-name = eth0:1\n' >"$TMP/nictl.conf"
	"$BUILD/bin/nictlctl" daemon --foreground -c "$TMP/nictl.conf" 2>/dev/null
	status=$?
	prevent=$(unit_values RestartPreventExitStatus)
	[ "$prevent" = "$status" ] ||
		{ echo "the daemon exits $status, the unit prevents restarts on '$prevent'"; return 1; }
}

tap_check "systemctl reload fails on a refused file, and does not signal the daemon" \
	reload_refuses_a_bad_file
tap_check "systemctl reload signals the daemon for a valid file" reload_signals_for_a_good_file
tap_check "the unit does not restart the daemon on a refused file (78)" no_restart_on_refused_file
tap_done
