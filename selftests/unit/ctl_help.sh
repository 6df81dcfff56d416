# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# What nictlctl's own help says, for the tests that keep the man page and the
# completion from drifting away from the code (man_test.sh, completion_test.sh).
# The sourcing test sets CTL to the nictlctl binary.

# The commands `nictlctl --help` lists, one per line.
ctl_commands()
{
	"$CTL" --help | awk '/^Commands:/ { on = 1; next } on && !NF { exit } on { print $1 }'
}

# The options (-x, --xyz) that the help text on stdin names, one per line,
# sorted: words that start with a dash after a space, a bracket, '(', ',' or '|'.
ctl_options()
{
	grep -oE -- '(^|[][ ,(|])--?[a-z][a-z-]*' | sed 's/^[][ ,(|]//' | sort -u
}
