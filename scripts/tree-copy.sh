#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tree-copy.sh SRC DEST: copy the source tree SRC to the new directory DEST.
# From a git work tree, the files git tracks or would track (not what
# .gitignore leaves out, such as build/), as they are now, committed or not,
# without a tracked file deleted in the work tree; from any other directory
# (a copy made by this script), everything.
set -eu -o pipefail
[ $# -eq 2 ] || { echo "usage: tree-copy.sh SRC DEST" >&2; exit 1; }
src=$(cd "$1" && pwd -P)
mkdir -p "$2"
dest=$(cd "$2" && pwd -P)
if [ "$(git -C "$src" rev-parse --show-toplevel 2>/dev/null)" != "$src" ]; then
	cp -a "$src/." "$dest/"
	exit 0
fi
git -C "$src" ls-files -z --cached --others --exclude-standard |
	(cd "$src" && while IFS= read -r -d '' f; do
		if [ -e "$f" ]; then printf '%s\0' "$f"; fi
	done) |
	(cd "$src" && cpio -0 -pdm --quiet "$dest")
