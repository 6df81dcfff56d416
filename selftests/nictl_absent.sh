#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run inside a test guest by guest-suite.sh, last and without the module:
# show reads the devices itself and describes them as the module does; every
# other command says why nictl.ko is not in the kernel, in each state a host
# can be in (bind --sticky, which will always need the module, stands for
# them). Not installed; installed where nothing loaded it; then,
# on a kernel with module signing, signatures enforced (module.sig_enforce,
# which nothing can turn off again: hence last) with the suite's unsigned
# build installed and with the build DKMS signed with its own key, which
# the kernel does not trust. Before those, the daemon keeps a rule without
# the module: applied, put back after a write to /proc/irq and after a PCI
# reload, then handed to the module when it loads. The guest may have no
# /lib/modules (the host's
# root, read-only, has none for a cache kernel), so the module tree the test
# installs into is below $ROOT, which nictlctl takes as $NICTL_ROOT and
# depmod and modprobe as their base directory; the kernel's own modprobe
# (the genl family's autoload) reads the cache (guest-init.sh) and never
# finds it.
# TAP on stdout; every test reports, none is skipped.
# Environment: NICTL_KREL, NICTL_KO, NICTL_CTL, NICTL_REPO, NICTL_BUILD (see guest-suite.sh).
set -u

IFACE=vnode1
ROOT=/tmp/nictl-absent-root
MODS=/lib/modules/$NICTL_KREL
DKMS_KO=${NICTL_BUILD:-$NICTL_REPO/build}/dkms/install/$NICTL_KREL/updates/dkms/nictl.ko
SIG_ENFORCE=/sys/module/module/parameters/sig_enforce
PREFIX="nictlctl: module nictl is not loaded: "

# shellcheck source=selftests/lib/tap.sh
. "$NICTL_REPO/selftests/lib/tap.sh"
# shellcheck source=selftests/lib/vnode.sh
. "$NICTL_REPO/selftests/lib/vnode.sh"

# says STATUS WANT...: nictlctl's last run ($err, status $rc) exited STATUS
# with stderr holding every WANT, in one line if it failed.
says() {
	want_rc=$1
	shift
	echo "# exit $rc, stderr: $err"
	[ "$rc" -eq "$want_rc" ] || return 1
	[ "$rc" -eq 0 ] || [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || return 1
	for want; do
		case $err in
		*"$want"*) ;;
		*) echo "# missing: $want"; return 1 ;;
		esac
	done
}

# doctor_says WANT...: doctor's module-absent finding ("why; fix") holds every WANT.
doctor_says() {
	absent=$("$NICTL_CTL" doctor -i 10ms -j 2>/dev/null | python3 -c '
import json, sys
for f in json.load(sys.stdin)["findings"]:
    if f["id"] == "module-absent":
        print(f["summary"] + "; " + f["fix"])')
	echo "# doctor: $absent"
	for want; do
		case $absent in
		*"$want"*) ;;
		*) echo "# missing: $want"; return 1 ;;
		esac
	done
}

# await SECONDS COMMAND...: run COMMAND once a second until it succeeds, for
# at most SECONDS; its last exit status.
await() {
	limit=$(($1 * ${NICTL_TIMEOUT_SCALE:-1}))
	shift
	waited=0
	until "$@" >/dev/null; do
		waited=$((waited + 1))
		[ "$waited" -lt "$limit" ] || { "$@"; return 1; }
		sleep 1
	done
}

# logged TEXT: the daemon's log has a line with TEXT.
logged() {
	grep -qF "$1" "$DAEMON_LOG"
}

# reload_pci: unbind $IFACE's PCI function from its driver and bind it again,
# then give the new device its name back and bring it up.
reload_pci() {
	pci=$(readlink -e "/sys/class/net/$IFACE/device/..") || return 1
	bdf=$(basename "$pci")
	driver=$(basename "$(readlink -e "$pci/driver")")
	echo "# reloading $bdf ($driver)"
	echo "$bdf" >"/sys/bus/pci/drivers/$driver/unbind" &&
		echo "$bdf" >"/sys/bus/pci/drivers/$driver/bind" || return 1
	await 10 ls "$pci"/virtio*/net/ || return 1
	new=$(ls "$pci"/virtio*/net/)
	[ "$new" = "$IFACE" ] || ip link set "$new" name "$IFACE" || return 1
	ip link set "$IFACE" up
}

# ctl ARGS...: run nictlctl, its stderr in $err and its exit status in $rc.
ctl() {
	err=$("$NICTL_CTL" "$@" 2>&1 >/dev/null)
	rc=$?
}

# install KO: make KO the module tree's only module, as DKMS installs one.
install() {
	mkdir -p "$ROOT$MODS/updates/dkms" &&
		cp "$1" "$ROOT$MODS/updates/dkms/nictl.ko" &&
		depmod -b "$ROOT" "$NICTL_KREL"
}

# same MODULE_JSON SYSFS_JSON: every device the module describes, described
# alike from sysfs and netdev-genl: the same source, IRQs, queues and groups.
same() {
	python3 - "$1" "$2" <<'PY'
import json, sys

def irqs(dev):
    return [(i["irq"], i["name"], i["queue"], i["kind"], json.dumps(i["queues"]), i["group"],
             i["affinity_list"], i["node"], i["shared"]) for i in dev["irqs"]]

module, direct = (json.load(open(f)) for f in sys.argv[1:])
found = {d["ifname"]: d for d in direct}
bad = []
if [d["ifname"] for d in module] != [d["ifname"] for d in direct]:
    bad.append("devices: module %s, sysfs %s" % ([d["ifname"] for d in module], list(found)))
for d in module:
    x = found.get(d["ifname"])
    if not x:
        continue
    for key in ("ifindex", "driver", "bus_addr", "numa_node", "rx_queues", "tx_queues", "up",
                "uppers"):
        if d[key] != x[key]:
            bad.append("%s %s: module %r, sysfs %r" % (d["ifname"], key, d[key], x[key]))
    if (d["via"], x["via"]) != ("module", "sysfs"):
        bad.append("%s via: %s, %s" % (d["ifname"], d["via"], x["via"]))
    want, got = irqs(d), irqs(x)
    ok = got == want and x["source"] == d["source"]
    print("# %s: %s, %d queue IRQs from the module, %s, %d from sysfs" %
          (d["ifname"], d["source"], len(d["irqs"]), x["source"], len(x["irqs"])))
    if not ok:
        bad.append("%s IRQs: module %s, sysfs %s" % (d["ifname"], want, got))
for b in bad:
    print("# differs: " + b)
sys.exit(1 if bad or not module else 0)
PY
}

echo "1..22"

[ -d /sys/module/nictl ] || run insmod "$NICTL_KO"
"$NICTL_CTL" show -j >/tmp/nictl-absent-module.json
# The NAPI links alone (the test build's fault_discovery_source=1).
echo 1 >/sys/module/nictl/parameters/fault_discovery_source
"$NICTL_CTL" show -j >/tmp/nictl-absent-module-links.json
echo 0 >/sys/module/nictl/parameters/fault_discovery_source
run rmmod nictl
err=$("$NICTL_CTL" show -j 2>&1 >/tmp/nictl-absent-sysfs.json)
rc=$?
says 0 "${PREFIX}" "Shown from sysfs, /proc and the NAPI links" &&
	same /tmp/nictl-absent-module.json /tmp/nictl-absent-sysfs.json
tap $? "show without the module: every device and queue IRQ as the module shows them, via sysfs"

out=$("$NICTL_CTL" show "$IFACE" 2>/dev/null)
rc=$?
printf '%s\n' "$out" | sed 's/^/# /'
[ "$rc" -eq 0 ] && printf '%s\n' "$out" | head -n1 | grep -q ', irqs from msi via sysfs$' &&
	[ "$(printf '%s\n' "$out" | grep -c "virtio[0-9]*-\(in\|out\)put\.")" -ge 2 ]
tap $? "show $IFACE without the module: its queue IRQs, the header says via sysfs"
err=$(NICTL_FAULT_DISCOVERY_SOURCE=1 "$NICTL_CTL" show -j 2>&1 >/tmp/nictl-absent-sysfs.json)
rc=$?
says 0 "${PREFIX}" && same /tmp/nictl-absent-module-links.json /tmp/nictl-absent-sysfs.json
tap $? "by NAPI links alone (netdev-genl without the module): the queue IRQs the module's links find"
rm -f /tmp/nictl-absent-module.json /tmp/nictl-absent-sysfs.json /tmp/nictl-absent-module-links.json

# Queue 0's IRQs on CPU 0, of the node vnode1 is not on: the field reports' machine.
virtio=$(basename "$(readlink -e "/sys/class/net/$IFACE/device")")
for name in input.0 output.0; do
	echo 0 >"/proc/irq/$(irq_named "$virtio-$name")/smp_affinity_list"
done
err=$("$NICTL_CTL" doctor -i 100ms -j 2>&1 >/tmp/nictl-absent-doctor.json)
rc=$?
says 1 &&
	python3 - "$IFACE" /tmp/nictl-absent-doctor.json <<'PY'
import json, sys

ifname, path = sys.argv[1:]
found = json.load(open(path))["findings"]
for f in found:
    print("# %s %s %s: %s (fix: %s)" % (f["severity"], f["id"], f["ifname"], f["summary"], f["fix"]))
ids = {(f["id"], f["ifname"]) for f in found}
absent = [f for f in found if f["id"] == "module-absent"]
ok = (("irq-cpu0", ifname) in ids and ("irq-far-node", ifname) in ids and absent and
      absent[0]["fix"].startswith("install the nictl-dkms package") and
      all("--steer" not in (f["fix"] or "") for f in found) and
      ("stats-off", None) not in ids)
sys.exit(0 if ok else 1)
PY
tap $? "doctor without the module: queue IRQs on CPU 0 of the far node, and why the module is absent"
rm -f /tmp/nictl-absent-doctor.json

before=$(queue_affinities)
err=$("$NICTL_CTL" bind "$IFACE" --numa-local 2>&1 >/dev/null)
rc=$?
says 0 "${PREFIX}" "Bound through /proc/irq: not atomic against other writers" &&
	check_binding
tap $? "bind --numa-local without the module: each queue on one CPU of its node, a core each"

bound=$(queue_affinities)
out=$("$NICTL_CTL" show "$IFACE" 2>/dev/null)
printf '%s\n' "$out" | sed 's/^/# /'
printf '%s\n' "$out" | head -n1 | grep -q ', bound, .*via sysfs$' &&
	[ "$(printf '%s\n' "$out" | grep -cE ' bound(,pending)?$')" -eq 4 ]
tap $? "show: the device and its 4 queue IRQs bound, on target"

held=0
for k in 1 2 3 4; do
	err=$(NICTL_FAULT_IRQ_WRITE=$k "$NICTL_CTL" bind "$IFACE" --cpus 0-3 2>&1 >/dev/null)
	rc=$?
	now=$(queue_affinities)
	echo "# write $k failing: IRQ:CPUS $now"
	says 1 "every earlier write rolled back" && [ "$now" = "$bound" ] && held=$((held + 1))
done
[ "$held" -eq 4 ]
tap $? "a failure at the k-th write (k = 1..4) leaves every IRQ as it was"

err=$("$NICTL_CTL" restore "$IFACE" 2>&1 >/dev/null)
rc=$?
after=$(queue_affinities)
echo "# IRQ:CPUS before the bind: $before; after the restore: $after"
says 0 "Restored through /proc/irq" && [ "$after" = "$before" ]
tap $? "restore without the module: /proc/irq as before the bind"

# stats: the runs of /proc/softirqs per CPU, read just before and after it.
before=$(awk '$1 == "NET_RX:" { $1 = ""; print }' /proc/softirqs)
"$NICTL_CTL" stats -j >/tmp/nictl-absent-stats.json 2>/tmp/nictl-absent-stats.err
rc=$?
after=$(awk '$1 == "NET_RX:" { $1 = ""; print }' /proc/softirqs)
err=$(cat /tmp/nictl-absent-stats.err)
says 0 "$PREFIX" "Counted from /proc/softirqs and /proc/stat" &&
	python3 - /tmp/nictl-absent-stats.json "$before" "$after" <<'PY' &&
import json, sys

view = json.load(open(sys.argv[1]))
before, after = ([int(n) for n in a.split()] for a in sys.argv[2:])
ok = view["via"] == "procfs" and view["cpus"]
for c in view["cpus"]:
    n = c["net_rx"]["count"]
    print("# CPU %d: NET_RX runs %d (/proc/softirqs %d..%d), softirq %s%%, time %s" %
          (c["cpu"], n, before[c["cpu"]], after[c["cpu"]], c["softirq_pct"],
           c["net_rx"]["time_ns"]))
    ok = ok and before[c["cpu"]] <= n <= after[c["cpu"]] and c["net_rx"]["time_ns"] is None
    ok = ok and c["softirq_pct"] is not None and c["poll"] is None
sys.exit(0 if ok else 1)
PY
	run python3 "$NICTL_REPO/scripts/json-check.py" stats /tmp/nictl-absent-stats.json &&
	"$NICTL_CTL" stats --prometheus 2>/dev/null | grep -qx 'nictl_stats_source{via="procfs"} 1' &&
	! "$NICTL_CTL" stats "$IFACE" 2>/tmp/nictl-absent-stats.err &&
	grep -q "stats DEV needs it: a device's NAPI polls are counted by it only" \
		/tmp/nictl-absent-stats.err
tap $? "stats without the module: each CPU's NET_RX runs from /proc/softirqs, no times, says so"
rm -f /tmp/nictl-absent-stats.json /tmp/nictl-absent-stats.err

DAEMON_CONF=/tmp/nictl-absent.conf
DAEMON_LOG=/tmp/nictl-absent-daemon.log
printf '[rule node1-nic]\nmatch-mac = %s\ncpus = numa-local\n' \
	"$(cat "/sys/class/net/$IFACE/address")" >"$DAEMON_CONF"
# What a bind without the module kept for a device long gone: the daemon drops it.
GONE=/run/nictl/irq-999999
mkdir -p /run/nictl && echo "45 0-3 4" >"$GONE"
"$NICTL_CTL" daemon --foreground -c "$DAEMON_CONF" >"$DAEMON_LOG" 2>&1 &
daemon=$!
# The daemon logs an apply after its writes: the IRQs may be seen first.
await 60 check_binding && logged "Keeping the rules through /proc/irq until it loads" &&
	await 30 logged "rule node1-nic: IRQ " &&
	logged "kept under /run/nictl for 1 device that is gone" && [ ! -e "$GONE" ]
tap $? "daemon without the module: says why, drops what was kept for a device gone, binds $IFACE"

irq=$(irq_named "$(basename "$(readlink -e "/sys/class/net/$IFACE/device")")-input.0")
echo 0 >"/proc/irq/$irq/smp_affinity_list"
echo "# IRQ $irq moved to CPU 0: $(queue_affinities)"
await 30 check_binding && logged "moved behind nictl's back"
tap $? "a write to /proc/irq behind its back is found and undone"

out=$("$NICTL_CTL" verify -c "$DAEMON_CONF" 2>/dev/null) &&
	printf '%s\n' "$out" | grep -qx "1 device governed, 0 not as configured" &&
	out=$("$NICTL_CTL" plan -c "$DAEMON_CONF" 2>/dev/null) &&
	printf '%s\n' "$out" | grep -q "^$IFACE: rule node1-nic " &&
	printf '%s\n' "$out" | grep -qx "1 device governed, 0 could not be placed"
rc=$?
printf '%s\n' "$out" | sed 's/^/# /'
[ "$rc" -eq 0 ]
tap $? "verify and plan without the module: the daemon's binding as the rule says"

# The daemon's answers to $IFACE: binds that moved an IRQ, by any name
# (a reloaded device binds before it has its name back), and drifts found.
applies() {
	grep -cE "(rule node1-nic: IRQ |$IFACE: moved behind nictl's back)" "$DAEMON_LOG"
}
more_applies() {
	[ "$(applies)" -gt "$before" ]
}
# The daemon's log since its first $1 lines, for a failure.
log_since() {
	tail -n +"$(($1 + 1))" "$DAEMON_LOG" | sed 's/^/# daemon since: /'
}

# The daemon logs an apply after its writes: waited for, so that it is not
# counted as an answer to what comes next.
before=$(applies)
reload_pci && await 60 check_binding && await 30 more_applies
tap $? "a PCI reload of $IFACE: the new device bound by the rule again"

# virtio_net spreads its IRQs again on a channel change (virtnet_set_affinity()):
# the daemon answers the channel change or, first, the drift it finds.
before=$(applies) lines=$(wc -l <"$DAEMON_LOG")
run ethtool -L "$IFACE" combined 1 && run ethtool -L "$IFACE" combined 2 &&
	await 30 check_binding && await 30 more_applies
rc=$?
[ "$rc" -eq 0 ] || log_since "$lines"
[ "$rc" -eq 0 ]
tap $? "ethtool -L $IFACE combined 1, then 2: virtio_net's moves undone by the rule"

insmod "$NICTL_KO" && await 60 logged "module nictl is here" && await 30 check_binding &&
	"$NICTL_CTL" show -j "$IFACE" | python3 -c '
import json, sys
dev = json.load(sys.stdin)[0]
print("# via %s, bound %s: %s" % (dev["via"], dev["bound"],
      [(i["irq"], i["bound"]) for i in dev["irqs"]]))
sys.exit(0 if dev["via"] == "module" and all(i["bound"] for i in dev["irqs"]) else 1)' &&
	! ls /run/nictl/irq-* 2>/dev/null
tap $? "the module loads: the daemon binds through it, nothing left under /run/nictl"
kill "$daemon"
wait "$daemon"
sed 's/^/# daemon: /' "$DAEMON_LOG"
run rmmod nictl
rm -f "$DAEMON_CONF" "$DAEMON_LOG"

ctl bind "$IFACE" --numa-local --sticky
if [ -d /var/lib/dkms/nictl ]; then
	says 1 "$PREFIX" "DKMS has nictl" "$NICTL_KREL"
else
	says 1 "${PREFIX}nictl.ko is not installed for kernel $NICTL_KREL; " \
		"install the nictl-dkms package"
fi
tap $? "not installed: nictlctl says so for this kernel, and how to install it"

install "$NICTL_KO"
export NICTL_ROOT="$ROOT"
ctl bind "$IFACE" --numa-local --sticky
says 1 "${PREFIX}$MODS/updates/dkms/nictl.ko is installed but nothing loaded it" \
	"; load it: modprobe nictl"
tap $? "installed, not loaded: nictlctl says modprobe nictl"

run modprobe -d "$ROOT" nictl && run "$NICTL_CTL" bind "$IFACE" --numa-local --dry-run && run rmmod nictl
tap $? "modprobe nictl loads it as advised, and nictlctl show works"

# A bind without the module, then the module loaded and its own bind on top:
# restore gives back the affinities from before the first.
before=$(queue_affinities)
run "$NICTL_CTL" bind "$IFACE" --cpus 0-3 && run modprobe -d "$ROOT" nictl &&
	run "$NICTL_CTL" bind "$IFACE" --numa-local && check_binding &&
	err=$("$NICTL_CTL" restore "$IFACE" 2>&1 >/dev/null)
rc=$?
after=$(queue_affinities)
echo "# IRQ:CPUS before: $before; after the restore: $after"
says 0 "put back the affinities a bind without the module kept under /run/nictl" &&
	[ "$after" = "$before" ] && ! ls /run/nictl/irq-* 2>/dev/null && run rmmod nictl
tap $? "bound without the module, then with it: restore gives back what was there before both"

if [ -w "$SIG_ENFORCE" ]; then
	echo "# turning on module signature enforcement for the rest of this guest's life"
	echo 1 >"$SIG_ENFORCE"
	! run modprobe -d "$ROOT" nictl
	refused=$?
	ctl bind "$IFACE" --numa-local --sticky
	says 1 "${PREFIX}the kernel loads signed modules only (module.sig_enforce) and" \
		"$MODS/updates/dkms/nictl.ko is not signed; " "mokutil --import /var/lib/dkms/mok.pub" &&
		[ "$refused" -eq 0 ]
	tap $? "unsigned, enforced: modprobe refused, nictlctl says the module is not signed"

	doctor_says "is not signed" "mokutil --import /var/lib/dkms/mok.pub"
	tap $? "doctor's module-absent finding says the same"

	install "$DKMS_KO"
	! run modprobe -d "$ROOT" nictl
	refused=$?
	signer=$(modinfo -F signer "$DKMS_KO")
	echo "# $DKMS_KO: signer '$signer'"
	ctl bind "$IFACE" --numa-local --sticky
	if [ -n "$signer" ]; then
		says 1 "${PREFIX}the kernel loads signed modules only (module.sig_enforce) and" \
			"refused $MODS/updates/dkms/nictl.ko: \"Loading of module with unavailable key is rejected\"" \
			"enrol the key that signed it: mokutil --import" && [ "$refused" -eq 0 ]
	else
		# bullseye's dkms 2.8 cannot sign (scripts/build-dkms-modules.sh).
		says 1 "$MODS/updates/dkms/nictl.ko is not signed" && [ "$refused" -eq 0 ]
	fi
	tap $? "signed by DKMS's key, which the kernel lacks: refused, nictlctl quotes the kernel"
else
	# The debug kernel has no module signing: nothing may blame signatures.
	echo "# $NICTL_KREL has no module signing"
	install "$DKMS_KO"
	ctl bind "$IFACE" --numa-local --sticky
	says 1 "is installed but nothing loaded it; load it: modprobe nictl" &&
		case $err in *signed*) false ;; esac
	tap $? "no module signing: nothing blames signatures"
	doctor_says "is installed but nothing loaded it" "load it: modprobe nictl"
	tap $? "doctor's module-absent finding says the same"
	run modprobe -d "$ROOT" nictl && run rmmod nictl
	tap $? "the DKMS build loads where nothing checks signatures"
fi

rm -rf "$ROOT"
[ "$failed" -eq 0 ]
