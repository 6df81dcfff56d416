# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# TAP for the shell selftests (sourced): tap() numbers and prints each
# result, $failed counts the failures for the test's exit status; run()
# shows a command's output as TAP comments.

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

# run COMMAND...: run it with its output as TAP comments; its exit status.
run() {
	out=$("$@" 2>&1)
	status=$?
	[ -z "$out" ] || printf '%s\n' "$out" | sed 's/^/# /'
	return "$status"
}
