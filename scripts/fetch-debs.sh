#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fetch-debs.sh SUITE ROOT PATTERN PKG: download Debian package PKG from SUITE
# (scripts/apt-suite.sh) with those of its dependencies whose names match
# the extended regular expression PATTERN, and unpack them all into ROOT with
# dpkg-deb -x: their files, never installed, no maintainer script run. The
# dependencies are read from the downloaded package, so they name the exact
# packages of that kernel (its -common headers, its kbuild). Prints the
# dependencies it did not fetch, one name per line (the first of
# alternatives, no version): what a system that builds with the files needs.
set -eu
[ $# -eq 4 ] || { echo "usage: fetch-debs.sh SUITE ROOT PATTERN PKG" >&2; exit 2; }
suite=$1 root=$2 pattern=$3 pkg=$4
top=$(cd "$(dirname "$0")/.." && pwd)
debs=$root/.debs

# Print the dependency names of package file $1.
depends() {
	dpkg-deb -f "$1" Depends | tr ',' '\n' | sed -e 's/|.*//' -e 's/(.*//' -e 's/[[:space:]]//g' |
		grep -v '^$' || true
}

mkdir -p "$debs"
"$top/scripts/apt-suite.sh" "$suite" download "$debs" "$pkg"
set -- "$debs"/*.deb
wanted=$(depends "$1" | grep -E "$pattern" || true)
if [ -n "$wanted" ]; then
	# shellcheck disable=SC2086 # one package a word
	"$top/scripts/apt-suite.sh" "$suite" download "$debs" $wanted
fi
# shellcheck disable=SC2086 # one package a word
fetched=$(printf '%s\n' "$pkg" $wanted)
for deb in "$debs"/*.deb; do
	dpkg-deb -x "$deb" "$root"
	depends "$deb"
done | sort -u | grep -vxF "$fetched" || true
rm -rf "$debs"
