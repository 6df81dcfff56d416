#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every guest test program takes its main() from NICTL_TEST_MAIN, which
# scales its tests' timeouts by NICTL_TIMEOUT_SCALE: with the harness's own,
# `make check-debug` ran nictl_doctor's tests under Debian's timeouts and
# one was killed on the debug kernel, ten times slower.
# selftests/unit/Makefile fills in the paths of the repository and the build.
# shellcheck disable=SC2317 # the checks are run through tap_check
set -u

REPO=@NICTL_REPO@

# shellcheck source=selftests/unit/tap.sh
. "$REPO/selftests/unit/tap.sh"

scaled_mains() {
	local f bad=0

	for f in "$REPO"/selftests/nictl_*.c; do
		# nictl_teardowntest runs the harness inside its own main().
		grep -q -e '^NICTL_TEST_MAIN$' -e '^int main(' "$f" && continue
		echo "${f#"$REPO"/}: no NICTL_TEST_MAIN (selftests/lib/main.h), its own main() instead"
		bad=1
	done
	return "$bad"
}

tap_check "every guest test program scales its timeouts (NICTL_TEST_MAIN)" scaled_mains
tap_done
