#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# chroot-run.sh ROOT [--ro DIR | --rw DIR]... -- CMD...: run CMD chrooted into
# ROOT (scripts/chroot-suite.sh), with each DIR of the host bind-mounted at
# its own path inside, read-only or writable, and in the same working
# directory when that is inside one of them. Nothing else of the host is
# mounted: no /sys or /dev (debootstrap made ROOT's /dev/null and the like as
# device nodes), and ROOT's /proc is a new one that shows only CMD's
# processes, in a PID namespace of their own, with /proc/sys read-only (7.x's
# objtool reads its stack limit there). The mounts are made in a mount
# namespace of CMD's own: they end with it, even when it is killed, and the
# host never sees them. SIGINT, SIGTERM or SIGHUP to this script kills CMD
# and every process it started.
set -eu

die() {
	echo "chroot-run: $*" >&2
	exit 1
}

[ $# -ge 3 ] || die "usage: chroot-run.sh ROOT [--ro DIR | --rw DIR]... -- CMD..."
if [ -z "${NICTL_CHROOT_NS:-}" ]; then
	root=$(cd "$1" && pwd -P)
	NICTL_CHROOT_NS=1 unshare --mount --propagation private --pid --fork --kill-child \
		--mount-proc="$root/proc" "$0" "$@" &
	ns=$!
	# unshare passes no signal on, and the namespace's first process
	# ignores those it has no handler for; SIGKILL to unshare kills it
	# (--kill-child), and with it every process of the namespace.
	trap 'kill -KILL $ns 2>/dev/null' INT TERM HUP
	status=0
	wait $ns || status=$?
	# A trapped signal ends the first wait early.
	wait $ns 2>/dev/null || :
	exit $status
fi
unset NICTL_CHROOT_NS
root=$(cd "$1" && pwd -P)
shift
mount --bind -o ro "$root/proc/sys" "$root/proc/sys"
while [ $# -gt 0 ]; do
	case $1 in
	--ro | --rw)
		[ $# -ge 2 ] || die "$1 needs a directory"
		dir=$(cd "$2" && pwd -P) || die "no directory $2"
		mkdir -p "$root$dir"
		if [ "$1" = --ro ]; then
			mount --bind -o ro "$dir" "$root$dir"
		else
			mount --bind "$dir" "$root$dir"
		fi
		shift 2
		;;
	--)
		shift
		break
		;;
	*)
		die "unknown argument $1"
		;;
	esac
done
[ $# -gt 0 ] || die "no command"
# shellcheck disable=SC2016 # expanded by the shell in the chroot
exec chroot "$root" /bin/sh -c 'cd "$0" 2>/dev/null || cd /; exec "$@"' "$(pwd -P)" "$@"
