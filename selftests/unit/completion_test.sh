#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The bash completion, completion/nictlctl, sourced into this bash and asked
# as bash would ask it: commands, options, interface names (from the real
# /sys: lo is on every host; and from a fake one through $NICTL_SYSFS), NUMA
# nodes, files. It cannot drift from the code: for every command, what it
# offers after "-" is exactly the options `nictlctl COMMAND --help` prints.
# selftests/unit/Makefile fills in the paths of the repository and the build.
set -u

REPO=@NICTL_REPO@
CTL=@NICTL_BUILD@/bin/nictlctl

# shellcheck source=selftests/unit/tap.sh
. "$REPO/selftests/unit/tap.sh"
# shellcheck source=selftests/unit/ctl_help.sh
. "$REPO/selftests/unit/ctl_help.sh"
# shellcheck source=completion/nictlctl
. "$REPO/completion/nictlctl"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# What completing the command line $1 offers, sorted, on one line. A line
# that ends in a space completes a new, empty word.
complete_line()
{
	local line=$1

	read -ra COMP_WORDS <<<"$line"
	[[ $line == *' ' ]] && COMP_WORDS+=('')
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMPREPLY=()
	_nictlctl
	printf '%s\n' "${COMPREPLY[@]}" | sort | xargs
}

# Does completing $1 offer exactly $2 (sorted, space-separated)?
offers()
{
	local got

	got=$(complete_line "$1")
	[[ $got == "$2" ]] && return 0
	echo "completing '$1' offered '$got', expected '$2'"
	return 1
}

# Does completing $1 offer, among others, $2?
offers_some()
{
	local got

	got=$(complete_line "$1")
	[[ " $got " == *" $2 "* ]] && return 0
	echo "completing '$1' offered '$got', without '$2'"
	return 1
}

tap_check "the completion is registered for nictlctl" \
	bash -c '. "$1" && complete -p nictlctl | grep -q "_nictlctl nictlctl$"' _ \
	"$REPO/completion/nictlctl"

tap_check "commands" offers "nictlctl " \
	"balance bind daemon doctor help monitor plan restore show stats verify"
tap_check "a command by its prefix" offers "nictlctl re" "restore"
tap_check "global options" offers "nictlctl -" "$(printf '%s\n' --help --version -h -V -j --json \
	-p --pretty -n --netns | sort | xargs)"
tap_check "a command after a global option" offers "nictlctl -h mo" "monitor"
tap_check "an option of bind by its prefix" offers "nictlctl bind eth0 --allow-si" "--allow-siblings"
tap_check "options of bind that share a prefix" offers "nictlctl bind eth0 --a" \
	"--allow-shared --allow-siblings"
tap_check "options of bind before DEV" offers "nictlctl bind --n" "--node --numa-local"
tap_check "nothing after stats --count, which takes a count" offers "nictlctl stats --count " ""
tap_check "help's argument is a command" offers "nictlctl help st" "stats"

tap_check "lo from the host's /sys after show" offers_some "nictlctl show " lo
tap_check "lo from the host's /sys by prefix after bind" offers_some "nictlctl bind l" lo

mkdir -p "$TMP/sys/class/net/eth0" "$TMP/sys/class/net/eth1" "$TMP/sys/class/net/lo" \
	"$TMP/sys/devices/system/node/node0" "$TMP/sys/devices/system/node/node1"
export NICTL_SYSFS=$TMP/sys
tap_check "interfaces of a fake /sys after restore" offers "nictlctl restore " "eth0 eth1 lo"
tap_check "interfaces by prefix after stats, past its options" \
	offers "nictlctl stats -i 1 --count 5 e" "eth0 eth1"
tap_check "one DEV only: nothing after it" offers "nictlctl bind eth0 " ""
tap_check "no DEV after an option's value either" offers "nictlctl bind eth0 --cpus 4-7 " ""
tap_check "NUMA nodes after --node" offers "nictlctl bind eth0 --node " "0 1"
tap_check "the modes after --threaded" offers "nictlctl bind eth0 --threaded " "busy-poll off on"
tap_check "no DEV for monitor" offers "nictlctl monitor " ""
tap_check "doctor takes several DEVs" offers "nictlctl doctor -i 1 eth0 e" "eth0 eth1"
tap_check "nothing after doctor -i, which takes seconds" offers "nictlctl doctor -i " ""
tap_check "balance takes several DEVs" offers "nictlctl balance --window 3 eth0 e" "eth0 eth1"
tap_check "nothing after balance --threshold, which takes a percentage" \
	offers "nictlctl balance --threshold " ""
tap_check "no DEV after stats --reset" offers "nictlctl stats --reset " ""
tap_check "no DEV after stats --off" offers "nictlctl stats --off " ""
unset NICTL_SYSFS

mkdir -p "$TMP/netns"
touch "$TMP/netns/pod1" "$TMP/netns/pod2" "$TMP/netns/web"
export NICTL_NETNS_DIR=$TMP/netns
tap_check "ip netns names after -n" offers "nictlctl -n p" "pod1 pod2"
tap_check "a command after -n NAME" offers "nictlctl -n pod1 sh" "show"
tap_check "a DEV after -n NAME show" offers_some "nictlctl -n pod1 show " lo
unset NICTL_NETNS_DIR

touch "$TMP/my.conf" "$TMP/my.other"
tap_check "files after --netns" offers "nictlctl --netns $TMP/my.c" "$TMP/my.conf"
tap_check "files after daemon -c" offers "nictlctl daemon -c $TMP/my.c" "$TMP/my.conf"
tap_check "files after daemon --config" offers "nictlctl daemon --config $TMP/my." \
	"$TMP/my.conf $TMP/my.other"
tap_check "files after doctor -c" offers "nictlctl doctor -c $TMP/my.c" "$TMP/my.conf"
tap_check "files after balance -c" offers "nictlctl balance -c $TMP/my.c" "$TMP/my.conf"

for cmd in $(ctl_commands); do
	# help --help is the global usage, which names other commands' options.
	[[ $cmd == help ]] && continue
	tap_check "$cmd: offers exactly the options of '$cmd --help'" \
		offers "nictlctl $cmd -" "$("$CTL" "$cmd" --help | ctl_options | xargs)"
done

tap_done
