#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# qemu-sid.sh ARG...: run Debian sid's qemu-system-x86_64 (QEMU 11) with ARGs,
# for guests with NICs Debian 12's QEMU 7.2 does not emulate (the Intel
# 82576, -device igb, with SR-IOV). It runs from the sid chroot in the
# project's cache (scripts/chroot-suite.sh; qemu-system-x86 installed there
# on first use by scripts/chroot-install.sh), not chrooted: through the
# chroot's own dynamic loader and libraries, so it sees the host's /dev/kvm,
# /dev/net/tun, network namespace and files as the host's QEMU would, and
# nothing is installed on the host. Its firmware and option ROMs come from
# the chroot (-L), as do its loadable modules (QEMU_MODULE_DIR). The process
# is QEMU itself (exec), so its caller can signal it.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)

root=$("$top/scripts/chroot-suite.sh" sid)
"$top/scripts/chroot-install.sh" "$root" qemu qemu-system-x86
lib=$root/usr/lib/x86_64-linux-gnu
QEMU_MODULE_DIR=$lib/qemu
export QEMU_MODULE_DIR
exec "$root/lib64/ld-linux-x86-64.so.2" --library-path "$root/lib/x86_64-linux-gnu:$lib:$lib/qemu" \
	--argv0 qemu-system-x86_64 "$root/usr/bin/qemu-system-x86_64" \
	-L "$root/usr/share/qemu" -L "$root/usr/share/seabios" "$@"
