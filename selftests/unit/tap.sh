# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# TAP for the host tests written in bash (*_test.sh here), sourced by them:
# tap_check NAME CMD... runs one check, tap_done prints the plan and exits.
# The plan comes last because the checks are counted as they run; a test that
# dies before tap_done leaves no plan, which the suite counts as a failure.

TAP_N=0
TAP_FAILED=0

# Run CMD; "ok" when it succeeds. Its output is shown, as TAP comments, only
# when it fails, so a failure says why.
tap_check()
{
	local name=$1 out

	shift
	TAP_N=$((TAP_N + 1))
	if out=$("$@" 2>&1); then
		echo "ok $TAP_N - $name"
	else
		echo "not ok $TAP_N - $name"
		TAP_FAILED=1
		[[ -z $out ]] || sed 's/^/# /' <<<"$out"
	fi
}

tap_done()
{
	echo "1..$TAP_N"
	exit "$TAP_FAILED"
}
