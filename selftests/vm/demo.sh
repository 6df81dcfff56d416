#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# demo.sh BUILD: boot the 6.12 guest and show nictl binding vnode1's queue
# IRQs to its NUMA node and their interrupts landing there under traffic
# (selftests/vm/demo-guest.sh, which fails otherwise), console on stdout.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd -P)
REPO=$(cd "$HERE/../.." && pwd -P)

die() {
	echo "demo: $*" >&2
	exit 1
}

# Print the 6.12 release among the suite's kernels (not the PREEMPT_RT one).
demo_kernel() {
	"$REPO/scripts/kernels.sh" | grep '^6\.12\.' | grep -v -- '-rt-' | grep . ||
		die "scripts/kernels.sh lists no 6.12 kernel"
}

main() {
	[ $# -eq 1 ] || die "usage: demo.sh BUILD"
	build=$(cd "$1" && pwd -P) || die "no build tree $1"
	krel=$(demo_kernel)
	# Fail here, not after a minute of booting.
	[ -f "$build/kmod/$krel/nictl.ko" ] || die "$build/kmod/$krel/nictl.ko missing (make test-modules)"
	[ -x "$build/bin/nictlctl" ] || die "$build/bin/nictlctl missing (make ctl)"
	[ -x "$build/selftests/bcast-flood" ] ||
		die "$build/selftests/bcast-flood missing (make selftests)"
	rm -rf "$build/demo"
	NICTL_BUILD=$build NICTL_VM_QUIET=1 \
		exec "$HERE/run-guest.sh" "$krel" "$build/demo" selftests/vm/demo-guest.sh
}

main "$@"
