#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Extract the kselftest harness headers from Debian's linux-source-6.12
# package into DIR (default build/ksft). The headers are never committed.
set -eu
dir=${1:-build/ksft}
tarball=$(ls /usr/src/linux-source-6.12.tar.xz 2>/dev/null || true)
if [ -f "$dir/kselftest_harness.h" ] && [ -f "$dir/kselftest.h" ]; then
	exit 0
fi
if [ -z "$tarball" ]; then
	echo "ksft-headers: /usr/src/linux-source-6.12.tar.xz is missing;" \
	     "install it with: apt-get install linux-source-6.12" >&2
	exit 1
fi
mkdir -p "$dir"
tar -xJf "$tarball" -C "$dir" --strip-components=4 \
	linux-source-6.12/tools/testing/selftests/kselftest_harness.h \
	linux-source-6.12/tools/testing/selftests/kselftest.h
