#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Copy what building nictl.ko out of tree needs, and nothing else, into DIR
# (emptied first): Kbuild, the Makefile Kbuild reads VERSION from, kmod/'s
# sources and the uapi header. The test builds and DKMS build from such a copy.
# Usage: module-source.sh DIR
set -eu
dir=${1:?usage: module-source.sh DIR}
top=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$dir"
mkdir -p "$dir/kmod" "$dir/include/uapi/linux"
cp "$top/Kbuild" "$top/Makefile" "$dir/"
cp "$top"/kmod/*.[ch] "$dir/kmod/"
cp "$top/include/uapi/linux/nictl.h" "$dir/include/uapi/linux/"
