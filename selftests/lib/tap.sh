# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# TAP for the shell selftests (sourced): tap() numbers and prints each
# result, $failed counts the failures for the test's exit status.

n=0 failed=0

# tap STATUS DESCRIPTION: "ok" when STATUS (a command's exit status) is 0.
tap() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}
