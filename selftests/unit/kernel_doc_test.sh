#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The module's and the uapi header's kernel-doc, as upstream checks it: the
# kernel's own scripts/kernel-doc (from Debian's linux-source-6.12, which the
# suite installs for the kselftest headers) with -Wall finds nothing: every
# parameter, member and return value of a documented item is described.
# selftests/unit/Makefile fills in the paths of the repository and the build.
# shellcheck disable=SC2317 # the checks are run through tap_check
set -u

REPO=@NICTL_REPO@

# shellcheck source=selftests/unit/tap.sh
. "$REPO/selftests/unit/tap.sh"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

tar -xJf /usr/src/linux-source-6.12.tar.xz -C "$TMP" --strip-components=2 \
	linux-source-6.12/scripts/kernel-doc
KDOC=$TMP/kernel-doc

# kernel-doc prints nothing for clean sources, whatever its exit status.
clean()
{
	local out

	out=$(perl "$KDOC" -none -Wall "$@" 2>&1) && [[ -z $out ]] && return 0
	echo "$out"
	return 1
}

# It must see the faults it is asked to find, or a clean result means nothing.
seeded()
{
	printf '%s\n' '/**' ' * f() - a function' ' */' 'int f(int x);' >"$TMP/seed.h"
	! clean "$TMP/seed.h"
}

tap_check "kernel-doc -Wall flags an undescribed parameter" seeded
tap_check "kmod/ has clean kernel-doc" clean "$REPO"/kmod/*.[ch]
tap_check "the uapi header has clean kernel-doc" clean "$REPO/include/uapi/linux/nictl.h"
tap_done
