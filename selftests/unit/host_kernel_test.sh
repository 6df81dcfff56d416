#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make check` leaves the host's kernel alone: no kernel, modules or headers
# package installed or removed, nothing below /boot or /lib/modules and no
# boot loader setting changed (README, "Neither command touches the host's
# kernel"). The Makefile's check target takes scripts/host-kernel-state.sh's
# snapshot before anything else (`make unit` takes one if there is none);
# the last check here compares the host with it. The checks before it prove
# on a made-up host that the comparison sees each kind of change and names it.
# selftests/unit/Makefile fills in the paths of the repository and the build.
# shellcheck disable=SC2317 # the checks are run through tap_check
set -u

REPO=@NICTL_REPO@
BUILD=@NICTL_BUILD@
STATE=$REPO/scripts/host-kernel-state.sh

# shellcheck source=selftests/unit/tap.sh
. "$REPO/selftests/unit/tap.sh"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
ROOT=$TMP/root

# A made-up host: a kernel in /boot and /lib/modules, GRUB's files, and dpkg
# knowing the kernel's image package at version $1.
make_host()
{
	rm -rf "$ROOT"
	mkdir -p "$ROOT/boot/grub" "$ROOT/lib/modules/9.9.0-1-amd64/kernel" \
		"$ROOT/etc/default" "$ROOT/var/lib/dpkg/updates"
	echo image >"$ROOT/boot/vmlinuz-9.9.0-1-amd64"
	echo module >"$ROOT/lib/modules/9.9.0-1-amd64/kernel/a.ko"
	ln -s /usr/src/linux-headers-9.9.0-1-amd64 "$ROOT/lib/modules/9.9.0-1-amd64/build"
	echo 'menuentry "9.9"' >"$ROOT/boot/grub/grub.cfg"
	echo 'GRUB_DEFAULT=0' >"$ROOT/etc/default/grub"
	set_package_version "$1"
	"$STATE" snapshot "$ROOT" >"$TMP/before"
}

set_package_version()
{
	printf '%s\n' 'Package: linux-image-9.9.0-1-amd64' 'Status: install ok installed' \
		"Version: $1" 'Architecture: amd64' 'Description: a kernel' '' \
		>"$ROOT/var/lib/dpkg/status"
}

# The comparison fails and its output has a line matching each regex given.
compare_names()
{
	local out status=0 want

	out=$("$STATE" compare "$TMP/before" "$ROOT") || status=$?
	echo "$out"
	if [[ $status -ne 1 ]]; then
		echo "compare exited with $status, expected 1 (a change)"
		return 1
	fi
	for want in "$@"; do
		grep -qE -- "$want" <<<"$out" || {
			echo "no line matching '$want' in what compare printed"
			return 1
		}
	done
}

unchanged()
{
	make_host 9.9.0-1
	"$STATE" compare "$TMP/before" "$ROOT"
}

new_kernel_in_boot()
{
	make_host 9.9.0-1
	echo image >"$ROOT/boot/vmlinuz-9.9.0-2-amd64"
	compare_names '^\+f 6 [0-9.]+ /boot/vmlinuz-9.9.0-2-amd64$'
}

module_removed()
{
	make_host 9.9.0-1
	rm "$ROOT/lib/modules/9.9.0-1-amd64/kernel/a.ko"
	compare_names '^-f 7 [0-9.]+ /lib/modules/9.9.0-1-amd64/kernel/a.ko$'
}

# Same size, same time: only the checksum tells.
grub_cfg_rewritten()
{
	make_host 9.9.0-1
	echo 'menuentry "9.8"' >"$TMP/cfg"
	touch -r "$ROOT/boot/grub/grub.cfg" "$TMP/cfg"
	cp -p "$TMP/cfg" "$ROOT/boot/grub/grub.cfg"
	compare_names '^-sha256 [0-9a-f]+ /boot/grub/grub.cfg$' '^\+sha256 [0-9a-f]+ /boot/grub/grub.cfg$'
}

grub_default_changed()
{
	make_host 9.9.0-1
	echo 'GRUB_DEFAULT=1' >"$ROOT/etc/default/grub"
	compare_names '/etc/default/grub$'
}

package_upgraded()
{
	make_host 9.9.0-1
	set_package_version 9.9.0-2
	compare_names '^-package linux-image-9.9.0-1-amd64 9.9.0-1 ii' \
		'^\+package linux-image-9.9.0-1-amd64 9.9.0-2 ii'
}

link_retargeted()
{
	make_host 9.9.0-1
	ln -sfn /usr/src/linux-headers-9.9.0-2-amd64 "$ROOT/lib/modules/9.9.0-1-amd64/build"
	compare_names '^\+l [0-9]+ [0-9.]+ /lib/modules/9.9.0-1-amd64/build -> /usr/src/linux-headers-9.9.0-2-amd64$'
}

# This host, against the snapshot the check target took before installing
# anything.
host_untouched()
{
	local before=$BUILD/host-kernel.before

	if [[ ! -f $before ]]; then
		echo "no $before: make check (or make unit) takes it"
		return 1
	fi
	echo "compared with $before, taken $(date -r "$before")"
	"$STATE" compare "$before" || {
		echo "if you changed the host's kernels yourself since, remove $before and run make unit"
		return 1
	}
}

tap_check "an unchanged host compares equal" unchanged
tap_check "a new kernel in /boot is named" new_kernel_in_boot
tap_check "a module removed from /lib/modules is named" module_removed
tap_check "grub.cfg rewritten in place (same size and time) is named" grub_cfg_rewritten
tap_check "a change of /etc/default/grub is named" grub_default_changed
tap_check "a kernel package upgraded is named with both versions" package_upgraded
tap_check "a module build link pointed elsewhere is named" link_retargeted
tap_check "make check left this host's kernel, modules, boot loader and kernel packages alone" \
	host_untouched
tap_done
