#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""nictl_spec_test.py --ynl DIR: spec/nictl.yaml and include/uapi/linux/nictl.h
must agree, name for name and value for value (TAP on stdout).

DIR is the kernel's YNL tree from linux-source-6.12 (scripts/ynl-tree.sh).
The spec is loaded with the kernel's own YNL library, which validates it
against the schema of its protocol (Documentation/netlink/genetlink-c.yaml)
and assigns the values cli.py puts on the wire. The header's names are read
from its source and its values come from the C compiler, so a macro or an
implied enum value counts as the compiler sees it. Every reply must carry
its request's command (the "unified" model), and ynl-gen-c must accept the
spec: it renders the uapi header, the user library and the kernel header.

Why compare instead of generating the header with ynl-gen-c: the header is
the reviewed definition, with kernel-doc on every item that the spec's
short docs do not replace. (ynl-gen-c of 6.12 cannot render the kernel
policies yet: it has no NLA_BINARY with a maximum length, which cpus needs.)

The C names of spec items follow ynl-gen-c's rules and defaults (prefix +
name, upper case, "-" -> "_"). Three conventions of the header, older than
the spec, differ from what ynl-gen-c would render:
  - the command enum starts with <PREFIX>UNSPEC = 0;
  - render-max on an enum adds only the count, __<PREFIX>MAX;
  - render-max on flags adds <PREFIX>ALL, every valid flag (not _MASK).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))


def c_upper(name):
    return name.upper().replace('-', '_')


def c_lower(name):
    return name.lower().replace('-', '_')


def enum_group(fam, enum):
    """The C enum of a definition of type enum or flags: (enum name, items)."""
    ident = fam.yaml['name']
    yaml = enum.yaml
    prefix = yaml.get('name-prefix', f"{ident}-{enum.name}-")
    items = [(c_upper(prefix + e.name), e.user_value()) for e in enum.entries.values()]
    if yaml.get('render-max', False):
        if enum.type == 'flags':
            items.append((c_upper(prefix + 'all'), enum.get_mask()))
        else:
            items.append(('__' + c_upper(prefix + 'max'), items[-1][1] + 1))
    return c_lower(yaml.get('enum-name', f"{ident}-{enum.name}")), items


def attr_set_group(fam, attr_set):
    """The C enum of an attribute set: (enum name, items)."""
    ident = fam.yaml['name']
    yaml = attr_set.yaml
    if 'name-prefix' in yaml:
        prefix = yaml['name-prefix']
    elif attr_set.name == ident:
        prefix = f"{ident}-a-"
    else:
        prefix = f"{ident}-a-{attr_set.name}-"
    items = [(c_upper(prefix + a.name), a.value) for a in attr_set.attrs.values()]
    last = items[-1][1]
    items.append((c_upper(yaml.get('attr-cnt-name', f"__{prefix}max")), last + 1))
    items.append((c_upper(yaml.get('attr-max-name', f"{prefix}max")), last))
    return c_lower(yaml['enum-name']), items


def cmd_group(fam):
    """The command enum: (enum name, items). A command's value is its
    request's; an event has none, so its notification's."""
    ops = fam.yaml['operations']
    prefix = ops.get('name-prefix', f"{fam.yaml['name']}-cmd-")
    items = [(c_upper(prefix + 'unspec'), 0)]
    for op in fam.msgs.values():
        value = op.rsp_value if op.req_value is None else op.req_value
        items.append((c_upper(prefix + op.name), value))
    last = max(value for _, value in items)
    items.append((c_upper(fam.yaml.get('cmd-cnt-name', f"__{prefix}max")), last + 1))
    items.append((c_upper(fam.yaml.get('cmd-max-name', f"{prefix}max")), last))
    return c_lower(ops['enum-name']), items


def define_group(fam):
    """The #defines: family name and version, constants, multicast groups."""
    ident = fam.yaml['name']
    items = [(c_upper(fam.yaml.get('c-family-name', f"{ident}-family-name")), ident),
             (c_upper(fam.yaml.get('c-version-name', f"{ident}-family-version")),
              fam.yaml.get('version', 1))]
    for const in fam.yaml.get('definitions', []):
        if const['type'] == 'const':
            items.append((c_upper(f"{ident}-{const['name']}"), const['value']))
    for grp in fam.mcast_groups.values():
        items.append((c_upper(grp.yaml.get('c-define-name', f"{ident}-mcgrp-{grp.name}")),
                      grp.name))
    return items


def spec_groups(fam):
    """{group title: [(C name, value)]}; enums are titled "enum NAME"."""
    groups = {'#defines': define_group(fam)}
    enums = [enum_group(fam, e) for e in fam.consts.values() if e['type'] in ('enum', 'flags')]
    enums += [attr_set_group(fam, s) for s in fam.attr_sets.values() if not s.subset_of]
    enums.append(cmd_group(fam))
    for name, items in enums:
        groups['enum ' + name] = items
    return groups


def header_groups(path):
    """{group title: [C name]} as written in the header, and which #defines
    hold strings."""
    with open(path) as f:
        text = re.sub(r'/\*.*?\*/|//[^\n]*', '', f.read(), flags=re.S)
    groups = {}
    for name, body in re.findall(r'\benum\s+(\w+)\s*\{(.*?)\}\s*;', text, flags=re.S):
        members = [m.split('=')[0].strip() for m in body.split(',')]
        groups['enum ' + name] = [m for m in members if m]
    defines = re.findall(r'^\s*#\s*define\s+(NICTL_\w+)\s+(\S.*)$', text, flags=re.M)
    groups['#defines'] = [name for name, _ in defines]
    strings = {name for name, body in defines if body.startswith('"')}
    return groups, strings


def header_values(path, names, strings):
    """Every name's value as the C compiler sees it through the header."""
    lines = ['#include <stdio.h>', f'#include "{path}"', 'int main(void)', '{']
    for name in names:
        if name in strings:
            lines.append(f'\tprintf("%s %s\\n", "{name}", {name});')
        else:
            lines.append(f'\tprintf("%s %lld\\n", "{name}", (long long)({name}));')
    lines += ['\treturn 0;', '}']
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, 'values.c'), os.path.join(tmp, 'values')
        with open(src, 'w') as f:
            f.write('\n'.join(lines) + '\n')
        subprocess.run([os.environ.get('CC', 'cc'), '-Wall', '-Werror', '-o', exe, src],
                       check=True)
        out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
    values = {}
    for line in out.splitlines():
        name, value = line.split(' ', 1)
        values[name] = value if name in strings else int(value)
    return values


def unified_problems(fam):
    """Diagnostics when a reply would carry another command than its request."""
    if fam.msg_id_model != 'unified':
        return [f"enum-model is {fam.msg_id_model}, not unified"]
    return [f"{op.name}: request {op.req_value}, reply {op.rsp_value}"
            for op in fam.msgs.values()
            if op.req_value is not None and op.rsp_value is not None
            and op.req_value != op.rsp_value]


# What ynl-gen-c must render from the spec: (mode, --header or --source).
GEN_OUTPUTS = (('uapi', '--header'), ('user', '--header'), ('user', '--source'),
               ('kernel', '--header'))


def gen_problems(ynl, spec):
    """Run ynl-gen-c on SPEC in a scratch kernel-like tree (it looks for
    MAINTAINERS above the spec and the schema next to specs/); diagnostics
    for each output it refused."""
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        netlink = os.path.join(tmp, 'Documentation/netlink')
        os.makedirs(os.path.join(netlink, 'specs'))
        open(os.path.join(tmp, 'MAINTAINERS'), 'w').close()
        for schema in os.listdir(os.path.join(ynl, 'Documentation/netlink')):
            if schema.endswith('.yaml'):
                shutil.copy(os.path.join(ynl, 'Documentation/netlink', schema), netlink)
        copy = os.path.join(netlink, 'specs/nictl.yaml')
        shutil.copy(spec, copy)
        for mode, what in GEN_OUTPUTS:
            out = subprocess.run([sys.executable, os.path.join(ynl, 'tools/net/ynl/ynl-gen-c.py'),
                                  '--mode', mode, what, '--spec', copy,
                                  '-o', os.path.join(tmp, 'out')],
                                 capture_output=True, text=True, timeout=120, check=False)
            if out.returncode:
                lines = (out.stdout + out.stderr).strip().splitlines()
                problems.append(f"--mode {mode} {what}: {lines[-1] if lines else 'failed'}")
    return problems


def compare(spec_items, header_names, values):
    """Diagnostics for one group; none when it agrees."""
    problems = []
    spec_names = [name for name, _ in spec_items]
    for name, value in spec_items:
        if name not in header_names:
            problems.append(f"{name} is in the spec, not in the header")
        elif values[name] != value:
            problems.append(f"{name}: header {values[name]!r}, spec {value!r}")
    for name in header_names:
        if name not in spec_names:
            problems.append(f"{name} is in the header, not in the spec")
    return problems


class Tap:
    def __init__(self, plan):
        self.n = 0
        self.failed = 0
        print(f"1..{plan}")

    def result(self, title, problems):
        self.n += 1
        self.failed += bool(problems)
        print(f"{'not ok' if problems else 'ok'} {self.n} - {title}")
        for problem in problems:
            print(f"# {problem}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--ynl', required=True, help="the kernel's YNL tree")
    parser.add_argument('--spec', default=os.path.join(TOP, 'spec/nictl.yaml'))
    parser.add_argument('--header', default=os.path.join(TOP, 'include/uapi/linux/nictl.h'))
    args = parser.parse_args()

    sys.path.insert(0, os.path.join(args.ynl, 'tools/net/ynl'))
    from lib import SpecFamily  # pylint: disable=import-outside-toplevel

    schema = os.path.join(args.ynl, 'Documentation/netlink/genetlink-c.yaml')
    loads = 'the spec is genetlink-c and validates against genetlink-c.yaml'
    try:
        fam = SpecFamily(args.spec, schema)
        if fam.proto != 'genetlink-c':
            raise ValueError(f"protocol {fam.proto}")
    except Exception as e:  # pylint: disable=broad-except
        tap = Tap(1)
        tap.result(loads, [line for line in str(e).splitlines()[:20]])
        return 1

    spec = spec_groups(fam)
    header, strings = header_groups(args.header)
    values = header_values(os.path.abspath(args.header),
                           [name for names in header.values() for name in names], strings)
    titles = list(spec) + [title for title in header if title not in spec]
    tap = Tap(3 + len(titles))
    tap.result(loads, [])
    tap.result('every reply carries the command of its request', unified_problems(fam))
    tap.result('ynl-gen-c renders the uapi header, the user library and the kernel header',
               gen_problems(args.ynl, args.spec))
    for title in titles:
        if title not in header:
            problems = [f"{title} is in the spec, not in the header"]
        elif title not in spec:
            problems = [f"{title} is in the header, not in the spec"]
        else:
            problems = compare(spec[title], header[title], values)
        tap.result(f"{title} agrees with the spec", problems)
    return 1 if tap.failed else 0


if __name__ == '__main__':
    sys.exit(main())
