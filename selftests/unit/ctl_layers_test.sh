#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ctl/ is grouped by concern, one folder each (stats/, daemon/, steer/, ...):
# no two folders may include each other's headers in a circle, however
# long. The graph is read from the #include lines of every folder's files;
# tsort(1) finds a circle in it. The top-level files are shared by all and
# belong to no folder.
# selftests/unit/Makefile fills in the path of the repository.
# shellcheck disable=SC2317 # the checks are run through tap_check
set -u

REPO=@NICTL_REPO@

# shellcheck source=selftests/unit/tap.sh
. "$REPO/selftests/unit/tap.sh"

# "from to" per folder that includes a header of another folder.
edges() {
	local dir from

	for dir in "$REPO"/ctl/*/; do
		from=$(basename "$dir")
		grep -ho '#include "[a-z_]*/' "$dir"*.[ch] 2>/dev/null |
			sed 's/#include "\(.*\)\//\1/' | sort -u |
			while read -r to; do
				[ "$to" = "$from" ] || echo "$from $to"
			done
	done
}

no_circle() {
	local graph

	graph=$(edges)
	[ -n "$graph" ] || { echo "no folder includes another: the graph was not read"; return 1; }
	# tsort names each circle's members on stderr and fails.
	tsort <<<"$graph" >/dev/null
}

tap_check "ctl/: the folders' includes were read" test -n "$(edges)"
tap_check "ctl/: no folders include each other in a circle" no_circle
tap_done
