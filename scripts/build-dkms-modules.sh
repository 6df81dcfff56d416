#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build and install nictl.ko with Debian's dkms for every suite kernel, the
# way `dkms add .` in a clone then `dkms install` do on a real host, but with
# each of dkms's trees inside OUTDIR, so the host's /usr/src, /var/lib/dkms
# and /lib/modules stay untouched:
#   OUTDIR/clone                 the repository's files, as a clone has them
#   OUTDIR/source/nictl-VERSION  the DKMS source tree `dkms add` copied them to
#   OUTDIR/tree                  dkms's own tree (--dkmstree)
#   OUTDIR/install/KREL/updates/dkms/nictl.ko[.xz]
#                                what `dkms install` installed (compressed
#                                when /lib/modules/KREL says the kernel's
#                                modules are); the guests load it
#                                (selftests/nictl_dkms.sh)
#   OUTDIR/mok.key, mok.pub      the key dkms signs with, which it makes on
#                                first use, as /var/lib/dkms/mok.key on a host
#   OUTDIR/KREL.log              dkms's output
# Also checks that dkms.conf names VERSION (the top Makefile's) and makes dkms
# skip kernels older than 5.10.
# Usage: build-dkms-modules.sh OUTDIR VERSION
set -eu
[ $# -eq 2 ] || { echo "usage: build-dkms-modules.sh OUTDIR VERSION" >&2; exit 2; }
mkdir -p "$1"
out=$(cd "$1" && pwd)
version=$2
top=$(cd "$(dirname "$0")/.." && pwd)

die() {
	echo "build-dkms-modules: $*" >&2
	exit 1
}

# dkms_for KREL ACTION [ARG...]: run dkms on OUTDIR's trees for kernel KREL
# (add: on the tree ARG names; any other action: on nictl/VERSION),
# against its build tree in the cache (scripts/kernel-build-dir.sh, where a
# host has /lib/modules/KREL/build point; this one may have no /lib/modules
# at all), where modules for KREL are built (scripts/krun.sh: the host, or
# the kernel's chroot with OUTDIR mounted in). dkms takes the signing key
# and sign-file only from its framework.conf or the environment.
dkms_for() {
	krel=$1 action=$2
	shift 2
	[ "$action" = add ] || set -- "nictl/$version" "$@"
	# The kernels dkms must refuse have no tree; it must not look for one.
	kdir=$("$top/scripts/kernel-build-dir.sh" "$krel" 2>/dev/null) ||
		kdir=/usr/src/linux-headers-$krel
	"$top/scripts/krun.sh" "$krel" --rw "$out" -- env \
		mok_signing_key="$out/mok.key" mok_certificate="$out/mok.pub" \
		sign_file="$kdir/scripts/sign-file" \
		dkms "$action" "$@" -k "$krel" \
		--dkmstree "$out/tree" --sourcetree "$out/source" --installtree "$out/install" \
		--kernelsourcedir "$kdir" --no-depmod
}

# Whether the dkms that builds for kernel $1 signs what it builds.
# shellcheck disable=SC2016 # expanded by the inner shell, in the chroot
dkms_signs() {
	"$top/scripts/krun.sh" "$1" -- sh -c 'grep -q sign_file "$(command -v dkms)"'
}

# Build and install for suite kernel $1, then check what dkms installed.
build_one() {
	krel=$1 log=$out/$1.log
	kdir=$("$top/scripts/kernel-build-dir.sh" "$krel") || die "no build tree for $krel"
	# dkms installs only into a kernel's existing module directory.
	mkdir -p "$out/install/$krel"
	if ! { dkms_for "$krel" build && dkms_for "$krel" install; } >"$log" 2>&1; then
		cat "$log" >&2
		die "dkms could not build or install nictl/$version for $krel"
	fi
	dkms_for "$krel" status 2>>"$log" | grep -q ': installed$' ||
		die "dkms status does not list nictl/$version as installed for $krel"
	set -- "$out/install/$krel/updates/dkms/nictl.ko"*
	ko=$1
	[ -f "$ko" ] || die "dkms installed no nictl.ko in $out/install/$krel/updates/dkms"
	case $(modinfo -F vermagic "$ko") in
	"$krel "*) ;;
	*) die "$ko is not built for $krel" ;;
	esac
	[ "$(modinfo -F version "$ko")" = "$version" ] || die "$ko is not version $version"
	# dkms signs for a kernel that checks signatures (Debian's; the debug
	# kernel does not), when it can: bullseye's dkms 2.8 has no signing, so
	# there a user signs the module or the kernel takes it tainted.
	how=built
	if grep -q '^CONFIG_MODULE_SIG=y' "$kdir/.config"; then
		if dkms_signs "$krel"; then
			[ "$(modinfo -F signer "$ko")" = "DKMS module signing key" ] ||
				die "$ko is not signed with dkms's key"
			how="built, signed"
		else
			[ -z "$(modinfo -F signer "$ko")" ] || die "$ko is signed by an unknown key"
			how="built (unsigned: the dkms for $krel cannot sign)"
		fi
	fi
	echo "dkms $how and installed $ko"
}

# BUILD_EXCLUSIVE_KERNEL must refuse kernel $1 ($2 = skip: dkms build exits
# with 77 before it even looks for headers) or admit it ($2 = build: any
# other status, a failure for want of headers included).
exclusive_one() {
	status=0
	dkms_for "$1" build >"$out/$1.log" 2>&1 || status=$?
	if { [ "$2" = skip ] && [ "$status" -ne 77 ]; } ||
		{ [ "$2" = build ] && [ "$status" -eq 77 ]; }; then
		cat "$out/$1.log" >&2
		die "dkms build for $1 exited with $status: BUILD_EXCLUSIVE_KERNEL must $2 it"
	fi
	echo "dkms: BUILD_EXCLUSIVE_KERNEL makes $1 $2 (status $status)"
}

# Every file git knows of and does not ignore, committed or not.
mkdir -p "$out/clone"
git -C "$top" ls-files -z --cached --others --exclude-standard |
	(cd "$top" && xargs -0 cp --parents -t "$out/clone")
kernels=$("$top/scripts/kernels.sh")
mkdir -p "$out/tree" "$out/install"
# Adding is the same for every kernel; dkms_for needs one.
dkms_for "$(echo "$kernels" | head -n 1)" add "$out/clone" >"$out/add.log" 2>&1 || {
	cat "$out/add.log" >&2
	die "dkms add $out/clone failed"
}
[ -f "$out/source/nictl-$version/dkms.conf" ] ||
	die "dkms add did not make $out/source/nictl-$version: dkms.conf names another version"
for krel in $kernels; do
	build_one "$krel"
done
for krel in 5.9.0-0.bpo.5-amd64 5.4.0-216-generic 4.19.0-27-amd64; do
	exclusive_one "$krel" skip
done
# The oldest supported kernel, whether the suite builds for it or not.
exclusive_one 5.10.0-32-amd64 build
