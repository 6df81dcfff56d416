#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The man pages. Each renders without one groff warning (-ww: all of them).
# They cannot drift from the code: nictlctl.8 has a subsection for exactly the
# commands `nictlctl --help` lists, and documents every option that
# `nictlctl COMMAND --help` prints in that command's subsection (-h and --help
# once, under OPTIONS) and no option the command lacks; nictl.conf.5 has an
# entry for exactly the keys of the parser's table in ctl/conf/conf.c.
# selftests/unit/Makefile fills in the paths of the repository and the build.
set -u

REPO=@NICTL_REPO@
CTL=@NICTL_BUILD@/bin/nictlctl

# shellcheck source=selftests/unit/tap.sh
. "$REPO/selftests/unit/tap.sh"
# shellcheck source=selftests/unit/ctl_help.sh
. "$REPO/selftests/unit/ctl_help.sh"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# groff prints nothing at all for a clean page.
lint()
{
	local out

	out=$(groff -ww -man -Tutf8 -z "$1" 2>&1) && [[ -z $out ]] && return 0
	echo "$out"
	return 1
}

# Plain text, no hyphenation and long lines, so every option is one word.
render()
{
	groff -man -Tascii -rHY=0 -rLL=300n -P-c -P-b -P-u -P-o "$1"
}

# The rendered text of section $2 (a heading at column 0) or subsection $2
# (at 3 spaces) of the rendered page $1, without its heading; all of the page
# for "page".
section()
{
	awk -v name="$2" '
		name == "page" { print; next }
		on && (/^[^ ]/ || (inner && /^   [^ ]/)) { exit }
		on { print }
		$0 == name { on = 1 }
		$0 == "   " name { on = inner = 1 }
	' "$1"
}

# Does the list $2 (one per line) equal the list $3? Say the difference as $1.
same_list()
{
	local what=$1 diffs

	diffs=$(diff <(echo "$2") <(echo "$3")) && return 0
	echo "$what (< documented, > in the code):"
	echo "$diffs"
	return 1
}

# Is every option of `nictlctl $1 --help` documented where it belongs in the
# rendered nictlctl.8 $2, and no other option in $1's subsection?
command_options()
{
	local cmd=$1 page=$2 help global doc extra missing='' opt where

	help=$("$CTL" "$cmd" --help | ctl_options) || return 1
	# help --help is the global usage: its first paragraph has the global
	# options, its list of commands their options (those are documented
	# with each command).
	global=$("$CTL" --help | sed '/^$/q' | ctl_options)
	for opt in $help; do
		where=$cmd
		[[ $cmd == help ]] && where=page
		grep -qx -- "$opt" <<<"$global" && where=OPTIONS
		section "$page" "$where" | grep -qE -- "(^|[^-[:alnum:]])$opt([^-[:alnum:]]|$)" ||
			missing="$missing $opt (in $where)"
	done
	[[ -z $missing ]] || { echo "undocumented:$missing"; return 1; }
	doc=$(section "$page" "$cmd" | ctl_options)
	extra=$(comm -23 <(echo "$doc") <(echo "$help"))
	[[ -z $extra ]] || { echo "documented but not in '$cmd --help':" "$extra"; return 1; }
}

# The keys of ctl/conf/conf.c's table: lines such as `[KEY_XPS] = { "xps", false },`.
conf_keys()
{
	sed -n 's/^\t\[[A-Z_]*\][[:space:]]*= { "\([a-z-]*\)", .*/\1/p' "$REPO/ctl/conf/conf.c" | sort
}

# The keys nictl.conf.5 documents: its tags "KEY = VALUE".
doc_keys()
{
	grep -oE '^       [a-z-]+ = ' "$1" | awk '{ print $1 }' | sort
}

# Examples are not filled: each must fit by itself.
fits_80()
{
	groff -man -Tascii -P-c -P-b -P-u -P-o "$1" | awk '
		length($0) > 80 { print "too wide: " $0; wide = 1 }
		END { exit wide }'
}

for page in "$REPO"/man/*.[1-9]; do
	tap_check "$(basename "$page"): groff -ww finds nothing to warn about" lint "$page"
	tap_check "$(basename "$page"): fits an 80-column terminal" fits_80 "$page"
done

render "$REPO/man/nictlctl.8" >"$TMP/nictlctl.txt"
render "$REPO/man/nictl.conf.5" >"$TMP/nictl.conf.txt"

commands=$(ctl_commands)
tap_check "nictlctl --help lists the eleven commands" test "$(xargs <<<"$commands")" = \
	"show bind restore stats daemon verify plan monitor balance doctor help"
tap_check "nictlctl.8: a subsection for exactly the commands nictlctl has" same_list commands \
	"$(section "$TMP/nictlctl.txt" COMMANDS | sed -n 's/^   \([a-z]*\)$/\1/p' | sort)" \
	"$(echo "$commands" | sort)"
for cmd in $commands; do
	tap_check "nictlctl.8: every option of '$cmd --help', and no other" \
		command_options "$cmd" "$TMP/nictlctl.txt"
done
for s in "EXIT STATUS" FILES EXAMPLES "SEE ALSO"; do
	tap_check "nictlctl.8 has $s" grep -qx "$s" "$TMP/nictlctl.txt"
done
tap_check "nictlctl.8: exit status 0, 1 and 2" \
	test "$(section "$TMP/nictlctl.txt" "EXIT STATUS" | grep -cE '^       [012]( |$)')" = 3

tap_check "ctl/conf/conf.c's key table parsed (25 keys)" test "$(conf_keys | wc -l)" = 25
tap_check "nictl.conf.5: an entry for exactly the keys ctl/conf/conf.c knows" same_list keys \
	"$(doc_keys "$TMP/nictl.conf.txt")" "$(conf_keys)"
for s in "[rule NAME]" "[daemon]"; do
	tap_check "nictl.conf.5 has a subsection $s" grep -qxF "   $s" "$TMP/nictl.conf.txt"
done

tap_done
