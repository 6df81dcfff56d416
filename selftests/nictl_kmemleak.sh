#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run last by guest-suite.sh on a kernel with kmemleak (the debug kernel of
# `make check-debug`): after every other test has loaded, used and unloaded
# the module, no unreferenced object may have been allocated by it. Two
# scans: one with the module loaded, where kmemleak names its functions
# "[nictl]", and one after rmmod, for what the module's exit leaves behind,
# where the module is gone and its frames show as bare addresses, matched
# against the text range it occupied. Other leaks the kernel reports (boot
# time, drivers) are not the module's and are not judged. TAP on stdout.
# Environment: NICTL_KO, NICTL_REPO, NICTL_RESULTS.
set -u

# shellcheck source=unit/tap.sh
. "$NICTL_REPO/selftests/unit/tap.sh"

KMEMLEAK=/sys/kernel/debug/kmemleak
# kmemleak reports an object only once it is older than 5 s and was found
# unreferenced by two scans in a row.
MIN_AGE=6

# Scan twice, MIN_AGE apart, and save the report as $NICTL_RESULTS/kmemleak-$1.txt.
scan() {
	local out=$NICTL_RESULTS/kmemleak-$1.txt

	sleep "$MIN_AGE"
	echo scan >"$KMEMLEAK" && echo scan >"$KMEMLEAK" && cat "$KMEMLEAK" >"$out"
}

# Print the reports in $1 whose backtrace has a frame the awk condition $2
# accepts (on the frame's text, in $0), one object per paragraph.
objects_with_frame() {
	awk -v cond="$2" '
	function flush() { if (hit) printf "%s\n", obj; obj = ""; hit = 0 }
	/^unreferenced object/ { flush() }
	{ obj = obj $0 "\n" }
	/^    / && match_frame($0) { hit = 1 }
	END { flush() }
	function match_frame(line,    addr, i, n, words) {
		if (cond == "named")
			return line ~ /\[nictl\]/
		n = split(line, words, /[][<> ]+/)
		for (i = 1; i <= n; i++) {
			if (words[i] !~ /^(0x)?ffff[0-9a-f]+$/)
				continue
			addr = words[i]
			sub(/^0x/, "", addr)
			if (addr >= lo && addr < hi)
				return 1
		}
		return 0
	}' lo="$3" hi="$4" "$1"
}

# The loaded module's report must not name it.
no_named_leak() {
	local leaks

	scan loaded || return 1
	leaks=$(objects_with_frame "$NICTL_RESULTS/kmemleak-loaded.txt" named)
	[ -z "$leaks" ] || { printf '%s\n' "$leaks"; return 1; }
}

# Print "LO HI", the text range of the loaded module as 16-digit hex; kernel
# addresses all have that many digits, so they compare as strings.
text_range() {
	local base size

	read -r base < /sys/module/nictl/sections/.text || return 1
	size=$(awk '$1 == "nictl" { print $2 }' /proc/modules)
	[ -n "$size" ] || return 1
	printf '%016x %016x\n' "$base" "$((base + size))"
}

# After rmmod, no reported object may have a frame in the module's old text.
no_leak_after_unload() {
	local range leaks

	range=$(text_range) || { echo "cannot read the module's text range"; return 1; }
	echo "module text: $range"
	rmmod nictl || return 1
	scan unloaded || return 1
	# shellcheck disable=SC2086 # LO HI, two words
	leaks=$(objects_with_frame "$NICTL_RESULTS/kmemleak-unloaded.txt" range $range)
	[ -z "$leaks" ] || { printf '%s\n' "$leaks"; return 1; }
}

# The suite leaves the module loaded after every test.
[ -d /sys/module/nictl ] || insmod "$NICTL_KO"
tap_check "kmemleak is on" test -w "$KMEMLEAK"
tap_check "kmemleak names no nictl function with the module loaded" no_named_leak
tap_check "kmemleak finds nothing nictl allocated once it is unloaded" no_leak_after_unload
tap_check "insmod after the scans" insmod "$NICTL_KO"
tap_done
