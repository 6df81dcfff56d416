#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# demo.sh BUILD [ARCH]: boot the 6.12 guest and show nictl binding vnode1's
# queue IRQs to its NUMA node and their interrupts landing there under
# traffic (selftests/vm/demo-guest.sh, which fails otherwise), console on
# stdout. ARCH (default: the host's) picks the 6.12 kernel of that
# architecture: `make demo-arm64` boots the arm64 guest, which runs the
# programs cross-built for it (BUILD/arm64, make cross-userspace).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd -P)
REPO=$(cd "$HERE/../.." && pwd -P)

die() {
	echo "demo: $*" >&2
	exit 1
}

# Print the 6.12 release of architecture $1 among the kernels the test
# module is built for (not the PREEMPT_RT one).
demo_kernel() {
	"$REPO/scripts/kernels.sh" --build | grep '^6\.12\.' | grep -v -- '-rt-' |
		grep -- "-$1\$" || die "scripts/kernels.sh lists no 6.12 kernel for $1"
}

main() {
	[ $# -eq 1 ] || [ $# -eq 2 ] || die "usage: demo.sh BUILD [ARCH]"
	build=$(cd "$1" && pwd -P) || die "no build tree $1"
	host=$(dpkg --print-architecture)
	arch=${2:-$host}
	krel=$(demo_kernel "$arch")
	programs=$build out=$build/demo
	if [ "$arch" != "$host" ]; then
		programs=$build/$arch out=$build/demo-$arch
	fi
	# Fail here, not after a minute of booting.
	[ -f "$build/kmod/$krel/nictl.ko" ] || die "$build/kmod/$krel/nictl.ko missing (make test-modules)"
	[ -x "$programs/bin/nictlctl" ] || die "$programs/bin/nictlctl missing (make ctl)"
	[ -x "$programs/selftests/bcast-flood" ] ||
		die "$programs/selftests/bcast-flood missing (make selftests)"
	rm -rf "$out"
	NICTL_BUILD=$build NICTL_VM_QUIET=1 \
		exec "$HERE/run-guest.sh" "$krel" "$out" selftests/vm/demo-guest.sh
}

main "$@"
