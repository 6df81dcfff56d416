#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make install` and `make uninstall` into a scratch DESTDIR, without the
# module (NICTL_INSTALL_MODULE=0; the host need not have kernel headers):
# install puts exactly the expected files, with the expected modes and the
# paths and version filled in, where PREFIX says; uninstall removes exactly
# those and keeps an administrator's nictl.conf.
# selftests/unit/Makefile fills in the path of the repository.
set -u

REPO=@NICTL_REPO@

# shellcheck source=selftests/unit/tap.sh
. "$REPO/selftests/unit/tap.sh"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# Not the flags of a make this test may run under.
unset MAKEFLAGS MAKELEVEL MFLAGS

# make TARGET into DESTDIR $1, the rest of the arguments passed on; make's
# output goes to $1.log and is shown only when it fails.
run_make()
{
	local dest=$1 target=$2

	shift 2
	make -C "$REPO" "$target" NICTL_INSTALL_MODULE=0 DESTDIR="$dest" "$@" \
		>"$dest.log" 2>&1 && return 0
	cat "$dest.log"
	return 1
}

# The files (anything but a directory) below $1, relative to it, sorted.
files_below()
{
	(cd "$1" && find . ! -type d | sed 's|^\./||' | sort)
}

# Are the files below $1 exactly the words of $2?
has_files()
{
	local got want

	got=$(files_below "$1")
	want=$(tr ' ' '\n' <<<"$2" | sort)
	[[ $got == "$want" ]] && return 0
	diff <(echo "$want") <(echo "$got") | sed 's/^/expected < > found: /'
	return 1
}

# Does file $1 have mode $2 (octal)?
has_mode()
{
	[[ $(stat -c %a "$1") == "$2" ]] || { stat -c '%n: %a' "$1"; return 1; }
}

# The installed man page $1 has the version nictlctl $2 prints, nothing to fill.
man_version()
{
	local text

	text=$(zcat "$1") || return 1
	grep -q '@VERSION@' <<<"$text" && { echo "@VERSION@ left in $1"; return 1; }
	grep -qF "\"nictl ${2#nictlctl }\"" <<<"$text" || { echo "$1: not version '$2'"; return 1; }
}

usr=$TMP/usr
expected="usr/sbin/nictlctl
usr/share/man/man8/nictlctl.8.gz
usr/share/man/man5/nictl.conf.5.gz
usr/share/bash-completion/completions/nictlctl
usr/lib/systemd/system/nictl.service
etc/nictl/nictl.conf.example"
mkdir "$usr"
tap_check "make install PREFIX=/usr" run_make "$usr" install PREFIX=/usr
tap_check "it installs exactly the six files" has_files "$usr" "$expected"
tap_check "nictlctl is 0755" has_mode "$usr/usr/sbin/nictlctl" 755
for f in usr/share/man/man8/nictlctl.8.gz usr/share/man/man5/nictl.conf.5.gz \
	 usr/share/bash-completion/completions/nictlctl usr/lib/systemd/system/nictl.service \
	 etc/nictl/nictl.conf.example; do
	tap_check "$f is 0644" has_mode "$usr/$f" 644
done
version=$("$usr/usr/sbin/nictlctl" --version)
tap_check "the installed nictlctl runs: $version" grep -qE '^nictlctl [0-9]+\.[0-9]+' <<<"$version"
tap_check "nictlctl.8 carries that version" \
	man_version "$usr/usr/share/man/man8/nictlctl.8.gz" "$version"
tap_check "nictl.conf.5 carries that version" \
	man_version "$usr/usr/share/man/man5/nictl.conf.5.gz" "$version"
tap_check "man finds nictlctl(8) in the installed MANPATH" \
	test "$(man -M "$usr/usr/share/man" -w 8 nictlctl)" = \
	"$usr/usr/share/man/man8/nictlctl.8.gz"
tap_check "man finds nictl.conf(5) in the installed MANPATH" \
	test "$(man -M "$usr/usr/share/man" -w 5 nictl.conf)" = \
	"$usr/usr/share/man/man5/nictl.conf.5.gz"
tap_check "the completion is completion/nictlctl" \
	cmp "$REPO/completion/nictlctl" "$usr/usr/share/bash-completion/completions/nictlctl"
tap_check "the unit starts /usr/sbin/nictlctl" grep -qx \
	'ExecStart=/usr/sbin/nictlctl daemon -c /etc/nictl/nictl.conf' \
	"$usr/usr/lib/systemd/system/nictl.service"

echo '[rule mine]' >"$usr/etc/nictl/nictl.conf"
tap_check "make uninstall PREFIX=/usr" run_make "$usr" uninstall PREFIX=/usr
tap_check "it removes exactly what install put, not nictl.conf" has_files "$usr" \
	etc/nictl/nictl.conf
rm "$usr/etc/nictl/nictl.conf"
tap_check "a second uninstall finds nothing to remove and succeeds" \
	run_make "$usr" uninstall PREFIX=/usr
tap_check "/etc/nictl goes once it is empty" test ! -e "$usr/etc/nictl"

usrlocal=$TMP/local
mkdir "$usrlocal"
tap_check "make install with the default PREFIX" run_make "$usrlocal" install
tap_check "it installs the six files below /usr/local" has_files "$usrlocal" \
	"$(sed 's|^usr/|usr/local/|' <<<"$expected")"
tap_check "the unit starts /usr/local/sbin/nictlctl" \
	grep -q '^ExecStart=/usr/local/sbin/nictlctl ' \
	"$usrlocal/usr/local/lib/systemd/system/nictl.service"
tap_check "make uninstall with the default PREFIX" run_make "$usrlocal" uninstall
tap_check "no file is left" has_files "$usrlocal" ""

tap_done
