#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kmod/ reads as layers: no file of the module calls, through a chain of
# other files, back into itself. Read off the objects of every module built
# for the suite's kernels (each kernel's compat files differ): a file uses
# another when one of its undefined symbols is defined there.
# selftests/unit/Makefile fills in the path of the build.
# shellcheck disable=SC2317 # the checks are run through tap_check
set -u

REPO=@NICTL_REPO@
BUILD=@NICTL_BUILD@

# shellcheck source=selftests/unit/tap.sh
. "$REPO/selftests/unit/tap.sh"

# "user provider" lines for the objects in directory $1.
uses()
{
	local o

	for o in "$1"/*.o; do
		nm "$o" | awk -v f="$(basename "$o" .o)" '
			$1 == "U" { print "U", f, $2 }
			NF == 3 && $2 ~ /^[TDBR]$/ { print "D", f, $3 }'
	done | awk '
		$1 == "D" { at[$3] = $2; next }
		{ want[++n] = $2 " " $3 }
		END {
			for (i = 1; i <= n; i++) {
				split(want[i], w, " ")
				if ((w[2] in at) && at[w[2]] != w[1])
					print w[1], at[w[2]]
			}
		}' | sort -u
}

# No circle among the files of directory $1; print one when there is.
no_circle()
{
	local edges

	edges=$(uses "$1")
	[[ -n $edges ]] || { echo "no objects in $1"; return 1; }
	awk '
		{ to[$1] = to[$1] " " $2; node[$1]; node[$2] }
		# Depth-first; state 1: on the path, 2: done.
		function visit(v, path,    i, n, next_, w) {
			state[v] = 1
			n = split(to[v], next_, " ")
			for (i = 1; i <= n; i++) {
				w = next_[i]
				if (state[w] == 1) {
					print "circle: " path " -> " v " -> " w
					found = 1
				} else if (!state[w]) {
					visit(w, path == "" ? v : path " -> " v)
				}
			}
			state[v] = 2
		}
		END {
			for (v in node)
				if (!state[v])
					visit(v, "")
			exit found
		}' <<<"$edges"
}

found=0
for dir in "$BUILD"/kmod/*/src/kmod; do
	compgen -G "$dir/*.o" >/dev/null || continue
	found=1
	krel=${dir%/src/kmod}
	tap_check "no circle between the files of kmod/ (${krel##*/})" no_circle "$dir"
done
tap_check "a module was built to read the layers from" test $found = 1
tap_done
