#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run inside a test guest by guest-suite.sh: load the nictl.ko that DKMS
# built and installed for this kernel (scripts/build-dkms-modules.sh, run by
# `make check` before the guests boot), which is the build users get, bind
# vnode1 with nictlctl, read the binding back from /proc/irq, restore it (the
# tests after this one expect vnode1 as the guest booted) and unload the
# module again. TAP on stdout; every test reports, none is skipped.
# Environment: NICTL_KREL, NICTL_CTL, NICTL_REPO, NICTL_BUILD (see guest-suite.sh).
set -u

IFACE=vnode1
DKMS_DIR=${NICTL_BUILD:-$NICTL_REPO/build}/dkms/install/$NICTL_KREL/updates/dkms

# shellcheck source=selftests/lib/tap.sh
. "$NICTL_REPO/selftests/lib/tap.sh"
# shellcheck source=selftests/lib/vnode.sh
. "$NICTL_REPO/selftests/lib/vnode.sh"

echo "1..6"

set -- "$DKMS_DIR"/nictl.ko*
ko=$1
vermagic=$(modinfo -F vermagic "$ko" 2>/dev/null)
echo "# $ko: vermagic $vermagic"
[ "${vermagic%% *}" = "$NICTL_KREL" ]
tap $? "DKMS installed a nictl.ko for $NICTL_KREL"

# The suite's own build is loaded when this test does not run first.
[ ! -d /sys/module/nictl ] || run rmmod nictl
# nictlctl's version and dkms.conf's both come from the top Makefile; the
# suite's build has a fault-injection knob, the DKMS build must not.
run insmod "$ko" &&
	[ "$("$NICTL_CTL" --version)" = "nictlctl $(cat /sys/module/nictl/version)" ] &&
	[ ! -e /sys/module/nictl/parameters/fault_fail_nth ]
tap $? "insmod of the DKMS build: nictlctl's version, no fault injection"

before=$(queue_affinities)
run "$NICTL_CTL" bind "$IFACE" --numa-local
tap $? "nictlctl bind $IFACE --numa-local"

check_binding
tap $? "/proc/irq: each $IFACE queue on one CPU of its node, one core per queue"

run "$NICTL_CTL" restore "$IFACE" &&
	after=$(queue_affinities) &&
	echo "# IRQ:CPUS before the bind: $before; after the restore: $after" &&
	[ "$after" = "$before" ]
tap $? "nictlctl restore $IFACE: /proc/irq as before the bind"

run rmmod nictl
tap $? "rmmod nictl"

[ "$failed" -eq 0 ]
