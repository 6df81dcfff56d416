#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run inside a test guest by guest-suite.sh: `make demo` as a test. The
# demo's own guest script (selftests/vm/demo-guest.sh) binds vnode1 with
# `bind --numa-local`, sends traffic at it and fails when any of the
# interrupts it counts lands outside the node, or none lands. Then the
# binding is restored, for the tests after this one. TAP on stdout.
# Environment: NICTL_CTL, NICTL_REPO, NICTL_BUILD (see guest-suite.sh).
set -u

# shellcheck source=selftests/lib/tap.sh
. "$NICTL_REPO/selftests/lib/tap.sh"

echo "1..2"

out=$("$NICTL_REPO/selftests/vm/demo-guest.sh" 2>&1)
status=$?
printf '%s\n' "$out" | sed 's/^/# /'
tap "$status" "make demo's guest: vnode1 bound, its interrupts all on its node's CPUs"

out=$("$NICTL_CTL" restore vnode1 2>&1)
status=$?
[ -z "$out" ] || printf '%s\n' "$out" | sed 's/^/# /'
tap "$status" "nictlctl restore vnode1"

[ "$failed" -eq 0 ]
