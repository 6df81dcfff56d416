#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages that building nictl and running its suite need.
# Idempotent: when every package is already installed apt is not touched at
# all, so a warm `make check` needs no network. flex, bison, bc, libelf-dev and
# libssl-dev build the debug kernel of `make check-debug`.
# No kernel, headers or modules package: the suite's kernels and their headers
# are unpacked into the cache (docs/kernels.md). What building on the host
# against the headers of scripts/kernels.list's "host" kernels needs is here
# instead: gcc-12 (the compiler they name), gcc-12-aarch64-linux-gnu (the
# same for the arm64 kernels, cross) with gcc-aarch64-linux-gnu (its
# unversioned aarch64-linux-gnu-gcc, which cross-userspace.sh calls) and
# libc6-dev-arm64-cross (the C library nictlctl and the tests are
# cross-built against for the arm64 guest), dwarves (pahole, for 6.12's module BTF), libelf-dev and
# libssl-dev (kbuild's tools' libraries); debootstrap
# makes the chroots the other kernels build in, and the clean Debian 12
# chroot the packages are installed into (selftests/pkg/pkg_test.sh).
# dpkg-dev, debhelper, dh-dkms and lintian build and check the Debian
# packages (`make deb`); yamllint checks deploy/'s Kubernetes manifests;
# systemd's systemd-analyze rates the unit's sandbox.
set -eu

PACKAGES="
	qemu-system-x86
	busybox-static
	linux-source-6.12
	debootstrap
	gcc-12
	gcc-12-aarch64-linux-gnu
	gcc-aarch64-linux-gnu
	libc6-dev-arm64-cross
	dwarves
	libnl-genl-3-dev
	libnl-3-dev
	libmnl-dev
	libmicrohttpd-dev
	pkg-config
	gcc
	make
	ethtool
	iproute2
	kmod
	cpio
	xz-utils
	perl
	jq
	dkms
	openssl
	groff-base
	man-db
	python3-yaml
	yamllint
	systemd
	python3-jsonschema
	prometheus
	flex
	bison
	bc
	libelf-dev
	libssl-dev
	dpkg-dev
	debhelper
	dh-dkms
	lintian
"

# Print the packages from $PACKAGES that dpkg does not list as installed.
missing_packages() {
	for pkg in $PACKAGES; do
		status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null) || status=
		[ "$status" = installed ] || echo "$pkg"
	done
}

main() {
	missing=$(missing_packages | paste -sd' ')
	if [ -z "$missing" ]; then
		echo "install-deps: all packages present"
		return 0
	fi
	if [ "$(id -u)" -ne 0 ]; then
		echo "install-deps: missing packages: $missing" >&2
		echo "install-deps: run 'sudo scripts/install-deps.sh' (or 'make deps' as root)" >&2
		return 1
	fi
	echo "install-deps: installing $missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update
	# shellcheck disable=SC2086 # one word per package is intended
	apt-get install -y --no-install-recommends $missing
}

main "$@"
