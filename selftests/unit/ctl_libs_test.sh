#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nictlctl maps what every command needs and nothing more: libnl and libc.
# libmicrohttpd, and the GnuTLS stack it brings, are loaded only when the
# daemon starts its /metrics server (ctl/metrics/mhd.c), which is checked
# by starting one.
# selftests/unit/Makefile fills in the paths of the repository and the build.
# shellcheck disable=SC2317 # the checks are run through tap_check
set -u

REPO=@NICTL_REPO@
BUILD=@NICTL_BUILD@
NICTLCTL=$BUILD/bin/nictlctl

# shellcheck source=selftests/unit/tap.sh
. "$REPO/selftests/unit/tap.sh"

# The shared objects `nictlctl --version` maps, one per line.
mapped() {
	LD_DEBUG=files "$NICTLCTL" --version 2>&1 >/dev/null |
		sed -n 's/.*file=\([^ ]*\) \[0\];  needed by.*/\1/p' | sort -u
}

no_tls_stack() {
	local libs

	libs=$(mapped)
	[ -n "$libs" ] || { echo "LD_DEBUG listed nothing"; return 1; }
	if grep -E 'microhttpd|gnutls|nettle|hogweed|p11-kit|idn2|tasn1|gmp' <<<"$libs"; then
		echo "mapped by nictlctl --version, expected only libnl and libc:"
		echo "$libs"
		return 1
	fi
}

few_objects() {
	local n

	n=$(mapped | wc -l)
	[ "$n" -le 4 ] || { echo "$n shared objects mapped, expected at most 4:"; mapped; return 1; }
}

tap_check "nictlctl --version maps no libmicrohttpd and no TLS library" no_tls_stack
tap_check "nictlctl --version maps at most 4 shared objects (libnl-genl, libnl, libc)" few_objects
tap_done
