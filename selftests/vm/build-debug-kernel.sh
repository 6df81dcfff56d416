#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build-debug-kernel.sh: build the suite's debug kernel (KASAN, KFENCE,
# lockdep, kmemleak, UBSAN, list debugging) from Debian's linux-source-6.12
# with defconfig + kvm_guest.config + debug-kernel.config, and print its
# release string. The result is laid out like fetch-kernel.sh's Debian kernels,
# so run-guest.sh boots it the same way:
#   CACHE/kernels/KREL/vmlinuz, lib/modules/KREL/  the image and its modules
#   CACHE/kernels/KREL/build/                      the build tree modules are
#                                                   built against
#   CACHE/kernels/KREL/cmdline                     what run-guest.sh adds to its
#                                                   kernel command line
# The build is kept in CACHE/debug-kernel/HASH, HASH covering the source
# package, the compiler, the config fragment and RECIPE, and KREL links to it:
# only the first run after a change pays for the build (28 minutes on two idle
# cores), and the build before it is removed. CACHE is NICTL_CACHE, default
# /var/cache/nictl.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd -P)
FRAGMENT=$HERE/debug-kernel.config
SOURCE=/usr/src/linux-source-6.12.tar.xz
CACHE=${NICTL_CACHE:-/var/cache/nictl}
JOBS=${NICTL_KERNEL_JOBS:-$(($(nproc) + 1))}
# Bump when the steps below change what they produce.
RECIPE=1
# Under KASAN and lockdep, ACPI's interpreter runs the PCIe expanders' _PRT
# (legacy INTx routing, a loop over every slot) into its 30 s loop timeout,
# for minutes of boot. Every device of the guest uses MSI or MSI-X, and the
# serial port's ISA IRQ does not go through _PRT.
# And 4-level paging: with QEMU's `-cpu max` the kernel turns on 5-level
# paging, and identify_cpu() clears the boot CPU's LA57 flag for a moment
# while it re-reads CPUID; an interrupt in that window (TCG delivers them
# late and often lands there) makes KASAN take the direct map for a wild
# address and panic the boot.
BOOT_ARGS="acpi=noirq no5lvl"

die() {
	echo "build-debug-kernel: $*" >&2
	exit 1
}

# Print the hash that names a build: what went into it.
build_key() {
	{
		dpkg-query -W -f='${Version}\n' linux-source-6.12
		gcc --version | head -n1
		echo "recipe $RECIPE"
		cat "$FRAGMENT"
	} | sha256sum | cut -c1-16
}

# Configure and build in $1 (a fresh directory), source in $1/src, objects in
# $1/build; install the modules into $1/lib/modules. In place: the build tree
# names its source by absolute path, so it cannot be moved afterwards.
build() {
	dir=$1
	echo "build-debug-kernel: unpacking $SOURCE" >&2
	mkdir -p "$dir/src" "$dir/build"
	tar -xJf "$SOURCE" -C "$dir/src" --strip-components=1
	kmake() {
		make -C "$dir/src" O="$dir/build" -j"$JOBS" "$@"
	}
	kmake defconfig >/dev/null
	kmake kvm_guest.config >/dev/null
	(cd "$dir/build" &&
		"$dir/src/scripts/kconfig/merge_config.sh" -m .config "$FRAGMENT") >/dev/null
	kmake olddefconfig >/dev/null
	check_config "$dir/build/.config"
	echo "build-debug-kernel: building (log: $dir/build.log)" >&2
	kmake bzImage modules >"$dir/build.log" 2>&1 ||
		{ tail -n 40 "$dir/build.log" >&2; die "the kernel build failed"; }
	kmake INSTALL_MOD_PATH="$dir" modules_install >>"$dir/build.log" 2>&1 ||
		die "modules_install failed"
	cp "$dir/build/arch/x86/boot/bzImage" "$dir/vmlinuz"
	krel=$(cat "$dir/build/include/config/kernel.release")
	# What external modules are built against; no source link, the build
	# tree has one.
	ln -sfn "$dir/build" "$dir/lib/modules/$krel/build"
	rm -f "$dir/lib/modules/$krel/source"
}

# Every option the fragment sets must have survived olddefconfig: a silently
# dropped checker would make the debug run prove nothing.
check_config() {
	config=$1 bad=
	while read -r line; do
		case $line in
		CONFIG_*=*)
			grep -qxF "$line" "$config" || bad="$bad ${line%%=*}"
			;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }
			opt=${opt%% *}
			! grep -q "^$opt=" "$config" || bad="$bad $opt"
			;;
		esac
	done <"$FRAGMENT"
	[ -z "$bad" ] || die "the config did not keep:$bad"
}

# Remove every build but $1: each is about 3 GB, and once the link points to
# the new one nothing can use the old (its key no longer matches the inputs).
prune_others() {
	for old in "$CACHE"/debug-kernel/*; do
		[ "$(basename "$old")" = "$1" ] || rm -rf "$old"
	done
}

main() {
	[ -f "$SOURCE" ] || die "$SOURCE missing (make deps installs linux-source-6.12)"
	key=$(build_key)
	dir=$CACHE/debug-kernel/$key
	# The stamp is written last: a build cut short is started over.
	if [ ! -f "$dir/complete" ]; then
		rm -rf "$dir"
		build "$dir"
		touch "$dir/complete"
	fi
	krel=$(cat "$dir/build/include/config/kernel.release")
	echo "$BOOT_ARGS" >"$dir/cmdline"
	mkdir -p "$CACHE/kernels"
	# Relative, so it also resolves where the cache is seen at another path
	# (the guest sees it below its 9p mount point).
	ln -sfn "../debug-kernel/$key" "$CACHE/kernels/$krel.tmp"
	mv -T "$CACHE/kernels/$krel.tmp" "$CACHE/kernels/$krel"
	prune_others "$key"
	echo "$krel"
}

main "$@"
