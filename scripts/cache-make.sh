# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Sourced by the scripts that fill the project's cache (chroot-suite.sh,
# fetch-headers.sh, selftests/vm/fetch-kernel.sh): make an entry once, even
# when several runs of make check ask for it at the same time, and make it
# appear complete or not at all.

# cache_make ENTRY LOCK TEMPLATE MAKE [ARG...]: unless ENTRY exists, take the
# lock file LOCK, look again (another run may have just made it) and call
# MAKE ARG... TMP, where TMP is a new directory made from mktemp's TEMPLATE
# (next to ENTRY, so MAKE can rename its work into place) that is removed
# when the script exits. MAKE makes ENTRY last.
cache_make() {
	cache_entry=$1 cache_lock=$2 cache_template=$3
	shift 3
	[ ! -e "$cache_entry" ] || return 0
	mkdir -p "$(dirname "$cache_lock")" "$(dirname "$cache_template")"
	exec 9>"$cache_lock"
	flock 9
	if [ ! -e "$cache_entry" ]; then
		cache_tmp=$(mktemp -d "$cache_template")
		trap 'rm -rf "$cache_tmp"' EXIT
		# mktemp's 0700 would keep apt's _apt user and the guests out.
		chmod 755 "$cache_tmp"
		"$@" "$cache_tmp"
	fi
	exec 9>&-
}
