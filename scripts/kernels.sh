#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The suite's kernels, from scripts/kernels.list:
#   kernels.sh              the release strings of the host's architecture
#                           that `make check` boots, one per line: those
#                           NICTL_KERNELS names when set (`make check-debug`
#                           names its debug kernel); with NICTL_ALL_KERNELS=1
#                           every listed one whose CHECK is not build; else
#                           those whose CHECK is neither build nor no
#   kernels.sh --guests     the same of every architecture: each has a guest
#   kernels.sh --build      those the test module is built for: the guests'
#                           and those whose CHECK is build
#   kernels.sh KREL FIELD   KREL's SUITE, ARCH, BUILD or CHECK field (suite,
#                           arch, build, check); fails for a kernel the list
#                           does not have, but for its arch: that of a kernel
#                           built here (the debug kernel) is the host's
set -eu
list=$(dirname "$0")/kernels.list

# Print the lines of the list without comments, fields separated by a blank.
entries() {
	sed -e 's/#.*//' "$list" | awk 'NF { $1 = $1; print }'
}

usage() {
	echo "usage: kernels.sh [--guests | --build | KREL suite|arch|build|check]" >&2
	exit 2
}

if [ $# -eq 2 ]; then
	case $2 in
	suite) field=2 ;;
	arch) field=3 ;;
	build) field=4 ;;
	check) field=5 ;;
	*)
		echo "kernels: unknown field $2 (suite, arch, build, check)" >&2
		exit 2
		;;
	esac
	value=$(entries | awk -v krel="$1" -v f="$field" '$1 == krel { print $f }')
	[ -n "$value" ] || [ "$2" != arch ] || value=$(dpkg --print-architecture)
	[ -n "$value" ] || {
		echo "kernels: $1 is not in $list" >&2
		exit 1
	}
	echo "$value"
	exit 0
fi
# CHECK build boots nothing; no boots with NICTL_ALL_KERNELS=1 only.
booted=1 arch=$(dpkg --print-architecture)
case $#:${1:-} in
0:) ;;
1:--guests) arch='' ;;
1:--build) arch='' booted=0 ;;
*) usage ;;
esac
if [ -n "${NICTL_KERNELS:-}" ]; then
	# shellcheck disable=SC2086 # a list of words: one line each
	printf '%s\n' $NICTL_KERNELS
else
	entries | awk -v arch="$arch" -v booted="$booted" -v all="${NICTL_ALL_KERNELS:-0}" '
		(arch == "" || $3 == arch) && ($5 != "build" || !booted) &&
			($5 != "no" || all == 1) { print $1 }'
fi
