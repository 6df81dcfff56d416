#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# qemu-sid.sh ARG...: run Debian sid's qemu-system-x86_64 (QEMU 11) with ARGs,
# for guests with NICs Debian 12's QEMU 7.2 does not emulate (the Intel
# 82576, -device igb, with SR-IOV); with NICTL_QEMU_ARCH=arm64 its
# qemu-system-aarch64, for the arm64 guests of the same NICs, and its arm64
# UEFI firmware (qemu-efi-aarch64, AAVMF: the -bios ARG names it below the
# chroot). It runs from the sid chroot in the
# project's cache (scripts/chroot-suite.sh; qemu-system-x86 installed there
# on first use by scripts/chroot-install.sh), not chrooted: through the
# chroot's own dynamic loader and libraries, so it sees the host's /dev/kvm,
# /dev/net/tun, network namespace and files as the host's QEMU would, and
# nothing is installed on the host. Its firmware and option ROMs come from
# the chroot (-L), as do its loadable modules (QEMU_MODULE_DIR). The process
# is QEMU itself (exec), so its caller can signal it. `qemu-sid.sh --root`
# prints the chroot (with the packages installed), and does nothing else.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)

root=$("$top/scripts/chroot-suite.sh" sid)
case ${NICTL_QEMU_ARCH:-amd64} in
amd64)
	"$top/scripts/chroot-install.sh" "$root" qemu qemu-system-x86
	system=x86_64
	;;
arm64)
	"$top/scripts/chroot-install.sh" "$root" qemu-arm64 qemu-system-arm qemu-efi-aarch64
	system=aarch64
	;;
*)
	echo "qemu-sid: no QEMU for NICTL_QEMU_ARCH=$NICTL_QEMU_ARCH (amd64, arm64)" >&2
	exit 2
	;;
esac
if [ "${1:-}" = --root ]; then
	echo "$root"
	exit 0
fi
lib=$root/usr/lib/x86_64-linux-gnu
QEMU_MODULE_DIR=$lib/qemu
export QEMU_MODULE_DIR
exec "$root/lib64/ld-linux-x86-64.so.2" --library-path "$root/lib/x86_64-linux-gnu:$lib:$lib/qemu" \
	--argv0 "qemu-system-$system" "$root/usr/bin/qemu-system-$system" \
	-L "$root/usr/share/qemu" -L "$root/usr/share/seabios" "$@"
