#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/cache-make.sh, which every script that fills the project's cache
# uses: an entry is made once however many runs ask for it at once, a run
# that fails leaves nothing behind, and a made entry is never made again.
# selftests/unit/Makefile fills in the path of the repository.
# shellcheck disable=SC2317 # the checks are run through tap_check
set -u

REPO=@NICTL_REPO@

# shellcheck source=selftests/unit/tap.sh
. "$REPO/selftests/unit/tap.sh"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# A script that makes the entry $1/entry with cache_make, counting its makes
# in $1/made, slowly enough for parallel runs to meet, and failing when
# $2 is "fail" (after it has written into its new directory).
cat >"$TMP/maker.sh" <<SCRIPT
#!/bin/sh
set -eu
. "$REPO/scripts/cache-make.sh"
make_entry() {
	echo made >>"\$1/made"
	echo partial >"\$3/data"
	sleep 0.2
	[ "\$2" != fail ]
	mv -T "\$3" "\$1/entry"
}
cache_make "\$1/entry" "\$1/.lock" "\$1/.entry.XXXXXX" make_entry "\$1" "\${2:-}"
SCRIPT
chmod +x "$TMP/maker.sh"

# Five runs at once make the entry once, and all of them find it made.
once()
{
	local dir=$TMP/once pids=() pid made

	mkdir "$dir"
	for _ in 1 2 3 4 5; do
		"$TMP/maker.sh" "$dir" & pids+=($!)
	done
	for pid in "${pids[@]}"; do
		wait "$pid" || { echo "a run failed"; return 1; }
	done
	made=$(wc -l <"$dir/made")
	[[ $made -eq 1 && -f $dir/entry/data ]] && return 0
	echo "made $made times (expected 1); entry: $(ls -A "$dir/entry" 2>&1)"
	return 1
}

# A failing make exits non-zero and leaves neither the entry nor its
# temporary directory; the next run makes it.
failed()
{
	local dir=$TMP/failed left

	mkdir "$dir"
	if "$TMP/maker.sh" "$dir" fail; then
		echo "a failing make exited 0"
		return 1
	fi
	left=$(find "$dir" -mindepth 1 -maxdepth 1 ! -name made ! -name .lock)
	if [[ -n $left ]]; then
		echo "left behind: $left"
		return 1
	fi
	"$TMP/maker.sh" "$dir" && [[ -f $dir/entry/data ]] && return 0
	echo "the run after the failure did not make the entry"
	return 1
}

# The entry's temporary directory is readable by others (apt's _apt user
# downloads into it, guests read the kernel from it).
mode()
{
	local dir=$TMP/mode got

	mkdir "$dir"
	"$TMP/maker.sh" "$dir" || return 1
	got=$(stat -c %a "$dir/entry")
	[[ $got == 755 ]] && return 0
	echo "entry mode $got, expected 755"
	return 1
}

tap_check "parallel runs make an entry once, and each finds it" once
tap_check "a failed make leaves nothing, and the next run makes the entry" failed
tap_check "the new entry's directory is mode 755" mode
tap_done
