#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""vcpu-stacks.py MONITOR KALLSYMS: where each vCPU of a running guest is.

Asks QEMU's human monitor on unix socket MONITOR for every vCPU's registers
and, for each vCPU, prints the kernel symbols of its PC and link register
and of the kernel text addresses found in the 96 words above its stack
pointer: a rough backtrace, for a guest whose kernel cannot print one (an
arm64 guest takes no NMI, so a hard lockup reports no backtrace). KALLSYMS
is the guest's /proc/kallsyms, saved by guest-init.sh when the guest
booted: Debian's kernels place themselves at random (KASLR), so only the
running guest's own table names its addresses. run-guest.sh runs this just
before a guest's time limit ends it.
"""
import bisect
import re
import socket
import sys
import time

WORDS = 96
FRAMES = 14


def load_text_symbols(path):
    """Sorted (address, name) of the text symbols of @path."""
    syms = []
    with open(path, encoding="ascii", errors="replace") as f:
        for line in f:
            fields = line.split()
            if len(fields) < 3 or fields[1] not in "tTwW":
                continue
            name = fields[2] + (" " + fields[3] if len(fields) > 3 else "")
            syms.append((int(fields[0], 16), name))
    syms.sort()
    return syms


class Monitor:
    """QEMU's human monitor: one command at a time, its whole answer."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(path)
        self.sock.settimeout(1)
        self.ask("")

    def ask(self, command):
        self.sock.sendall((command + "\n").encode())
        out = b""
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                if out.rstrip().endswith(b"(qemu)"):
                    break
                continue
            if not data:
                break
            out += data
        return out.decode(errors="replace")


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: vcpu-stacks.py MONITOR KALLSYMS")
    syms = load_text_symbols(sys.argv[2])
    if not syms:
        sys.exit("vcpu-stacks: no text symbol in " + sys.argv[2])
    addrs = [a for a, _ in syms]

    def name(addr):
        # arm64 signs return addresses (pointer authentication) in the
        # bits above the kernel's 48-bit address space.
        if addr >> 55 & 1:
            addr |= 0xFFFF000000000000
        if not addrs[0] <= addr < addrs[-1] + (1 << 20):
            return None
        i = bisect.bisect_right(addrs, addr) - 1
        return "%s+0x%x" % (syms[i][1], addr - syms[i][0])

    mon = Monitor(sys.argv[1])
    regs = {}
    cpu = None
    for line in mon.ask("info registers -a").splitlines():
        head = re.match(r"\s*CPU#(\d+)", line)
        if head:
            cpu = int(head.group(1))
            regs[cpu] = {}
        for reg, value in re.findall(r"\b(PC|X30|SP|RIP|RSP)=([0-9a-fA-F]{8,16})", line):
            if cpu is not None:
                regs[cpu][reg] = int(value, 16)
    if not regs:
        sys.exit("vcpu-stacks: the monitor showed no vCPU's registers")
    def named(addr):
        # An address outside the kernel's text (user space, firmware) as it is.
        return name(addr) or "0x%x" % addr

    for cpu, r in sorted(regs.items()):
        pc = r.get("PC", r.get("RIP", 0))
        line = "CPU %d: PC %s" % (cpu, named(pc))
        if "X30" in r:
            line += ", LR %s" % named(r["X30"])
        print(line)
        sp = r.get("SP", r.get("RSP"))
        if sp is None:
            continue
        mon.ask("cpu %d" % cpu)
        frames = []
        for word in re.findall(r"0x([0-9a-f]{16})", mon.ask("x /%dxg 0x%x" % (WORDS, sp))):
            frame = name(int(word, 16))
            if frame and frame not in frames:
                frames.append(frame)
        print("  stack: " + " < ".join(frames[:FRAMES]))


if __name__ == "__main__":
    main()
