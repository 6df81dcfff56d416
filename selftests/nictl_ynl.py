#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""nictl_ynl: the kernel's own YNL CLI (tools/net/ynl/cli.py of
linux-source-6.12, extracted into $NICTL_BUILD/ynl by scripts/ynl-tree.sh)
as a second, independent client of the protocol. It knows the family only
from spec/nictl.yaml: it dumps the devices, binds and restores vnode1 and
hears vnode0 go down and up. Every claim is checked against /sys or
/proc/irq. Run in a guest by guest-suite.sh with the module loaded; TAP on
stdout, the CLI's stderr on stderr.
"""

import json
import os
import subprocess
import sys
import time
import traceback

REPO = os.environ['NICTL_REPO']
YNL = os.path.join(os.environ.get('NICTL_BUILD', os.path.join(REPO, 'build')), 'ynl')
CLI = [sys.executable, os.path.join(YNL, 'tools/net/ynl/cli.py'),
       '--spec', os.path.join(REPO, 'spec/nictl.yaml'),
       '--schema', os.path.join(YNL, 'Documentation/netlink/genetlink-c.yaml'),
       '--output-json']
# The suite guest's NICs (selftests/vm/run-guest.sh): vnode1 sits on node 1,
# CPUs 4-7.
NICS = ('vnode0', 'vnode1', 'e1k')
# How long the listener stays subscribed; vnode0 goes down and up
# every second or two meanwhile.
LISTEN_S = 10


def ynl(*args):
    """Run cli.py with ARGS and return its JSON output."""
    out = subprocess.run(CLI + list(args), check=True, stdout=subprocess.PIPE, text=True)
    return json.loads(out.stdout)


def ynl_do(op, request):
    return ynl('--do', op, '--json', json.dumps(request))


def bitmap_cpus(hexbytes):
    """The CPUs of a bitmap as the spec's hex display hint prints it."""
    raw = bytes.fromhex(hexbytes.replace(' ', ''))
    return {8 * i + bit for i, byte in enumerate(raw) for bit in range(8) if byte >> bit & 1}


def proc_affinity(irq):
    """/proc/irq/IRQ/smp_affinity_list as a set of CPUs.

    An empty read is the kernel's for a moment while an affinity move is
    pending (selftests/lib/irqs.c): it is read again, a little later, up to
    5 times.
    """
    for tries in range(5):
        with open(f'/proc/irq/{irq}/smp_affinity_list') as f:
            text = f.read().strip()
        if text:
            break
        time.sleep(0.001 * 2 ** tries)
    cpus = set()
    for part in filter(None, text.split(',')):
        first, _, last = part.partition('-')
        cpus.update(range(int(first), int(last or first) + 1))
    return cpus


def sys_ifindex(ifname):
    with open(f'/sys/class/net/{ifname}/ifindex') as f:
        return int(f.read())


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def note(what):
    """A TAP diagnostic: what a passing test saw."""
    print(f"# {what}", flush=True)


def check_proc(dev, expect):
    """Every IRQ of reply DEV has in /proc/irq the CPUs expect(irq) says."""
    check(dev.get('irq'), f"{dev['ifname']}: the reply has no IRQ")
    for irq in dev['irq']:
        want = expect(irq)
        got = proc_affinity(irq['num'])
        check(got == want, f"IRQ {irq['num']} (queue {irq['queue']}): /proc/irq has "
              f"{sorted(got)}, expected {sorted(want)}")
    note(f"{dev['ifname']}: " + ", ".join(
        f"IRQ {irq['num']} on {sorted(expect(irq))}" for irq in dev['irq']))


class Test:
    """Shared state: vnode1's affinities before the first bind."""
    original = {}

    @staticmethod
    def dump_lists_devices():
        """dev-get dump lists vnode0, vnode1 and e1k with their ifindex"""
        devs = {dev['ifname']: dev for dev in ynl('--dump', 'dev-get')}
        for name in NICS:
            check(name in devs, f"{name} is missing from {sorted(devs)}")
            check(devs[name]['ifindex'] == sys_ifindex(name),
                  f"{name}: ifindex {devs[name]['ifindex']}, /sys says {sys_ifindex(name)}")

    @staticmethod
    def do_matches_proc():
        """dev-get of vnode1 shows node 1 and the affinities of /proc/irq"""
        dev = ynl_do('dev-get', {'ifname': 'vnode1'})
        check(dev['numa-node'] == 1, f"numa-node {dev['numa-node']}")
        check('bound' not in dev['dev-flags'], "vnode1 is bound before the test")
        check_proc(dev, lambda irq: bitmap_cpus(irq['affinity']))
        Test.original = {irq['num']: proc_affinity(irq['num']) for irq in dev['irq']}

    @staticmethod
    def bind_cpus():
        """bind vnode1 to CPUs 6-7, numa-strict: /proc/irq shows each target CPU"""
        dev = ynl_do('bind', {'ifname': 'vnode1', 'cpus': 'c0', 'flags': ['numa-strict']})
        check('bound' in dev['dev-flags'], f"dev-flags {dev['dev-flags']}")
        for irq in dev['irq']:
            check(irq['target-cpu'] in (6, 7), f"IRQ {irq['num']}: target {irq['target-cpu']}")
            check('bound' in irq['flags'], f"IRQ {irq['num']}: flags {irq['flags']}")
        check_proc(dev, lambda irq: {irq['target-cpu']})

    @staticmethod
    def bind_placement():
        """bind vnode1 queue 0 to CPU 5, queue 1 to CPU 4: /proc/irq shows it"""
        placement = {0: 5, 1: 4}
        dev = ynl_do('bind', {'ifname': 'vnode1', 'queue-cpu': [
            {'queue': queue, 'cpu': cpu} for queue, cpu in placement.items()]})
        check({irq['queue'] for irq in dev['irq']} == set(placement),
              f"queues {sorted({irq['queue'] for irq in dev['irq']})}")
        check_proc(dev, lambda irq: {placement[irq['queue']]})

    @staticmethod
    def restore():
        """restore vnode1: /proc/irq has the affinities from before the binds"""
        dev = ynl_do('restore', {'ifname': 'vnode1'})
        check('bound' not in dev['dev-flags'], f"dev-flags {dev['dev-flags']}")
        check({irq['num'] for irq in dev['irq']} == set(Test.original),
              "vnode1's IRQs changed during the test")
        check_proc(dev, lambda irq: Test.original[irq['num']])

    @staticmethod
    def events():
        """subscribe to events: vnode0 down and up arrive, in sequence order"""
        listener = subprocess.Popen(CLI + ['--subscribe', 'events', '--sleep', str(LISTEN_S)],
                                    stdout=subprocess.PIPE, text=True)
        # The CLI subscribes after loading the spec, then sleeps: toggle
        # until it has stopped listening, so some toggles fall in between.
        while listener.poll() is None:
            for state in ('down', 'up'):
                subprocess.run(['ip', 'link', 'set', 'vnode0', state], check=True)
            subprocess.run(['sleep', '1'], check=True)
        out, _ = listener.communicate()
        check(listener.returncode == 0, f"cli.py exited with {listener.returncode}")
        msgs = [ntf['msg'] for ntf in json.loads(out) if ntf['name'] == 'event']
        seqs = [msg['event-seq'] for msg in msgs]
        check(seqs == sorted(seqs), f"event-seq out of order: {seqs}")
        seen = {msg['event'] for msg in msgs if msg['ifname'] == 'vnode0'}
        check({'down', 'up'} <= seen, f"vnode0 events: {sorted(seen)} of {len(msgs)}")
        for msg in msgs:
            check(msg['ifindex'] == sys_ifindex(msg['ifname']), f"event {msg}")
        note(f"{len(msgs)} events, seq {seqs[0]}..{seqs[-1]}")


    @staticmethod
    def stats_dump_decodes():
        """stats-get dump: per CPU both poll kinds, within NET_RX's time, and NAPI times"""
        # Busy polling's time is apart from NET_RX's: a kind's busy-ns is not
        # within it, and its busy polls are among its polls.
        cpus = ynl('--dump', 'stats-get')
        check(cpus, "stats-get dumped no CPU")
        for cpu in cpus:
            polls = {p['kind']: p for p in cpu.get('poll', [])}
            check(sorted(polls) == ['backlog', 'device'], f"CPU {cpu['cpu']}: polls {polls}")
            rx = [v for v in cpu['softirq'] if v['vec'] == 'net-rx'][0]
            polled = sum(p['time-ns'] for p in polls.values())
            check(polled <= rx['time-ns'],
                  f"CPU {cpu['cpu']}: polls took {polled} ns of NET_RX's {rx['time-ns']}")
            for poll in polls.values():
                check(poll['busy-polls'] <= poll['polls'] and 'busy-ns' in poll,
                      f"CPU {cpu['cpu']}: {poll}")
            for napi in cpu.get('napi', []):
                check(napi['id'] and set(napi) == {'id', 'time-ns', 'busy-ns'},
                      f"CPU {cpu['cpu']}: {napi}")
        napis = sum(len(cpu.get('napi', [])) for cpu in cpus)
        note(f"{len(cpus)} CPUs, {napis} NAPI times")


TESTS = [Test.dump_lists_devices, Test.do_matches_proc, Test.bind_cpus, Test.bind_placement,
         Test.restore, Test.events, Test.stats_dump_decodes]


def main():
    print(f"1..{len(TESTS)}", flush=True)
    failed = 0
    for n, test in enumerate(TESTS, 1):
        try:
            test()
            print(f"ok {n} - {test.__doc__}", flush=True)
        except Exception:  # pylint: disable=broad-except
            failed += 1
            print(f"not ok {n} - {test.__doc__}")
            for line in traceback.format_exc().splitlines()[-3:]:
                print(f"# {line}", flush=True)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
