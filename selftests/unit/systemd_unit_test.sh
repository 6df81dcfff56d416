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

# The daemon speaks the Type=notify protocol on $NOTIFY_SOCKET: ready once
# it stands (here, without the module, keeping the rules through
# /proc/irq: the rule matches no device), reloading then
# ready around a SIGHUP whether the file is taken or refused, stopping.
notify_protocol() {
	grep -qx 'Type=notify' "$UNIT" || { echo "the unit is not Type=notify"; return 1; }
	python3 - "$BUILD/bin/nictlctl" "$TMP" <<'PY'
import os, signal, socket, subprocess, sys

ctl, tmp = sys.argv[1:]
path, conf = os.path.join(tmp, "notify.sock"), os.path.join(tmp, "nictl.conf")
sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
sock.bind(path)
sock.settimeout(60)
open(conf, "w").write("[rule a]\nmatch-name = none0\n")
daemon = subprocess.Popen([ctl, "daemon", "-c", conf, "--foreground"],
                          env=dict(os.environ, NOTIFY_SOCKET=path),
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

def expect(*want):
    try:
        got = sock.recv(4096).decode().split("\n")
    except socket.timeout:
        sys.exit(f"no message from the daemon; expected {want}")
    for w in want:
        if not any(line == w or (w.endswith("=") and line.startswith(w)) for line in got):
            sys.exit(f"got {got}, expected a line {w!r}")

try:
    direct = "STATUS=1 rule applied without module nictl (through /proc/irq); 0 devices not as configured"
    expect("READY=1", direct)
    daemon.send_signal(signal.SIGHUP)
    expect("RELOADING=1", "MONOTONIC_USEC=")
    expect("READY=1", direct)
    open(conf, "w").write("[rule a]\nmatch-name = eth0:1\n")
    daemon.send_signal(signal.SIGHUP)
    expect("RELOADING=1", "MONOTONIC_USEC=")
    expect("READY=1", "STATUS=")
    daemon.terminate()
    expect("STOPPING=1")
    status = daemon.wait(timeout=30)
    if status:
        sys.exit(f"the daemon exited {status} on SIGTERM")
finally:
    if daemon.poll() is None:
        daemon.kill()
PY
}

# systemd-analyze's rating of the unit, as installed: at most 4.0 ("OK").
exposure() {
	local unit=$TMP/nictl.service level

	sed "s|@SBINDIR@|/usr/sbin|" "$UNIT" >"$unit"
	level=$(systemd-analyze security --offline=true "$unit" 2>&1 |
		sed -n 's/.*Overall exposure level for nictl.service: \([0-9.]*\).*/\1/p')
	[ -n "$level" ] || { echo "systemd-analyze printed no exposure level"; return 1; }
	awk -v l="$level" 'BEGIN { exit !(l <= 4.0) }' ||
		{ echo "exposure $level, expected at most 4.0"; return 1; }
}

tap_check "systemd-analyze security: exposure at most 4.0" exposure
tap_check "Type=notify: READY=1, RELOADING=1 then READY=1 on SIGHUP, STOPPING=1" notify_protocol
tap_check "systemctl reload fails on a refused file, and does not signal the daemon" \
	reload_refuses_a_bad_file
tap_check "systemctl reload signals the daemon for a valid file" reload_signals_for_a_good_file
tap_check "the unit does not restart the daemon on a refused file (78)" no_restart_on_refused_file
tap_done
