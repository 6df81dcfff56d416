#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mkinitramfs.sh KREL OUT: write OUT, a gzipped cpio initramfs for the test
# guest on Debian kernel KREL: busybox-static with its applets, /init (from
# guest-init.sh) and the modules the guest needs before it can reach the
# host's root: virtio PCI (where modular), virtio_net, e1000e, igb and igbvf
# (the igb profile's NIC and its VFs), xHCI and the USB NIC drivers (usb0),
# and 9p, in load order, decompressed because busybox insmod cannot read
# .ko.xz.
# A kernel of another architecture than the host's gets the busybox of its
# guests' root (guest-root.sh) and overlay, which guest-init.sh puts a
# writable layer on that root with.
# OUT is rebuilt only when its inputs changed (their hash is kept in OUT.key).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd -P)
BUSYBOX=/bin/busybox
# What the guest must load; their dependencies come from modules.dep.
# Built-in ones (6.12 builds in the virtio core and virtio_pci) are skipped.
GUEST_MODULES="virtio_pci virtio_net e1000e igb igbvf xhci_pci cdc_ether rndis_host 9pnet_virtio 9p"

die() {
	echo "mkinitramfs: $*" >&2
	exit 1
}

# Print the module files for $GUEST_MODULES and their dependencies, each
# once, in an order in which they can be loaded.
module_files() {
	kdir=$1 krel=$2 plan=
	# modprobe prints "insmod FILE" per module to load, dependencies
	# first, or "builtin NAME". Not in a pipe, so a failure stops us.
	for mod in $GUEST_MODULES; do
		steps=$(modprobe -d "$kdir" -S "$krel" --show-depends "$mod") ||
			die "$mod is neither a module nor built into $krel"
		plan="$plan$steps
"
	done
	printf '%s' "$plan" | awk '$1 == "insmod" && !seen[$2]++ { print $2 }'
}

# Print a hash of everything that goes into the image (this script too).
inputs_key() {
	for file in "$HERE/mkinitramfs.sh" "$HERE/guest-init.sh" "$BUSYBOX" $MODULE_FILES; do
		basename "$file"
		cat "$file"
	done | sha256sum | cut -d' ' -f1
}

# Lay out the initramfs tree in $1.
populate() {
	tree=$1
	mkdir -p "$tree/bin" "$tree/modules" "$tree/proc" "$tree/sys" \
		"$tree/dev" "$tree/root"
	cp "$BUSYBOX" "$tree/bin/busybox"
	# The host's busybox-static names the applets: another architecture's
	# cannot run here, and Debian builds both from one configuration.
	for applet in $(/bin/busybox --list); do
		[ "$applet" = busybox ] || ln -s busybox "$tree/bin/$applet"
	done
	cp "$HERE/guest-init.sh" "$tree/init"
	chmod 755 "$tree/init"
	for ko in $MODULE_FILES; do
		name=$(basename "$ko" .xz)
		case $ko in
		*.xz) xz -dc "$ko" >"$tree/modules/$name" ;;
		*) cp "$ko" "$tree/modules/$name" ;;
		esac
		echo "$name" >>"$tree/modules/order"
	done
}

main() {
	[ $# -eq 2 ] || die "usage: mkinitramfs.sh KREL OUT"
	krel=$1 out=$2
	[ -x /bin/busybox ] || die "/bin/busybox missing (install busybox-static)"
	arch=$("$HERE/../../scripts/kernels.sh" "$krel" arch)
	if [ "$arch" != "$(dpkg --print-architecture)" ]; then
		BUSYBOX=$("$HERE/guest-root.sh" "$arch")/bin/busybox
		GUEST_MODULES="$GUEST_MODULES overlay"
	fi
	kdir=$("$HERE/fetch-kernel.sh" "$krel")
	MODULE_FILES=$(module_files "$kdir" "$krel")
	key=$(inputs_key)
	if [ -f "$out" ] && [ "$(cat "$out.key" 2>/dev/null)" = "$key" ]; then
		return 0
	fi
	mkdir -p "$(dirname "$out")"
	tmp=$(mktemp -d "$out.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	populate "$tmp/tree"
	(cd "$tmp/tree" && find . | sort | cpio --quiet -o -H newc -R 0:0) |
		gzip -6 >"$tmp/image"
	# Image first, key second: a crash in between only costs a rebuild.
	mv "$tmp/image" "$out"
	echo "$key" >"$out.key"
}

main "$@"
