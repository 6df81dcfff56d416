#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fetch-kernel.sh KREL: print a cache directory holding Debian's kernel KREL:
#   DIR/vmlinuz              the kernel image
#   DIR/lib/modules/KREL/    its modules, with modules.dep (so `modprobe -d DIR`
#                            and `depmod -b DIR` work on it)
# DIR is CACHE/kernels/KREL (CACHE: NICTL_CACHE, default /var/cache/nictl); the
# kernel's suite is in scripts/kernels.list. The image package is downloaded
# and unpacked, never installed: installing would run update-initramfs and
# touch the host's /boot. linux-image-KREL holds both parts up to 6.x; sid's
# is split into linux-binary-KREL (usr/lib/modules/KREL/vmlinuz),
# linux-modules-KREL and linux-base-KREL (modules.builtin, modules.order),
# which it depends on. The same directory holds the
# headers (scripts/fetch-headers.sh) and the initramfs (mkinitramfs.sh).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd -P)
REPO=$(cd "$HERE/../.." && pwd -P)
# shellcheck source=scripts/cache-make.sh
. "$REPO/scripts/cache-make.sh"

die() {
	echo "fetch-kernel: $*" >&2
	exit 1
}

# Unpack KREL's image from SUITE into the new directory $3, then move the
# modules into DIR $4 and the image last: DIR/vmlinuz says DIR is complete.
unpack_kernel() {
	krel=$1 suite=$2 tmp=$3 dir=$4
	root=$tmp/root
	NICTL_APT_ARCH=$("$REPO/scripts/kernels.sh" "$krel" arch) \
		"$REPO/scripts/fetch-debs.sh" "$suite" "$root" '^linux-(binary|modules|base)-[0-9]' \
		"linux-image-$krel" >/dev/null
	for image in "$root/boot/vmlinuz-$krel" "$root/usr/lib/modules/$krel/vmlinuz" ''; do
		[ ! -f "$image" ] || break
	done
	[ -n "$image" ] || die "linux-image-$krel has no vmlinuz"
	mv "$image" "$tmp/vmlinuz"
	for modules in "$root/lib/modules/$krel" "$root/usr/lib/modules/$krel" ''; do
		[ ! -d "$modules/kernel" ] || break
	done
	[ -n "$modules" ] || die "linux-image-$krel has no lib/modules/$krel/kernel"
	# Left by a run that stopped before its vmlinuz was in place.
	rm -rf "$dir/lib/modules/$krel"
	mkdir -p "$dir/lib/modules"
	mv "$modules" "$dir/lib/modules/"
	# The package leaves modules.dep to its postinst's depmod; make it here.
	depmod -b "$dir" "$krel"
	mv "$tmp/vmlinuz" "$dir/vmlinuz"
}

# Look up KREL's suite, then unpack its image with the new directory $3.
install_kernel() {
	krel=$1 dest=$2 tmp=$3
	suite=$("$REPO/scripts/kernels.sh" "$krel" suite) ||
		die "add $krel to scripts/kernels.list to fetch it"
	unpack_kernel "$krel" "$suite" "$tmp" "$dest" >&2
}

main() {
	[ $# -eq 1 ] || die "usage: fetch-kernel.sh KREL"
	krel=$1
	cache=${NICTL_CACHE:-/var/cache/nictl}/kernels
	dest=$cache/$krel
	cache_make "$dest/vmlinuz" "$cache/.$krel.lock" "$dest/.image.XXXXXX" \
		install_kernel "$krel" "$dest"
	echo "$dest"
}

main "$@"
