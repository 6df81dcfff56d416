#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# apt-suite.sh SUITE COMMAND: apt for one Debian suite, private to the
# project's cache, so the suite kernels' packages can be fetched from
# bullseye, bookworm, bookworm-security or sid on any Debian host. The host's
# /etc/apt is read (its mirror, its apt.conf.d proxy settings) but never
# changed, and nothing is ever installed on the host.
#   CACHE/apt/SUITE/sources.list   one line: the host's mirror, SUITE, main
#   CACHE/apt/SUITE/lists/         the suite's package lists
#   CACHE/apt/SUITE/cache/         apt's package cache
# CACHE is NICTL_CACHE, default /var/cache/nictl. NICTL_APT_ARCH=ARCH (a
# Debian architecture, default the host's) fetches another architecture's
# packages (and those of all), with lists and cache of its own in
# CACHE/apt/SUITE.ARCH/: the host's dpkg never learns of that
# architecture. The mirror is the first URI
# of the host's sources whose suite is not a security suite (for
# SUITE-security: the first whose suite is), NICTL_DEBIAN_MIRROR overrides it.
# Release files of old suites (and sid's, between uploads) have expired:
# their dates are not checked, their signatures are.
# Commands:
#   update              fetch the suite's package lists
#   download DIR PKG... download the packages into DIR (updating the lists
#                       first when they do not know one of them yet)
#   closure DIR PKG...  the same with every package they depend on, down to
#                       libc: what a root that has nothing else needs
#   mirror              print the suite's mirror URI
set -eu

KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

die() {
	echo "apt-suite: $*" >&2
	exit 1
}

# Print the URIs of the host's sources for suites that are ($1 = yes) or are
# not ($1 = no) security suites, in the order apt reads them: deb822 .sources
# files and one-line sources.list files.
host_uris() {
	want=$1
	for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources; do
		[ -f "$file" ] || continue
		case $file in
		*.sources)
			# A stanza ends at a blank line: print its URIs when one
			# of its suites matches.
			awk -v want="$want" '
				function flush() {
					if (uris != "" && match_) print uris
					uris = ""; match_ = 0
				}
				/^[ \t]*$/ { flush(); next }
				/^URIs:/ { sub(/^URIs:[ \t]*/, ""); uris = $0 }
				/^Suites:/ {
					for (i = 2; i <= NF; i++)
						if (($i ~ /-security$/) == (want == "yes")) match_ = 1
				}
				END { flush() }' "$file"
			;;
		*)
			awk -v want="$want" '
				$1 == "deb" {
					i = 2
					if ($i ~ /^\[/) while ($i !~ /\]$/) i++
					if ($i ~ /^\[/ || $i ~ /\]$/) i++
					if (($(i + 1) ~ /-security$/) == (want == "yes")) print $i
				}' "$file"
			;;
		esac
	done | tr -s ' \t' '\n' | grep -v '^$' || true
}

mirror() {
	case $SUITE in
	*-security) security=yes ;;
	*) security=no ;;
	esac
	if [ -n "${NICTL_DEBIAN_MIRROR:-}" ]; then
		uri=$NICTL_DEBIAN_MIRROR
		[ $security = no ] || uri=${uri%/}-security
	else
		uri=$(host_uris $security | head -n 1)
	fi
	[ -n "$uri" ] || die "no Debian mirror for $SUITE in /etc/apt/sources.list{,.d/} (set NICTL_DEBIAN_MIRROR)"
	echo "$uri"
}

# apt-get with the suite's private sources, lists and cache; the host's
# preferences (pins) must not pick versions for another suite.
suite_apt() {
	apt-get -q -o Dir::Etc::sourcelist="$DIR/sources.list" -o Dir::Etc::sourceparts=/dev/null \
		-o Dir::Etc::preferences=/dev/null -o Dir::Etc::preferencesparts=/dev/null \
		-o Dir::State::Lists="$DIR/lists" -o Dir::Cache="$DIR/cache" \
		-o APT::Architecture="$ARCH" -o APT::Architectures="$ARCH" \
		-o Acquire::Check-Valid-Until=false "$@"
}

# Make the suite's directories; then hold its lock until exit: the guests of
# two kernels of one suite fetch their images at the same time, and apt
# does not share its lists and cache between two runs.
setup() {
	mkdir -p "$DIR/lists/partial" "$DIR/cache/archives/partial"
	exec 7>"$DIR/.lock"
	flock 7
	line="deb [signed-by=$KEYRING] $(mirror) $SUITE main"
	# Written only when it changes, so a warm cache stays warm.
	[ "$(cat "$DIR/sources.list" 2>/dev/null)" = "$line" ] ||
		echo "$line" >"$DIR/sources.list"
}

update() {
	suite_apt update >&2 || die "apt-get update for $SUITE failed"
}

# Download packages $2... into directory $1.
download() {
	dest=$1
	shift
	# apt drops to the _apt user for downloads; let it write there so it
	# does not fall back to an unsandboxed download with a warning.
	chown _apt "$dest" 2>/dev/null || true
	ls "$DIR/lists/"*_Packages* >/dev/null 2>&1 || update
	# Lists that do not know a package yet are updated once; only the
	# second try's errors are worth showing.
	if ! (cd "$dest" && suite_apt download "$@") >/dev/null 2>&1; then
		update
		(cd "$dest" && suite_apt download "$@") >&2 ||
			die "cannot download $* from $SUITE"
	fi
}

# Download packages $2... and their dependencies into directory $1: apt
# resolves them against a dpkg status of its own that has nothing
# installed, and never touches the host's.
closure() {
	dest=$1
	shift
	mkdir -p "$dest/partial" "$DIR/closure"
	chown _apt "$dest" "$dest/partial" 2>/dev/null || true
	: >"$DIR/closure/status"
	ls "$DIR/lists/"*_Packages* >/dev/null 2>&1 || update
	suite_apt -o Dir::State::status="$DIR/closure/status" -o Dir::Cache::archives="$dest" \
		-o Debug::NoLocking=1 -y --no-install-recommends install --download-only "$@" >&2 ||
		die "cannot download $* and their dependencies from $SUITE"
	rm -rf "$dest/partial" "$dest/lock"
}

main() {
	[ $# -ge 2 ] || die "usage: apt-suite.sh SUITE update|download DIR PKG...|closure DIR PKG...|mirror"
	SUITE=$1
	DIR=${NICTL_CACHE:-/var/cache/nictl}/apt/$SUITE
	host_arch=$(dpkg --print-architecture)
	ARCH=${NICTL_APT_ARCH:-$host_arch}
	[ "$ARCH" = "$host_arch" ] || DIR=$DIR.$ARCH
	cmd=$2
	shift 2
	case $cmd in
	update)
		setup
		update
		;;
	download)
		[ $# -ge 2 ] || die "usage: apt-suite.sh SUITE download DIR PKG..."
		setup
		download "$@"
		;;
	closure)
		[ $# -ge 2 ] || die "usage: apt-suite.sh SUITE closure DIR PKG..."
		setup
		closure "$@"
		;;
	mirror)
		mirror
		;;
	*)
		die "unknown command $cmd (update, download, closure, mirror)"
		;;
	esac
}

main "$@"
