#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Print the release strings of the Debian kernels the suite runs on, one per
# line: the one linux-headers-amd64 (6.1) and linux-headers-6.12-amd64 point to,
# or those NICTL_KERNELS names (`make check-debug` names its debug kernel).
set -eu
if [ -n "${NICTL_KERNELS:-}" ]; then
	# shellcheck disable=SC2086 # a list of words: one line each
	printf '%s\n' $NICTL_KERNELS
	exit 0
fi
for meta in linux-headers-amd64 linux-headers-6.12-amd64; do
	dep=$(dpkg-query -W -f='${Depends}' "$meta" 2>/dev/null) || {
		echo "kernels: $meta is not installed (make deps installs it)" >&2
		exit 1
	}
	# "linux-headers-6.1.0-57-amd64 (= 6.1.192-3)" -> "6.1.0-57-amd64"
	echo "$dep" | sed -e 's/^linux-headers-//' -e 's/ .*//'
done
