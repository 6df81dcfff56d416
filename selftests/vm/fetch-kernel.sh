#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fetch-kernel.sh KREL: print a cache directory holding Debian's kernel KREL:
#   DIR/vmlinuz              the kernel image
#   DIR/lib/modules/KREL/    its modules, with modules.dep (so `modprobe -d DIR`
#                            and `depmod -b DIR` work on it)
# The image package is downloaded and unpacked, never installed: installing
# would run update-initramfs and touch the host's /boot.
set -eu

die() {
	echo "fetch-kernel: $*" >&2
	exit 1
}

# Download linux-image-KREL and leave only vmlinuz and lib/modules in DIR.
unpack_kernel() {
	krel=$1 dir=$2
	pkg=linux-image-$krel
	# apt drops to the _apt user for downloads; let it write here so it
	# does not fall back to an unsandboxed download with a warning.
	mkdir "$dir/deb"
	chown _apt "$dir/deb" 2>/dev/null || true
	(cd "$dir/deb" && apt-get download -q "$pkg") ||
		die "cannot download $pkg (apt-get update? is $krel a Debian kernel?)"
	dpkg-deb -x "$dir/deb/"*.deb "$dir/pkg"
	[ -f "$dir/pkg/boot/vmlinuz-$krel" ] || die "$pkg has no boot/vmlinuz-$krel"
	[ -d "$dir/pkg/lib/modules/$krel" ] || die "$pkg has no lib/modules/$krel"
	mv "$dir/pkg/boot/vmlinuz-$krel" "$dir/vmlinuz"
	mkdir -p "$dir/lib/modules"
	mv "$dir/pkg/lib/modules/$krel" "$dir/lib/modules/"
	rm -rf "$dir/deb" "$dir/pkg"
	# The package leaves modules.dep to its postinst's depmod; make it here.
	depmod -b "$dir" "$krel"
}

main() {
	[ $# -eq 1 ] || die "usage: fetch-kernel.sh KREL"
	krel=$1
	cache=${NICTL_CACHE:-/var/cache/nictl}/kernels
	dest=$cache/$krel
	# The directory only ever appears complete (renamed into place at the
	# end), so its existence alone means the cache is warm.
	if [ ! -d "$dest" ]; then
		mkdir -p "$cache"
		tmp=$(mktemp -d "$cache/.$krel.XXXXXX")
		trap 'rm -rf "$tmp"' EXIT
		# mktemp's 0700 would keep apt's _apt user (and the guest) out.
		chmod 755 "$tmp"
		unpack_kernel "$krel" "$tmp" >&2
		# A concurrent run may have won the race; its copy is as good.
		mv -T "$tmp" "$dest" 2>/dev/null || rm -rf "$tmp"
	fi
	echo "$dest"
}

main "$@"
