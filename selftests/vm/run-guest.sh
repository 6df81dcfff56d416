#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run-guest.sh KREL OUTDIR [COMMAND...]
#
# Boot Debian kernel KREL in a QEMU (TCG) guest and run COMMAND (default:
# selftests/guest-suite.sh) in it, with the host's root (read-only) as its
# root and cwd = this repository. OUTDIR is the guest's one writable host folder;
# afterwards it holds console.log (serial console, also shown on stdout),
# dmesg.txt and rc (COMMAND's exit code; missing = the guest never finished),
# or timed-out (the limit in seconds) when NICTL_VM_TIMEOUT stopped the guest.
# Exit status: COMMAND's, or non-zero when the guest did not finish.
#
# Guest topology of the default "suite" profile (the tests rely on it):
# 2 sockets x 2 cores x 2 threads,
# NUMA node 0 = CPUs 0-3, node 1 = CPUs 4-7; NICs, renamed by MAC:
#   vnode1  virtio-net, 2 queue pairs, behind a PCIe expander on node 1
#   vnode0  virtio-net, 2 queue pairs, behind a PCIe expander on node 0
#   e1k     e1000e, behind the node-0 expander too
#   igb0    Intel 82576 (igb): one queue pair per vCPU (8) without VFs, two
#           with; SR-IOV, VFs made in the guest; behind the node-1 expander.
#           Debian 12's QEMU 7.2 does not emulate it, so this profile runs
#           sid's QEMU 11 from the cache (qemu-sid.sh)
#   usb0    usb-net on a qemu-xhci controller (cdc_ether): a NIC whose only
#           PCI function above it is its host controller's; its tap is not
#           on the bridge, so no traffic reaches it
# The taps sit on a bridge in a network namespace made for this run, so no
# guest traffic can leave it.
#
# NICTL_VM_PROFILE=big is a big server: 80 vCPUs, 4 sockets of 12 cores x 2
# threads, one NUMA node each (node 3 has CPUs 72-79: QEMU's 16 absent CPU
# slots, which Linux 6.9 and newer do not count as possible from QEMU's
# ACPI tables), and node 4 with memory and no CPU; NICs
#   bq64    virtio-net, 64 queue pairs (130 MSI-X vectors), on node 2
#   nl4     virtio-net, 2 queue pairs, on the CPU-less node 4
# for the tests that need such a machine (selftests/nictl_big.sh).
#
# NICTL_VM_PROFILE=bench boots 16 vCPUs with virtio-net NICs bq4, bq16 and
# bq32 (4, 16 and 32 queue pairs) for bench/retarget.sh instead.
#
# Environment: NICTL_BUILD (the build tree the job uses, default REPO/build),
# NICTL_VM_TIMEOUT (seconds, default 900), NICTL_VM_QUIET=1 (boot with
# `quiet`: the console shows the job, not the boot log), NICTL_VM_ICOUNT=1
# (the guest's clocks count executed instructions, 1 ns each, instead of
# following the host's: bench/softirq-cost.sh measures costs in them; the
# kernel keeps its speculation mitigations, which other guests boot without),
# NICTL_FUZZ_SECONDS and NICTL_STRESS_SECONDS (passed on to the job: the
# budgets of nictl_fuzz and nictl_stress), NICTL_TIMEOUT_SCALE (passed on:
# what the tests multiply their timeouts by, selftests/lib/main.h),
# NICTL_VM_MONITOR=PATH (QEMU's monitor on a unix socket at PATH instead of
# one of its own under /run, to read a guest's registers by hand: `info
# registers -a`), NICTL_VM_ROOT (a flavour of another architecture's root:
# bench, guest-root.sh).
# A guest still running 30 s before its time limit is hung or far too slow:
# OUTDIR/vcpus.txt then says where each vCPU is (vcpu-stacks.py, with the
# guest's /proc/kallsyms that guest-init.sh saved in OUTDIR).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd -P)
REPO=$(cd "$HERE/../.." && pwd -P)
BUILD=${NICTL_BUILD:-$REPO/build}
TIMEOUT=${NICTL_VM_TIMEOUT:-900}
MONITOR=${NICTL_VM_MONITOR:-/run/nictl-vm-$$.monitor}
QEMU=qemu-system-x86_64
HOST_ARCH=$(dpkg --print-architecture)
# The kernel's architecture (scripts/kernels.list), set by main().
ARCH=$HOST_ARCH
# An arm64 guest's CPU: a Neoverse N1, the core of Graviton2 and Ampere
# Altra. TCG's "max" took twice as long over the suite's arm64 core: it
# emulates more, pointer authentication (even QEMU's cheaper algorithm) at
# every function's entry and exit among it.
ARM64_CPU=neoverse-n1

PROFILE=${NICTL_VM_PROFILE:-suite}
# Debian 12's QEMU 7.2 does not emulate the suite's igb0: sid's QEMU 11 does.
if [ "$PROFILE" = suite ]; then
	QEMU=$HERE/qemu-sid.sh
fi

# The NICs of each profile, one per line: name MAC queue-pairs bus device
# (queue pairs of a virtio-net NIC and its tap; 1 for other NICs).
# The guest renames its NICs by MAC.
nics() {
	case $PROFILE in
	suite)
		echo "vnode1 52:54:00:4e:01:01 2 rp1 virtio-net-pci"
		echo "vnode0 52:54:00:4e:00:01 2 rp0a virtio-net-pci"
		echo "e1k 52:54:00:4e:00:02 1 rp0b e1000e"
		echo "igb0 52:54:00:4e:01:02 1 rp1b igb"
		echo "usb0 52:54:00:4e:00:03 1 xhci.0 usb-net"
		;;
	big)
		echo "bq64 52:54:00:4e:03:40 64 rp2 virtio-net-pci"
		echo "nl4 52:54:00:4e:04:02 2 rp4 virtio-net-pci"
		;;
	bench)
		echo "bq4 52:54:00:4e:02:04 4 pcie.0 virtio-net-pci"
		echo "bq16 52:54:00:4e:02:10 16 pcie.0 virtio-net-pci"
		echo "bq32 52:54:00:4e:02:20 32 pcie.0 virtio-net-pci"
		;;
	*)
		die "unknown NICTL_VM_PROFILE $PROFILE (suite, big or bench)"
		;;
	esac
}

# CPUs, memory and NUMA nodes of each profile, one QEMU argument per line.
# suite: 2 nodes x 2 cores x 2 threads, with a PCIe expander per node;
# big: see the head of this file; node 4 has memory and no CPU, and is
# nearest to node 2 by the distances given;
# bench: the 16 vCPUs the retarget benchmark spreads 32 queues over.
machine_args() {
	local a b
	case $PROFILE in
	suite)
		printf '%s\n' -m 2048 -smp 8,sockets=2,cores=2,threads=2 \
			-object memory-backend-ram,id=mem0,size=1G \
			-object memory-backend-ram,id=mem1,size=1G \
			-numa node,nodeid=0,cpus=0-3,memdev=mem0 \
			-numa node,nodeid=1,cpus=4-7,memdev=mem1 \
			-device pxb-pcie,id=pxb0,bus_nr=64,numa_node=0,bus=pcie.0 \
			-device pcie-root-port,id=rp0a,bus=pxb0,chassis=2 \
			-device pcie-root-port,id=rp0b,bus=pxb0,chassis=3 \
			-device pxb-pcie,id=pxb1,bus_nr=128,numa_node=1,bus=pcie.0 \
			-device pcie-root-port,id=rp1,bus=pxb1,chassis=1 \
			-device pcie-root-port,id=rp1b,bus=pxb1,chassis=4 \
			-device qemu-xhci,id=xhci,bus=pcie.0
		;;
	big)
		printf '%s\n' -m 3584 -smp 80,maxcpus=96,sockets=4,cores=12,threads=2 \
			-object memory-backend-ram,id=mem0,size=768M \
			-object memory-backend-ram,id=mem1,size=768M \
			-object memory-backend-ram,id=mem2,size=768M \
			-object memory-backend-ram,id=mem3,size=768M \
			-object memory-backend-ram,id=mem4,size=512M \
			-numa node,nodeid=0,cpus=0-23,memdev=mem0 \
			-numa node,nodeid=1,cpus=24-47,memdev=mem1 \
			-numa node,nodeid=2,cpus=48-71,memdev=mem2 \
			-numa node,nodeid=3,cpus=72-95,memdev=mem3 \
			-numa node,nodeid=4,memdev=mem4 \
			-device pxb-pcie,id=pxb2,bus_nr=64,numa_node=2,bus=pcie.0 \
			-device pcie-root-port,id=rp2,bus=pxb2,chassis=1 \
			-device pxb-pcie,id=pxb4,bus_nr=128,numa_node=4,bus=pcie.0 \
			-device pcie-root-port,id=rp4,bus=pxb4,chassis=2
		# Sockets 21 apart; node 4 at 14 from node 2, 17 from 3, 28 from 0 and 1.
		for a in 0 1 2 3; do
			for b in 0 1 2 3; do
				if [ "$a" -lt "$b" ]; then
					printf '%s\n' -numa "dist,src=$a,dst=$b,val=21"
				fi
			done
		done
		printf '%s\n' -numa dist,src=4,dst=0,val=28 -numa dist,src=4,dst=1,val=28 \
			-numa dist,src=4,dst=2,val=14 -numa dist,src=4,dst=3,val=17
		;;
	bench)
		printf '%s\n' -m 2048 -smp 16,sockets=2,cores=4,threads=2 \
			-object memory-backend-ram,id=mem0,size=1G \
			-object memory-backend-ram,id=mem1,size=1G \
			-numa node,nodeid=0,cpus=0-7,memdev=mem0 \
			-numa node,nodeid=1,cpus=8-15,memdev=mem1
		;;
	esac
}

# -netdev/-device pairs for the NICs. A multiqueue virtio-net needs a
# vector per queue and direction plus config and control.
nic_args() {
	local name mac queues bus device
	while read -r name mac queues bus device; do
		if [ "$queues" -gt 1 ]; then
			printf '%s\n' -netdev "tap,id=nd-$name,ifname=tap-$name,script=no,downscript=no,queues=$queues" \
				-device "$device,netdev=nd-$name,mq=on,vectors=$((2 * queues + 2)),mac=$mac,bus=$bus"
		else
			printf '%s\n' -netdev "tap,id=nd-$name,ifname=tap-$name,script=no,downscript=no" \
				-device "$device,netdev=nd-$name,mac=$mac,bus=$bus"
		fi
	done < <(nics)
}

NETNS=
QEMU_PID=
# The wait for the time limit's vCPU report (boot()).
NAP_PID=

die() {
	echo "run-guest: $*" >&2
	exit 1
}

# Print $1 as one single-quoted shell word.
quote() {
	printf "'%s'" "${1//\'/\'\\\'\'}"
}

# Kill QEMU and the wait for its limit if they still run (we were
# interrupted) and drop the namespace, which also destroys the taps and the
# bridge.
cleanup() {
	[ -z "$NAP_PID" ] || kill "$NAP_PID" 2>/dev/null || true
	if [ -n "$QEMU_PID" ]; then
		kill "$QEMU_PID" 2>/dev/null || true
		wait "$QEMU_PID" 2>/dev/null || true
	fi
	if [ -n "$NETNS" ]; then
		ip netns del "$NETNS" 2>/dev/null || true
	fi
	rm -f "$MONITOR"
}

in_netns() {
	ip netns exec "$NETNS" "$@"
}

# Create the namespace, a bridge and the taps QEMU attaches to by name.
# A multiqueue virtio-net needs a multi_queue tap; e1000e has one queue and
# QEMU refuses a multi_queue tap for it.
setup_netns() {
	local name mac queues rest
	NETNS=nictl-vm-$$-$(date +%s)
	ip netns add "$NETNS" || die "cannot create network namespace $NETNS"
	in_netns ip link set lo up
	in_netns ip link add br0 type bridge
	in_netns ip link set br0 up
	while read -r name mac queues rest; do
		if [ "$queues" -gt 1 ]; then
			in_netns ip tuntap add dev "tap-$name" mode tap multi_queue
		else
			in_netns ip tuntap add dev "tap-$name" mode tap
		fi
		# usb0 is there to be discovered: on the bridge it would take a
		# copy of every flood and add NET_RX work the tests do not expect.
		case $rest in
		*usb-net) in_netns ip link set "tap-$name" up ;;
		*) in_netns ip link set "tap-$name" master br0 up ;;
		esac
	done < <(nics)
}

# Write OUTDIR/guest.env, the job description guest-init.sh sources.
write_job() {
	local krel=$1 outdir=$2 kdir=$3 cmd='' var val envs=''
	shift 3
	# The tests' budgets and timeout scale, when set here, reach them
	# through env(1).
	for var in NICTL_FUZZ_SECONDS NICTL_STRESS_SECONDS NICTL_TIMEOUT_SCALE; do
		eval "val=\${$var:-}"
		[ -z "$val" ] || envs="$envs $var=$val"
	done
	# shellcheck disable=SC2086 # one VAR=VALUE per word
	[ -z "$envs" ] || set -- env $envs "$@"
	for word in "$@"; do
		cmd="$cmd $(quote "$word")"
	done
	# Another architecture's guest runs the programs built for it
	# (scripts/cross-userspace.sh) in its own root (guest-root.sh).
	local programs=$BUILD
	[ "$ARCH" = "$HOST_ARCH" ] || programs=$BUILD/$ARCH
	{
		echo "# Written by run-guest.sh for guest-init.sh; shell syntax."
		echo "NICTL_KREL=$(quote "$krel")"
		echo "NICTL_REPO=$(quote "$REPO")"
		echo "NICTL_BUILD=$(quote "$programs")"
		echo "NICTL_RESULTS=$(quote "$outdir")"
		echo "NICTL_KO=$(quote "$BUILD/kmod/$krel/nictl.ko")"
		echo "NICTL_CTL=$(quote "$programs/bin/nictlctl")"
		[ "$ARCH" = "$HOST_ARCH" ] || echo "NICTL_GUEST_ROOT=$(quote "$GUEST_ROOT")"
		echo "NICTL_MODULES=$(quote "$kdir/lib/modules/$krel")"
		echo "NICTL_NICS=$(quote "$(nics | while read -r name mac rest; do printf '%s=%s ' "$mac" "$name"; done)")"
		echo "NICTL_CMD=$(quote "${cmd# }")"
	} >"$outdir/guest.env"
}

# Print the QEMU command line, one argument per line.
qemu_args() {
	local kdir=$1 initrd=$2 outdir=$3
	# 8 vCPUs emulated on 2 busy host cores can stall for seconds: raise
	# the lockup and RCU stall thresholds so only a real hang (minutes)
	# reports one, instead of disabling the detectors. A big log buffer
	# keeps a chatty suite from pushing a splat out of dmesg.txt.
	local append="console=ttyS0 panic=-1 panic_on_warn=1"
	append="$append watchdog_thresh=60 rcupdate.rcu_cpu_stall_timeout=120"
	append="$append log_buf_len=8M"
	# A kernel the project built may need its own (build-debug-kernel.sh).
	if [ -f "$kdir/cmdline" ]; then
		append="$append $(cat "$kdir/cmdline")"
	fi
	# The guests test nictl, not the CPU's side channels. Without the
	# speculation mitigations (page table isolation's switch per syscall
	# costs most under TCG) a syscall takes a ninth of its time and a
	# core guest a quarter less. A guest that counts instructions keeps
	# them: the accounting's cost is the one a production kernel pays.
	if [ "${NICTL_VM_ICOUNT:-0}" != 1 ]; then
		append="$append mitigations=off"
	fi
	if [ "${NICTL_VM_QUIET:-0}" = 1 ]; then
		append="$append quiet"
	fi
	case $ARCH in
	amd64)
		# Single-threaded TCG: multi-threaded TCG races the x86 kernel's
		# live text patching (static calls and keys, as tracepoint probes
		# come and go; it patches through int3).
		printf '%s\n' -machine q35 -accel tcg,thread=single -cpu max,vendor=GenuineIntel
		;;
	arm64)
		# GICv3 with an ITS: MSIs as arm64 servers take them. UEFI
		# (AAVMF) gives the kernel ACPI: the SRAT's nodes, the PPTT's
		# threads and the expander buses, which a device tree lacks.
		# Multi-threaded TCG: in single-threaded TCG's round robin the
		# guest hung now and then, its CPUs queued for minutes on an RCU
		# lock that no CPU held (docs/kernels.md). arm64 patches its text
		# one instruction at a time, which is safe with other CPUs running.
		# Counting instructions (the benchmarks) needs one thread.
		local tcg=multi
		[ "${NICTL_VM_ICOUNT:-0}" != 1 ] || tcg=single
		printf '%s\n' -machine virt,gic-version=3,its=on -accel "tcg,thread=$tcg" \
			-cpu "$ARM64_CPU" -bios "$ARM64_FIRMWARE"
		;;
	esac
	# sleep=off: when every vCPU idles, time jumps to the next timer
	# instead of waiting for the host, so idle time costs no host time.
	if [ "${NICTL_VM_ICOUNT:-0}" = 1 ]; then
		printf '%s\n' -icount shift=0,sleep=off
	fi
	printf '%s\n' -monitor "unix:$MONITOR,server=on,wait=off"
	machine_args
	nic_args
	if [ "$ARCH" != "$HOST_ARCH" ]; then
		printf '%s\n' \
			-fsdev "local,id=fs-guestroot,path=$GUEST_ROOT,security_model=none,readonly=on,multidevs=remap" \
			-device virtio-9p-pci,fsdev=fs-guestroot,mount_tag=guestroot,bus=pcie.0
	fi
	printf '%s\n' \
		-fsdev local,id=fs-hostroot,path=/,security_model=none,readonly=on,multidevs=remap \
		-device virtio-9p-pci,fsdev=fs-hostroot,mount_tag=hostroot,bus=pcie.0 \
		-fsdev "local,id=fs-results,path=$outdir,security_model=none" \
		-device virtio-9p-pci,fsdev=fs-results,mount_tag=results,bus=pcie.0 \
		-kernel "$kdir/vmlinuz" -initrd "$initrd" -append "$append" \
		-nodefaults -display none -no-reboot \
		-chardev "stdio,id=console,logfile=$outdir/console.log" \
		-serial chardev:console
}

# Boot the guest; return QEMU's (or timeout's) exit status.
boot() {
	local args outdir=$3 first='' status=0
	mapfile -t args < <(qemu_args "$@")
	timeout -k 10 "$TIMEOUT" ip netns exec "$NETNS" "$QEMU" "${args[@]}" </dev/null &
	QEMU_PID=$!
	# Near the limit, say where the vCPUs are before timeout ends QEMU.
	if [ "$TIMEOUT" -gt 60 ]; then
		# Its own output, not the caller's: a pipe it held open would
		# keep a reader such as `tee` waiting for the whole nap.
		sleep $((TIMEOUT - 30)) >/dev/null 2>&1 &
		NAP_PID=$!
		wait -n -p first "$QEMU_PID" "$NAP_PID" || status=$?
		if [ "$first" = "$NAP_PID" ]; then
			"$HERE/vcpu-stacks.py" "$MONITOR" "$outdir/kallsyms" >"$outdir/vcpus.txt" 2>&1 ||
				true
			status=0
			wait "$QEMU_PID" || status=$?
		else
			kill "$NAP_PID" 2>/dev/null || true
		fi
		NAP_PID=
	else
		wait "$QEMU_PID" || status=$?
	fi
	QEMU_PID=
	return "$status"
}

# Boot, and boot once more if the guest died before its init started the
# job: nothing under test ran yet. Multi-threaded TCG crashed Debian's 6.12
# while it patched kernel text during CPU bring-up (Oops: int3, about one
# boot in 30), which is why the guests now run single-threaded TCG; the
# retry stays for emulator faults of that kind. The first console is kept.
boot_twice_if_early_crash() {
	local krel=$1 outdir=$4 status=0
	shift
	boot "$@" || status=$?
	if [ "$status" -eq 0 ] && [ ! -f "$outdir/rc" ] &&
		! grep -q '^guest-init: running' "$outdir/console.log"; then
		mv "$outdir/console.log" "$outdir/console-early-crash.log"
		echo "run-guest: $krel: guest died before the job started;" \
			"booting again (first console: $outdir/console-early-crash.log)" >&2
		status=0
		boot "$@" || status=$?
	fi
	return "$status"
}

main() {
	[ $# -ge 2 ] || die "usage: run-guest.sh KREL OUTDIR [COMMAND...]"
	local krel=$1 outdir=$2
	shift 2
	[ $# -gt 0 ] || set -- selftests/guest-suite.sh
	[ "$(id -u)" -eq 0 ] || die "must run as root (network namespace, taps)"
	command -v "$QEMU" >/dev/null || die "$QEMU not found (scripts/install-deps.sh)"
	case $outdir in *[[:space:],]*) die "OUTDIR must not contain spaces or commas" ;; esac
	mkdir -p "$outdir"
	outdir=$(cd "$outdir" && pwd -P)
	# A stale rc from an earlier run must not pass for this run's result.
	rm -f "$outdir/rc" "$outdir/dmesg.txt" "$outdir/console.log" \
		"$outdir/console-early-crash.log" "$outdir/guest.env" "$outdir/timed-out"

	ARCH=$("$REPO/scripts/kernels.sh" "$krel" arch)
	case $ARCH in
	"$HOST_ARCH") ;;
	arm64)
		[ "$PROFILE" = suite ] || die "$krel: no $PROFILE profile for arm64"
		export NICTL_QEMU_ARCH=arm64
		GUEST_ROOT=$("$HERE/guest-root.sh" "$ARCH" ${NICTL_VM_ROOT:+"$NICTL_VM_ROOT"}) ||
			die "no arm64 root for the guest"
		ARM64_FIRMWARE=$("$QEMU" --root)/usr/share/qemu-efi-aarch64/QEMU_EFI.fd
		;;
	*) die "$krel: no guest for architecture $ARCH" ;;
	esac
	local kdir initrd
	kdir=$("$HERE/fetch-kernel.sh" "$krel") || die "no kernel $krel"
	[ -f "$kdir/vmlinuz" ] || die "$kdir/vmlinuz missing"
	initrd=$kdir/initramfs.cpio.gz
	"$HERE/mkinitramfs.sh" "$krel" "$initrd" || die "cannot build the initramfs"
	write_job "$krel" "$outdir" "$kdir" "$@"
	# Install sid's QEMU now: the test's network namespace has no network.
	if [ "$QEMU" = "$HERE/qemu-sid.sh" ]; then
		"$QEMU" --version >/dev/null || die "cannot run sid's QEMU (qemu-sid.sh)"
	fi

	trap cleanup EXIT
	trap 'exit 130' INT TERM
	setup_netns
	local start=$SECONDS status=0
	boot_twice_if_early_crash "$krel" "$kdir" "$initrd" "$outdir" || status=$?
	local took=$((SECONDS - start))

	if [ "$status" -eq 124 ]; then
		echo "$TIMEOUT" >"$outdir/timed-out"
		die "$krel: guest timed out after ${TIMEOUT}s (see $outdir/console.log)"
	fi
	[ "$status" -eq 0 ] || die "$krel: $QEMU failed with status $status (see $outdir/console.log)"
	[ -f "$outdir/rc" ] ||
		die "$krel: guest stopped without finishing the job after ${took}s (see $outdir/console.log)"
	local rc
	rc=$(cat "$outdir/rc")
	echo "run-guest: $krel: job exited with $rc after ${took}s (boot and run)" >&2
	return "$rc"
}

main "$@"
