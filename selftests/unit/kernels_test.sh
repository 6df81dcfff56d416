#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/kernels.sh on a made-up scripts/kernels.list (comments, blank lines,
# tabs and spaces), and the real list's lines against the format
# docs/kernels.md gives.
# selftests/unit/Makefile fills in the path of the repository.
# shellcheck disable=SC2317 # the checks are run through tap_check
set -u

REPO=@NICTL_REPO@

# shellcheck source=selftests/unit/tap.sh
. "$REPO/selftests/unit/tap.sh"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cp "$REPO/scripts/kernels.sh" "$TMP/"
cat >"$TMP/kernels.list" <<'LIST'
# KREL		SUITE		ARCH	BUILD	CHECK

1.0.0-1-amd64	oldsuite	amd64	chroot	no
2.0.0-1-amd64 	stable-security amd64 host	full   # trailing comment
  3.0.0-1-amd64	stable-security	amd64	host	no
4.0.0-1-amd64	unstable	amd64	chroot	core
4.0.0-1-arm64	unstable	arm64	host	build
5.0.0-1-arm64	unstable	arm64	host	cross
LIST

# Run the copy with the environment given before it; its output must be $1.
says()
{
	local want=$1 got

	shift
	got=$(env -u NICTL_KERNELS -u NICTL_ALL_KERNELS "$@" 2>&1)
	[[ $got == "$want" ]] && return 0
	echo "got:"
	echo "$got"
	echo "expected:"
	echo "$want"
	return 1
}

fails_with()
{
	local want_status=$1 want=$2 got status=0

	shift 2
	got=$("$@" 2>&1) || status=$?
	[[ $status -eq $want_status && $got == *"$want"* ]] && return 0
	echo "exit status $status (expected $want_status), output: $got"
	echo "expected it to say: $want"
	return 1
}

# The made-up list's kernels are amd64's and arm64's: the host is one of them.
host=$(dpkg --print-architecture)
checked() { says "$(grep -- "-$host\$" <<<$'2.0.0-1-amd64\n4.0.0-1-amd64\n5.0.0-1-arm64')" "$TMP/kernels.sh"; }
guests() { says $'2.0.0-1-amd64\n4.0.0-1-amd64\n5.0.0-1-arm64' "$TMP/kernels.sh" --guests; }
built() {
	says $'2.0.0-1-amd64\n4.0.0-1-amd64\n4.0.0-1-arm64\n5.0.0-1-arm64' "$TMP/kernels.sh" --build
}
all() {
	says $'1.0.0-1-amd64\n2.0.0-1-amd64\n3.0.0-1-amd64\n4.0.0-1-amd64\n5.0.0-1-arm64' \
		NICTL_ALL_KERNELS=1 "$TMP/kernels.sh" --guests &&
		says $'1.0.0-1-amd64\n2.0.0-1-amd64\n3.0.0-1-amd64\n4.0.0-1-amd64\n4.0.0-1-arm64\n5.0.0-1-arm64' \
			NICTL_ALL_KERNELS=1 "$TMP/kernels.sh" --build
}
named() { says $'9.9-debug\n3.0.0-1-amd64' NICTL_KERNELS='9.9-debug 3.0.0-1-amd64' "$TMP/kernels.sh"; }
fields() {
	says stable-security "$TMP/kernels.sh" 3.0.0-1-amd64 suite &&
		says chroot "$TMP/kernels.sh" 1.0.0-1-amd64 build &&
		says core "$TMP/kernels.sh" 4.0.0-1-amd64 check &&
		says arm64 "$TMP/kernels.sh" 4.0.0-1-arm64 arch &&
		says cross "$TMP/kernels.sh" 5.0.0-1-arm64 check
}
unknown() { fails_with 1 "5.0.0-1-amd64 is not in" "$TMP/kernels.sh" 5.0.0-1-amd64 suite; }
unlisted_arch() { says "$host" "$TMP/kernels.sh" 9.9-debug arch; }
bad_field() { fails_with 2 "unknown field flavour" "$TMP/kernels.sh" 1.0.0-1-amd64 flavour; }
bad_option() { fails_with 2 "usage:" "$TMP/kernels.sh" --boot; }

# Every line of the real list: five fields, a suite name, a Debian
# architecture that dpkg knows and that the release string ends with, BUILD
# and CHECK from their sets, no kernel twice; and one kernel at least runs
# the whole suite, or the controller's own tests (left out by kernel-side)
# run nowhere. A kernel of another architecture than the host's is built
# for, or runs the core in its own guest (cross); one of the host's, never.
real_list()
{
	local bad

	bad=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$REPO/scripts/kernels.list" |
		awk -v host="$(dpkg --print-architecture)" '
		NF != 5 || $2 !~ /^[a-z]+(-security)?$/ || $3 !~ /^(amd64|arm64)$/ ||
			$1 !~ ("-" $3 "$") || $4 !~ /^(host|chroot)$/ ||
			$5 !~ /^(full|kernel-side|core|cross|build|no)$/ || seen[$1]++ ||
			(($3 == host) == ($5 ~ /^(cross|build)$/)) { print "bad line: " $0 }
		$5 == "full" { full++ }
		END { if (!full) print "no kernel has CHECK full" }')
	[[ -z $bad ]] && return 0
	echo "$bad"
	return 1
}

tap_check "kernels.sh lists the host's kernels whose CHECK is neither build nor no, in order" checked
tap_check "kernels.sh --guests lists those of every architecture" guests
tap_check "kernels.sh --build adds those whose CHECK is build" built
tap_check "NICTL_ALL_KERNELS=1: --guests lists all but CHECK build, --build every one" all
tap_check "NICTL_KERNELS names the kernels, listed or not" named
tap_check "KREL suite, arch, build and check print that field" fields
tap_check "a kernel not in the list fails and says so" unknown
tap_check "a kernel not in the list is of the host's architecture" unlisted_arch
tap_check "an unknown field is a usage error" bad_field
tap_check "an unknown option is a usage error" bad_option
tap_check "scripts/kernels.list has five valid fields a line, each kernel once, one full" real_list
tap_done
