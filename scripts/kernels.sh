#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The suite's kernels, from scripts/kernels.list:
#   kernels.sh              the release strings `make check` runs on, one per
#                           line: those NICTL_KERNELS names when set (`make
#                           check-debug` names its debug kernel), every listed
#                           one with NICTL_ALL_KERNELS=1, else those whose
#                           CHECK is not no
#   kernels.sh KREL FIELD   KREL's SUITE, BUILD or CHECK field (suite, build,
#                           check); fails for a kernel the list does not have
set -eu
list=$(dirname "$0")/kernels.list

# Print the lines of the list without comments, fields separated by a blank.
entries() {
	sed -e 's/#.*//' "$list" | awk 'NF { $1 = $1; print }'
}

if [ $# -eq 2 ]; then
	case $2 in
	suite) field=2 ;;
	build) field=3 ;;
	check) field=4 ;;
	*)
		echo "kernels: unknown field $2 (suite, build, check)" >&2
		exit 2
		;;
	esac
	value=$(entries | awk -v krel="$1" -v f="$field" '$1 == krel { print $f }')
	[ -n "$value" ] || {
		echo "kernels: $1 is not in $list" >&2
		exit 1
	}
	echo "$value"
	exit 0
fi
[ $# -eq 0 ] || {
	echo "usage: kernels.sh [KREL suite|build|check]" >&2
	exit 2
}
if [ -n "${NICTL_KERNELS:-}" ]; then
	# shellcheck disable=SC2086 # a list of words: one line each
	printf '%s\n' $NICTL_KERNELS
elif [ "${NICTL_ALL_KERNELS:-0}" = 1 ]; then
	entries | cut -d' ' -f1
else
	entries | awk '$4 != "no" { print $1 }'
fi
