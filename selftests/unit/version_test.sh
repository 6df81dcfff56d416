#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The version is kept in one place, the top Makefile's VERSION: debian/
# changelog says the same (debian/rules refuses to build otherwise), and the
# module, nictlctl, dkms.conf (as DKMS reads it, and the copy
# `make dkms-source` writes) and the man pages take it from the Makefile.
# selftests/unit/Makefile fills in the path of the repository.
# shellcheck disable=SC2317 # the checks are run through tap_check
set -u

REPO=@NICTL_REPO@

# shellcheck source=selftests/unit/tap.sh
. "$REPO/selftests/unit/tap.sh"

VERSION=$(make -s --no-print-directory -C "$REPO" print-version)

changelog_agrees() {
	local top

	top=$(sed -n '1s/^nictl (\([^)]*\)).*/\1/p' "$REPO/debian/changelog")
	[ "$top" = "$VERSION" ] ||
		{ echo "debian/changelog: '$top', Makefile: '$VERSION'"; return 1; }
}

# ctl/Makefile on its own (make -C ctl) asks the top Makefile too.
ctl_asks_makefile() {
	local got

	got=$(env -u NICTL_VERSION make -s --no-print-directory -C "$REPO/ctl" \
		--eval 'print-version: ; @echo $(NICTL_VERSION)' print-version)
	[ "$got" = "$VERSION" ] || { echo "ctl/Makefile: '$got', Makefile: '$VERSION'"; return 1; }
}

# Kbuild, which DKMS runs from a copy of the module's sources.
kbuild_asks_makefile() {
	local dir got

	dir=$(mktemp -d)
	"$REPO/scripts/module-source.sh" "$dir/src" >/dev/null || { rm -rf "$dir"; return 1; }
	got=$(make -s --no-print-directory -f "$dir/src/Kbuild" src="$dir/src" \
		--eval 'print-version: ; @echo $(NICTL_VERSION)' print-version 2>/dev/null)
	rm -rf "$dir"
	[ "$got" = "$VERSION" ] || { echo "Kbuild: '$got', Makefile: '$VERSION'"; return 1; }
}

# dkms.conf as DKMS reads it: sourced by bash from elsewhere, beside the
# Makefile of the tree DKMS copied (`dkms add .` copies the clone).
dkms_conf_asks_makefile() {
	local got

	# shellcheck disable=SC2016 # expanded by the inner bash
	got=$(cd / && bash -c '. "$1" && echo "$PACKAGE_VERSION"' _ "$REPO/dkms.conf")
	[ "$got" = "$VERSION" ] || { echo "dkms.conf: '$got', Makefile: '$VERSION'"; return 1; }
}

# The copy for the package names it literally: dh_dkms reads, not runs, it.
dkms_source_literal() {
	local dir line

	dir=$(mktemp -d)
	make -s --no-print-directory -C "$REPO" dkms-source DKMS_SRC="$dir/src" >/dev/null ||
		{ rm -rf "$dir"; return 1; }
	line=$(grep '^PACKAGE_VERSION=' "$dir/src/dkms.conf")
	rm -rf "$dir"
	[ "$line" = "PACKAGE_VERSION=\"$VERSION\"" ] || { echo "dkms-source wrote: $line"; return 1; }
}

# No other file of the repository names the version: it would go stale.
nowhere_else() {
	local files

	files=$(git -C "$REPO" grep -lF "$VERSION" -- . ':!Makefile' ':!debian/changelog')
	[ -z "$files" ] || { echo "files naming $VERSION:"; echo "$files"; return 1; }
}

tap_check "debian/changelog is at the Makefile's VERSION ($VERSION)" changelog_agrees
tap_check "ctl/Makefile takes the Makefile's VERSION" ctl_asks_makefile
tap_check "Kbuild takes the Makefile's VERSION" kbuild_asks_makefile
tap_check "dkms.conf takes the Makefile's VERSION" dkms_conf_asks_makefile
tap_check "make dkms-source writes the version into its dkms.conf" dkms_source_literal
tap_check "no other file names $VERSION" nowhere_else
tap_done
