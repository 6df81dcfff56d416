#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest half of bench/affinity-window.sh, in the suite guest. With
# `nictlctl daemon` keeping vnode1 (the node-1 virtio NIC) numa-local and a
# `nictlctl monitor -j` listening, build/bench/affinity-window takes
# vnode1's queue IRQs off their CPUs $ROUNDS times each way and times, by
# polling /proc every millisecond, how long they stay off:
#   reload  PCI driver unbind + bind of vnode1
#   drift   a write of CPU 0 to the smp_affinity_list of one queue IRQ
# then does each once more with the daemon stopped, as a one-shot script
# leaves things, and last reloads $ROUNDS times with a sticky binding and no
# daemon (the module applies it again by itself). Prints, in us:
#   "RESULT reload <round> <registered -> in place> <registered -> bound>
#    <registered -> bind returned>"
#   "RESULT drift <round> <write -> in place> <write -> drift event>
#    <write -> bound>"
#   "NEVER <reload|drift> <in place after $NEVER_MS ms: yes|no> <placement>"
#   "RESULT sticky <round> <registered -> in place> <registered ->
#    sticky-applied> <registered -> bind returned>"
# "registered", "drift" and "bound" are the time_ns of those events (the
# module's CLOCK_MONOTONIC, the helper's clock too); "bound" is the daemon's.
# The daemon and the monitor write to the guest's tmpfs, not to the results
# folder: a write over 9p to a loaded host can stall the daemon for seconds.
set -eu

ROUNDS=${NICTL_BENCH_ROUNDS:-20}
NIC=vnode1
HELPER=$NICTL_BUILD/bench/affinity-window
OUT=$NICTL_RESULTS
CONF=/tmp/affinity-window.conf
EVENTS=/tmp/monitor.json
WAIT_MS=30000
NEVER_MS=5000

log() {
	echo "affinity-window: $*"
}

# Wait up to 120 s for file $1 to hold a line matching $2.
wait_for() {
	end=$(($(date +%s) + 120))
	until grep -q "$2" "$1"; do
		[ "$(date +%s)" -lt $end ] || { log "timed out waiting for '$2' in $1"; exit 1; }
		sleep 0.2
	done
}

# Whether placement $1 puts every queue IRQ on one CPU of node $2.
on_node() {
	echo "$1" | tr , '\n' | awk -F= -v list="$(cat "/sys/devices/system/node/node$2/cpulist")" '
		BEGIN { n = split(list, r, ","); for (i = 1; i <= n; i++) {
			if (split(r[i], b, "-") == 1) b[2] = b[1]
			for (c = b[1]; c <= b[2]; c++) node[c] = 1 } }
		!($2 ~ /^[0-9]+$/ && $2 in node) { bad = 1 }
		END { exit bad || NR == 0 }'
}

# The time_ns of the first event after $2 (ns) whose line matches $1, in
# the monitor's output; -1 when there is none.
event_after() {
	awk -v want="$1" -v after="$2" '
		$0 ~ want && match($0, /"time_ns":[0-9]+/) {
			t = substr($0, RSTART + 10, RLENGTH - 10) + 0
			if (t > after && (first == "" || t < first)) first = t
		}
		END { print first == "" ? -1 : first }' $EVENTS
}

# $ROUNDS rounds of the helper's $2 (and the rest of the arguments) on the
# policy $placement, one line each, numbered, into file $1.
rounds() {
	file=$1
	shift
	i=1
	while [ $i -le "$ROUNDS" ]; do
		echo "$i $("$HELPER" "$bdf" "$placement" $WAIT_MS "$@")" >>"$file"
		[ "$1" != reload ] || sleep 0.5
		i=$((i + 1))
	done
}

# Microseconds from $1 to $2 (ns), -1 when either is missing.
us() {
	awk -v a="$1" -v b="$2" 'BEGIN { print a < 0 || b < 0 ? -1 : int((b - a) / 1000) }'
}

insmod "$NICTL_KO"
# The netdev's parent is the virtio device, whose parent is the PCI function.
pci=$(readlink -f "/sys/class/net/$NIC/device/..")
bdf=${pci##*/}
driver=$(basename "$(readlink "$pci/driver")")
# Not sticky: the daemon's own answer is what the first rounds time.
cat >$CONF <<EOF
[rule node1-nic]
match-mac = $(cat "/sys/class/net/$NIC/address")
cpus = numa-local
sticky = no
EOF

# The listener first; it listens once it reports vnode0 coming up.
"$NICTL_CTL" monitor -j >$EVENTS &
monitor=$!
daemon=
# Nothing may keep the results folder busy when the guest powers off.
trap 'kill $monitor $daemon 2>/dev/null || true' EXIT
until grep -q '"event":"up".*"ifname":"vnode0"' $EVENTS; do
	ip link set vnode0 down
	ip link set vnode0 up
	sleep 0.5
done
"$NICTL_CTL" daemon --foreground -c $CONF 2>/tmp/daemon.log &
daemon=$!
by_daemon="\"event\":\"bound\".*\"bus_addr\":\"$bdf\".*\"pid\":${daemon}[,}]"
wait_for $EVENTS "$by_daemon"
placement=$("$HELPER" "$bdf" - 0 state || true)
on_node "$placement" 1 || { log "not numa-local after the daemon's start: $placement"; exit 1; }
log "kernel $(uname -r), $NIC = $bdf ($driver), watch_period_ms" \
	"$(cat /sys/module/nictl/parameters/watch_period_ms), policy: $placement"

rounds /tmp/reload.txt reload "$driver"
rounds /tmp/drift.txt drift input.0 0

# A one-shot script: applied once, nothing answers what comes after.
kill -TERM $daemon
wait $daemon || true
daemon=
r=$("$HELPER" "$bdf" "$placement" $NEVER_MS reload "$driver")
echo "NEVER reload $([ "${r##* }" -ge 0 ] && echo yes || echo no)" \
	"$("$HELPER" "$bdf" "$placement" 0 state || true)"
"$NICTL_CTL" bind "$(basename /sys/bus/pci/devices/"$bdf"/virtio*/net/*)" --numa-local >/dev/null
placement=$("$HELPER" "$bdf" - 0 state || true)
r=$("$HELPER" "$bdf" "$placement" $NEVER_MS drift input.0 0)
echo "NEVER drift $([ "${r##* }" -ge 0 ] && echo yes || echo no)" \
	"$("$HELPER" "$bdf" "$placement" 0 state || true)"

# The same policy as a sticky binding, and nothing running in userspace.
"$NICTL_CTL" bind "$(basename /sys/bus/pci/devices/"$bdf"/virtio*/net/*)" --numa-local \
	--sticky >/dev/null
placement=$("$HELPER" "$bdf" - 0 state || true)
rounds /tmp/sticky.txt reload "$driver"
kill -TERM $monitor
wait $monitor || true
monitor=
cp $EVENTS /tmp/daemon.log /tmp/reload.txt /tmp/drift.txt /tmp/sticky.txt "$OUT/"

registered="\"event\":\"registered\".*\"bus_addr\":\"$bdf\""
while read -r i unbound returned back; do
	reg=$(event_after "$registered" "$unbound")
	bound=$(event_after "$by_daemon" "$unbound")
	echo "RESULT reload $i $(us "$reg" "$back") $(us "$reg" "$bound") $(us "$reg" "$returned")"
done </tmp/reload.txt
while read -r i written back; do
	drift=$(event_after "\"event\":\"drift\".*\"bus_addr\":\"$bdf\"" "$written")
	bound=$(event_after "$by_daemon" "$written")
	echo "RESULT drift $i $(us "$written" "$back") $(us "$written" "$drift")" \
		"$(us "$written" "$bound")"
done </tmp/drift.txt
applied="\"event\":\"sticky-applied\".*\"bus_addr\":\"$bdf\""
while read -r i unbound returned back; do
	reg=$(event_after "$registered" "$unbound")
	echo "RESULT sticky $i $(us "$reg" "$back") $(us "$reg" "$(event_after "$applied" "$unbound")")" \
		"$(us "$reg" "$returned")"
done </tmp/sticky.txt
