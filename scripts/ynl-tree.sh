#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Extract the kernel's YNL tools (tools/net/ynl: cli.py, its Python library
# and ynl-gen-c.py) and the netlink spec schemas (Documentation/netlink/*.yaml)
# from Debian's linux-source-6.12 package into DIR (default build/ynl), in
# the kernel tree's own layout. They are never committed.
set -eu
dir=${1:-build/ynl}
tarball=/usr/src/linux-source-6.12.tar.xz
[ -f "$dir/tools/net/ynl/cli.py" ] && [ -f "$dir/Documentation/netlink/genetlink-legacy.yaml" ] &&
	exit 0
if [ ! -f "$tarball" ]; then
	echo "ynl-tree: $tarball is missing; install it with: apt-get install linux-source-6.12" >&2
	exit 1
fi
mkdir -p "$dir"
# A wildcard matches across "/": *.py takes lib/ too. The kernel's own
# specs are not needed, only the schemas.
tar -xJf "$tarball" -C "$dir" --strip-components=1 --wildcards \
	--exclude='linux-source-6.12/Documentation/netlink/specs' \
	'linux-source-6.12/tools/net/ynl/*.py' \
	'linux-source-6.12/Documentation/netlink/*.yaml'
