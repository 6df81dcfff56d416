#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# chroot-install.sh ROOT NAME PACKAGE...: install PACKAGEs (without their
# recommends) in chroot ROOT (scripts/chroot-suite.sh) for NAME, once: the
# list last installed for NAME is kept in ROOT/var/lib/nictl/NAME and
# compared, so a changed list installs again. Runs that share the cache
# install under the lock chroot-suite.sh makes the chroot under.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)

die() {
	echo "chroot-install: $*" >&2
	exit 1
}

run() {
	"$top/scripts/chroot-run.sh" "$root" -- "$@" >&2
}

[ $# -ge 3 ] || die "usage: chroot-install.sh ROOT NAME PACKAGE..."
root=$1 name=$2
shift 2
stamp=$root/var/lib/nictl/$name
want=$(printf '%s\n' "$@")
[ "$want" = "$(cat "$stamp" 2>/dev/null)" ] && exit 0
exec 8>"$(dirname "$root")/.$(basename "$root").lock"
flock 8
[ "$want" = "$(cat "$stamp" 2>/dev/null)" ] && exit 0
echo "chroot-install: installing for $name in $root: $*" >&2
{ run apt-get -q update && run apt-get -q install -y --no-install-recommends "$@" &&
	run apt-get clean; } || die "cannot install $* in $root (for $name)"
mkdir -p "$root/var/lib/nictl"
printf '%s\n' "$want" >"$stamp"
