#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-deb.sh OUT [SRC]: build the nictl and nictl-dkms packages of the
# tree SRC (default: this repository) into OUT, emptied first. dpkg-buildpackage
# runs in a copy of SRC's files (scripts/tree-copy.sh), so neither its debian/
# staging nor the packages it writes next to the tree touch SRC.
set -eu -o pipefail

die() {
	echo "build-deb: $*" >&2
	exit 1
}

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: build-deb.sh OUT [SRC]"
top=$(cd "$(dirname "$0")/.." && pwd -P)
src=$(cd "${2:-$top}" && pwd -P) || die "no tree ${2:-}"
mkdir -p "$1"
out=$(cd "$1" && pwd -P)
work=$(mktemp -d "${TMPDIR:-/tmp}/nictl-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$top/scripts/tree-copy.sh" "$src" "$work/nictl"
(cd "$work/nictl" && dpkg-buildpackage -us -uc -b) >"$work/build.log" 2>&1 || {
	tail -n 40 "$work/build.log" >&2
	die "dpkg-buildpackage failed in a copy of $src (the last lines above)"
}
find "$out" -mindepth 1 -delete
mv "$work"/*.deb "$work"/*.buildinfo "$work"/*.changes "$out/"
ls "$out"/*.deb
