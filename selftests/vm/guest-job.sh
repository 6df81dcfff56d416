#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The test guest's second stage: PID 1 after guest-init.sh switched the root
# to the host's (switch_root, not chroot: inside a chroot the kernel refuses
# to create a user namespace, and the tests need one). Run by the host's
# /bin/sh with cwd = /, it runs the job, stores the kernel log and the job's
# exit code in the results folder and powers off, with the host's busybox,
# the same binary the initramfs carries.
#
# Environment, exported by guest-init.sh from results/guest.env:
#   NICTL_KREL NICTL_REPO NICTL_BUILD NICTL_RESULTS NICTL_KO NICTL_CTL
#   NICTL_MODULES  exported to the job
#   NICTL_CMD      the job's command line, already shell-quoted

BUSYBOX=/bin/busybox

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp TERM=dumb LANG=C.UTF-8

# PID 1 must never exit (the kernel would panic), so the last step powers
# off whatever happened before it; the host then finds no rc file when the
# job did not run to the end.
run_job() {
	echo "guest-init: running $NICTL_CMD"
	# NICTL_CMD is quoted for a shell; this sh evaluates it. Nobody types
	# on the serial console, so a job reading stdin gets EOF at once.
	/bin/sh -c "cd \"\$NICTL_REPO\" && exec $NICTL_CMD </dev/null"
}

rc=0
run_job || rc=$?
echo "guest-init: job exited with $rc"
$BUSYBOX dmesg >"$NICTL_RESULTS/dmesg.txt"
# rc last: its presence says the job ran to the end and the log is complete.
echo "$rc" >"$NICTL_RESULTS/rc"
$BUSYBOX sync
$BUSYBOX umount "$NICTL_RESULTS"
exec $BUSYBOX poweroff -f
