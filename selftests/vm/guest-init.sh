#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# /init of the test guest's initramfs (busybox). It loads the drivers the
# initramfs carries, mounts the host's root read-only and the results folder
# writable over 9p, names the NICs by MAC, and switches the root to the
# host's; there guest-job.sh runs the job that run-guest.sh wrote into the
# results folder, stores its exit code and the kernel log and powers off.
#
# The job description, results/guest.env, sets (all host paths, which are
# also the guest paths once the root is the host's):
#   NICTL_KREL NICTL_REPO NICTL_BUILD NICTL_RESULTS NICTL_KO NICTL_CTL
#                  exported to the job
#   NICTL_MODULES  this kernel's module tree in the host's cache, exported
#                  too: a host without /lib/modules has no other path to it
#   NICTL_NICS     "MAC=name ..." the interfaces to rename and bring up
#   NICTL_CMD      the job's command line, already shell-quoted
#   NICTL_GUEST_ROOT  set for a kernel of another architecture than the
#                  host's, whose binaries it cannot run: the host path of
#                  that architecture's root (guest-root.sh), shared as
#                  "guestroot"; it becomes the guest's root, writable through
#                  an overlay, with the host's folders the job needs bound
#                  at their own paths

ROOT=/root

# PID 1 must never exit (the kernel would panic), so every fatal error ends
# in a logged power-off; the host then finds no rc file.
die() {
	echo "guest-init: FATAL: $*"
	poweroff -f
	sleep 60
}

mount_pseudo_filesystems() {
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t devtmpfs devtmpfs /dev
}

load_drivers() {
	while read -r ko; do
		insmod "/modules/$ko" || die "insmod $ko failed"
	done </modules/order
}

# Mount 9p share $1 read-only at $2, cached: it is not rebuilt while a
# guest runs, and every exec of a binary reads many files.
mount_ro_share() {
	mkdir -p "$2"
	mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000,cache=loose "$1" "$2"
}

# The root of another architecture: its files under a tmpfs overlay, so
# that the folders the host shares can be bound where the job looks for
# them (the repository, the build tree, the module, the results and this
# kernel's modules), after the tmpfs mounts of /tmp and /run, which may
# hold some of them.
mount_guest_root() {
	mount_ro_share guestroot /lower || die "cannot mount the guest root"
	mount_ro_share hostroot /host || die "cannot mount the host's root"
	mkdir -p /upper
	mount -t tmpfs -o mode=755 tmpfs /upper
	mkdir -p /upper/data /upper/work
	mount -t overlay -o lowerdir=/lower,upperdir=/upper/data,workdir=/upper/work overlay $ROOT ||
		die "cannot put an overlay on the guest root"
	mount -t tmpfs -o mode=1777 tmpfs $ROOT/tmp
	mount -t tmpfs -o mode=755 tmpfs $ROOT/run
	for dir in "$NICTL_REPO" "$NICTL_BUILD" "${NICTL_KO%/*}" \
		"$NICTL_MODULES:/lib/modules/$NICTL_KREL"; do
		from=${dir%%:*} to=${dir#*:}
		mkdir -p "$ROOT$to" || die "cannot make $to in the guest root"
		mount --bind "/host$from" "$ROOT$to" || die "cannot bind $from at $to"
	done
	mkdir -p "$ROOT$NICTL_RESULTS"
	mount --move /results "$ROOT$NICTL_RESULTS" || die "cannot put $NICTL_RESULTS in view"
	install_modprobe /
}

mount_host() {
	mkdir -p /results
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 results /results ||
		die "cannot mount the results folder"
	[ -r /results/guest.env ] || die "results/guest.env is missing"
	# shellcheck source=/dev/null # written by run-guest.sh
	. /results/guest.env
	if [ -n "${NICTL_GUEST_ROOT:-}" ]; then
		mount_guest_root
		return
	fi
	mount_ro_share hostroot $ROOT || die "cannot mount the host's root"
	# A clone below /tmp or /run (where CI may put one) would vanish under
	# the tmpfs mounts: hold the repository and the build tree aside and put
	# them back on top, like the results folder.
	mkdir -p /keep/repo /keep/build
	mount --bind "$ROOT$NICTL_REPO" /keep/repo || die "cannot see $NICTL_REPO"
	mount --bind "$ROOT$NICTL_BUILD" /keep/build || die "cannot see $NICTL_BUILD"
	mount -t tmpfs -o mode=1777 tmpfs $ROOT/tmp
	mount -t tmpfs -o mode=755 tmpfs $ROOT/run
	# Outermost first: the results folder usually lies in the build tree.
	mkdir -p "$ROOT$NICTL_REPO" "$ROOT$NICTL_BUILD" "$ROOT$NICTL_RESULTS" 2>/dev/null
	mount --move /keep/repo "$ROOT$NICTL_REPO" || die "cannot put $NICTL_REPO back in view"
	mount --move /keep/build "$ROOT$NICTL_BUILD" || die "cannot put $NICTL_BUILD back in view"
	mount --move /results "$ROOT$NICTL_RESULTS" || die "cannot put $NICTL_RESULTS back in view"
	# modprobe in the host's root must find this kernel's modules, which the
	# host only has in the cache (6.1: no /lib/modules tree at all). A
	# kernel the host has no folder for at all (the debug kernel) gets a
	# tmpfs /lib/modules to hold the mount point.
	if [ ! -d "$ROOT/lib/modules/$NICTL_KREL" ]; then
		mount -t tmpfs -o mode=755 tmpfs $ROOT/lib/modules &&
			mkdir "$ROOT/lib/modules/$NICTL_KREL"
	fi
	mount --bind "$ROOT$NICTL_MODULES" "$ROOT/lib/modules/$NICTL_KREL" ||
		echo "guest-init: no /lib/modules/$NICTL_KREL on the host; the kernel's own modprobe reads the cache"
	install_modprobe "${NICTL_MODULES%/lib/modules/*}"
}

# What the kernel loads on demand (bonding for `ip link add type bond`,
# 8021q, macvlan) it loads with this modprobe, /run/nictl-modprobe, which
# jobs call too: the root's, reading this kernel's modules under $1 (the
# cache, even where the host has no /lib/modules to mount them on; / in
# another architecture's root, where they are bound at /lib/modules).
install_modprobe() {
	printf '#!/bin/sh\nexec /sbin/modprobe -d %s "$@"\n' "$1" \
		>"$ROOT/run/nictl-modprobe" &&
		chmod 755 "$ROOT/run/nictl-modprobe" &&
		echo /run/nictl-modprobe >/proc/sys/kernel/modprobe ||
		echo "guest-init: the kernel cannot load modules on demand"
}

# Print the name of the interface whose MAC is $1, if there is one yet.
iface_with_mac() {
	for addr in /sys/class/net/*/address; do
		if [ "$(cat "$addr")" = "$1" ]; then
			basename "${addr%/address}"
			return
		fi
	done
}

# Name each NIC by its MAC and bring it up: e1000e requests its IRQs only in
# ndo_open, and the IRQ names are taken from the interface name at that time.
setup_nics() {
	ip link set lo up
	for pair in $NICTL_NICS; do
		mac=${pair%=*} name=${pair#*=}
		tries=0
		while iface=$(iface_with_mac "$mac") && [ -z "$iface" ]; do
			tries=$((tries + 1))
			[ $tries -le 100 ] || die "no interface with MAC $mac for $name"
			sleep 0.1
		done
		[ "$iface" = "$name" ] || ip link set dev "$iface" name "$name" ||
			die "cannot rename $iface to $name"
		ip link set dev "$name" up || die "cannot bring $name up"
	done
}

# The pseudo file systems go along with the host's root when it becomes /.
move_pseudo_filesystems() {
	mount --move /proc $ROOT/proc
	mount --move /sys $ROOT/sys
	mount --move /dev $ROOT/dev
	mkdir -p $ROOT/dev/pts $ROOT/dev/shm
	mount -t devpts devpts $ROOT/dev/pts
	mount -t tmpfs -o mode=1777 tmpfs $ROOT/dev/shm
	# For tracing tools (bpftrace, perf) the tests may use.
	mount -t debugfs debugfs $ROOT/sys/kernel/debug
	mount -t tracefs tracefs $ROOT/sys/kernel/tracing
}

# The job runs with the host's root as the root of the mount namespace
# (switch_root moves it onto /), not in a chroot: the kernel refuses a user
# namespace to a chrooted process, and the tests need one. guest-job.sh
# (from the repository, run by the host's sh) is PID 1 from here on.
switch_to_host() {
	job=$NICTL_REPO/selftests/vm/guest-job.sh
	[ -r "$ROOT$job" ] || die "no $job on the host"
	export NICTL_KREL NICTL_REPO NICTL_BUILD NICTL_RESULTS NICTL_KO NICTL_CTL NICTL_MODULES \
		NICTL_CMD
	exec switch_root $ROOT /bin/sh "$job"
}

# The kernel's symbols where this boot placed them (KASLR), for
# vcpu-stacks.py when run-guest.sh finds the guest hung.
save_kallsyms() {
	cat /proc/kallsyms >"$ROOT$NICTL_RESULTS/kallsyms" ||
		echo "guest-init: cannot save /proc/kallsyms"
}

main() {
	mount_pseudo_filesystems
	load_drivers
	mount_host
	save_kallsyms
	setup_nics
	move_pseudo_filesystems
	switch_to_host
}

main
