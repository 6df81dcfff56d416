#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# pkg_test.sh: the Debian packages as an administrator meets them, TAP on
# stdout. Builds nictl and nictl-dkms from this tree (scripts/build-deb.sh),
# runs lintian on them, then in a copy of a clean Debian 12 minbase chroot
# (scripts/chroot-suite.sh --pristine) that has a kernel's headers: apt
# installs both with their dependencies, DKMS builds the module for those
# headers, nictlctl runs; an administrator's edit of /etc/nictl/nictl.conf
# survives the upgrade to a newer build (this tree as version VERSION+pkgtest1,
# DKMS rebuilding the module); purge leaves nothing of nictl behind.
# Each check needs the ones before it: after a failure the rest are reported
# as failed, not skipped. Needs root, network access to the Debian archive,
# and dpkg-dev, debhelper, dh-dkms, lintian and debootstrap (make deps).
set -u -o pipefail

HERE=$(cd "$(dirname "$0")" && pwd -P)
REPO=$(cd "$HERE/../.." && pwd -P)
PLAN=10
N=0
BROKEN=

# The line a rule of the edited configuration is recognized by.
EDIT='match-name = pkgtest0'

# check DESC CMD...: run CMD, report it as test N+1 with its output as
# comments when it fails (lintian's info and pedantic tags even when it
# passes); once one failed, report the rest as failed.
check() {
	local desc=$1 out
	shift
	N=$((N + 1))
	if [ -n "$BROKEN" ]; then
		echo "not ok $N - $desc # not run: $BROKEN failed"
		return
	fi
	if out=$("$@" 2>&1); then
		echo "ok $N - $desc"
		printf '%s\n' "$out" | grep -E '^(I|P|N): ' | sed 's/^/# /'
	else
		echo "not ok $N - $desc"
		printf '%s\n' "$out" | tail -n 60 | sed 's/^/# /'
		BROKEN="'$desc'"
	fi
}

die() {
	echo "pkg_test: $*" >&2
	exit 1
}

# in_root CMD...: run CMD in the test's chroot, the packages readable there,
# in an administrator's clean environment: nothing of make check's (its
# exported NICTL_VERSION once leaked into DKMS's build of the module).
in_root() {
	"$REPO/scripts/chroot-run.sh" "$ROOT" --ro "$WORK/debs" -- \
		env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@" </dev/null
}

# expect WHAT GOT WANT: fail, saying both, unless GOT is WANT.
expect() {
	[ "$2" = "$3" ] || { echo "$1: got '$2', expected '$3'"; return 1; }
}

build_v1() {
	"$REPO/scripts/build-deb.sh" "$WORK/debs/v1"
}

lint() {
	lintian --fail-on error,warning --display-info --pedantic "$WORK"/debs/v1/*.changes
}

# The kernel the chroot has headers of (the newest, should there be several).
chroot_krel() {
	find "$ROOT/lib/modules" -mindepth 2 -maxdepth 2 -name build -printf '%h\n' |
		xargs -rn1 basename | sort -V | tail -n 1
}

# A copy of the pristine chroot with the headers of Debian 12's kernel: the
# machine the packages are installed on.
prepare_root() {
	local pristine

	pristine=$("$REPO/scripts/chroot-suite.sh" bookworm --pristine) || return 1
	cp -a "$pristine" "$ROOT" || return 1
	in_root apt-get -q update || return 1
	in_root apt-get -q install -y linux-headers-amd64 || return 1
	[ -n "$(chroot_krel)" ] || { echo "no kernel headers under $ROOT/lib/modules"; return 1; }
}

# The installed module's version, as modinfo reads it from the .ko.
ko_version() {
	local ko

	ko=$(ls "$ROOT/lib/modules/$KREL/updates/dkms/"nictl.ko* 2>/dev/null | head -n 1)
	[ -n "$ko" ] || { echo "no nictl.ko under /lib/modules/$KREL/updates/dkms"; return 1; }
	in_root modinfo -F version "${ko#"$ROOT"}"
}

# DKMS says VERSION is installed for the chroot's kernel, and the .ko agrees.
dkms_installed() {
	local version=$1 status got

	status=$(in_root dkms status nictl) || return 1
	echo "dkms status: $status"
	grep -q "^nictl/$version, $KREL, x86_64: installed" <<<"$status" ||
		{ echo "expected nictl/$version installed for $KREL"; return 1; }
	[ "$(grep -c . <<<"$status")" -eq 1 ] ||
		{ echo "expected one line, nictl/$version only"; return 1; }
	got=$(ko_version) || { echo "$got"; return 1; }
	expect "nictl.ko's version" "$got" "$version"
}

install_v1() {
	in_root apt-get -q install -y "$WORK"/debs/v1/nictl-dkms_*.deb \
		"$WORK"/debs/v1/nictl_"$V1"_*.deb || return 1
	local pkg
	# What apt had to pull in for them.
	for pkg in dkms libnl-genl-3-200 libmicrohttpd12; do
		in_root dpkg-query -W -f='${Package} ${db:Status-Status}\n' "$pkg" |
			grep -qx "$pkg installed" || { echo "$pkg was not installed"; return 1; }
	done
}

# nictlctl runs, knows its version, and accepts the configuration it ships.
nictlctl_runs() {
	local got

	got=$(in_root nictlctl --version) || return 1
	expect "nictlctl --version" "$got" "nictlctl $V1" || return 1
	in_root nictlctl daemon --check || return 1
	in_root dpkg-query -W -f='${Conffiles}\n' nictl | grep -q ' /etc/nictl/nictl.conf ' ||
		{ echo "/etc/nictl/nictl.conf is not a conffile of nictl"; return 1; }
	for f in /usr/share/man/man8/nictlctl.8.gz /usr/share/man/man5/nictl.conf.5.gz \
		/lib/systemd/system/nictl.service /usr/share/bash-completion/completions/nictlctl; do
		[ -f "$ROOT$f" ] || { echo "$f is missing"; return 1; }
	done
}

# The administrator adds a rule, the way the daemon will read it.
edit_conf() {
	printf '\n[rule pkgtest]\n%s\ncpus = 1\n' "$EDIT" >>"$ROOT/etc/nictl/nictl.conf"
	in_root nictlctl daemon --check | grep -x '/etc/nictl/nictl.conf: valid, 1 rule'
}

# This tree again as version $V2: the changelog entry says why.
build_v2() {
	local src=$WORK/src2

	"$REPO/scripts/tree-copy.sh" "$REPO" "$src" || return 1
	sed -i "s/^VERSION\([[:space:]]*\):= .*/VERSION\1:= $V2/" "$src/Makefile"
	{
		printf 'nictl (%s) unstable; urgency=medium\n\n' "$V2"
		printf '  * A build for the upgrade test (selftests/pkg/pkg_test.sh).\n\n'
		printf ' -- nictl developers <nictl-dev@lists.nictl.dev>  %s\n\n' "$(date -R)"
		cat "$REPO/debian/changelog"
	} >"$src/debian/changelog"
	"$REPO/scripts/build-deb.sh" "$WORK/debs/v2" "$src"
}

upgrade() {
	in_root apt-get -q install -y "$WORK"/debs/v2/nictl-dkms_*.deb \
		"$WORK"/debs/v2/nictl_"$V2"_*.deb || return 1
	grep -qx "$EDIT" "$ROOT/etc/nictl/nictl.conf" ||
		{ echo "the edit of /etc/nictl/nictl.conf is gone"; return 1; }
	expect "nictlctl --version" "$(in_root nictlctl --version)" "nictlctl $V2" || return 1
	[ ! -e "$ROOT/usr/src/nictl-$V1" ] || { echo "/usr/src/nictl-$V1 is still there"; return 1; }
	dkms_installed "$V2"
}

# Nothing of nictl is left: no package, no file of it, no DKMS tree or module.
purge() {
	local left

	in_root apt-get -q purge -y nictl nictl-dkms || return 1
	left=$(in_root dpkg-query -W -f='${Package} ${db:Status-Status}\n' 'nictl*' 2>/dev/null |
		grep -v ' not-installed$')
	[ -z "$left" ] || { echo "dpkg still knows: $left"; return 1; }
	left=$(cd "$ROOT" && find etc/nictl usr/src var/lib/dkms lib/modules usr/sbin \
		usr/share/man lib/systemd run -name '*nictl*' 2>/dev/null)
	[ -z "$left" ] || { echo "left behind:"; echo "$left"; return 1; }
}

main() {
	[ "$(id -u)" -eq 0 ] || die "needs root (chroot, bind mounts)"
	V1=$(make -s --no-print-directory -C "$REPO" print-version) || die "no version"
	V2=$V1+pkgtest1
	WORK=$(mktemp -d "${TMPDIR:-/var/tmp}/nictl-pkg.XXXXXX") || die "no work directory"
	ROOT=$WORK/root KREL=
	trap 'rm -rf "$WORK"' EXIT
	mkdir -p "$WORK/debs"
	echo "1..$PLAN"
	check "packages build: nictl and nictl-dkms $V1 (dpkg-buildpackage -b)" build_v1
	check "lintian: no errors, no warnings" lint
	check "a clean Debian 12 chroot with a kernel's headers" prepare_root
	# check runs its command in a subshell: what it found is read again.
	KREL=$(chroot_krel 2>/dev/null)
	check "apt-get install of both packages pulls their dependencies" install_v1
	check "DKMS built and installed nictl.ko $V1 for the chroot's kernel" dkms_installed "$V1"
	check "nictlctl --version, daemon --check, conffile, man pages, unit" nictlctl_runs
	check "an edited /etc/nictl/nictl.conf" edit_conf
	check "packages build as $V2" build_v2
	check "upgrade to $V2 keeps the edit; DKMS rebuilt the module" upgrade
	check "apt-get purge leaves nothing of nictl behind" purge
	[ -z "$BROKEN" ]
}

main "$@"
