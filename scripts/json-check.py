#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""json-check.py COMMAND [FILE] [COMMAND FILE]...: validate nictlctl's -j
output of COMMAND (FILE, default standard input) against
docs/json/nictlctl.schema.json, the schema's $defs/COMMAND; monitor's
output is one object per line, every other command's one document (stats
-i --count N: one per interval). Several pairs are checked in one run.
Prints each error with where it is; exit 0 when all is valid, 1 when not,
2 on a usage error."""
import json
import os
import sys

import jsonschema

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'docs', 'json',
                      'nictlctl.schema.json')


def documents(text):
    """Every JSON document in text, one after the other."""
    decoder = json.JSONDecoder()
    pos = 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos == len(text):
            return
        doc, pos = decoder.raw_decode(text, pos)
        yield doc


def check(schema, command, text, name):
    """The errors of text as command's output, each printed."""
    validator = jsonschema.Draft202012Validator(dict(schema, **{'$ref': f'#/$defs/{command}'}))
    bad = n = 0
    try:
        for n, doc in enumerate(documents(text), 1):
            for err in validator.iter_errors(doc):
                where = '/'.join(str(p) for p in err.absolute_path)
                print(f'json-check: {name}: {command} document {n}, at /{where}: '
                      f'{err.message}', file=sys.stderr)
                bad += 1
    except json.JSONDecodeError as err:
        print(f'json-check: {name}: {command}: not JSON: {err}', file=sys.stderr)
        return 1
    if not n:
        print(f'json-check: {name}: {command}: no document', file=sys.stderr)
        return 1
    return bad


def main():
    args = sys.argv[1:]
    if not args or (len(args) > 2 and len(args) % 2):
        print(__doc__, file=sys.stderr)
        return 2
    with open(SCHEMA, encoding='utf-8') as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    pairs = list(zip(args[0::2], args[1::2])) if len(args) > 1 else [(args[0], None)]
    for command, _ in pairs:
        if command not in schema['$defs']:
            print(f'json-check: no schema for {command}', file=sys.stderr)
            return 2
    bad = 0
    for command, path in pairs:
        if path is None:
            bad += check(schema, command, sys.stdin.read(), 'stdin')
        else:
            with open(path, encoding='utf-8') as f:
                bad += check(schema, command, f.read(), path)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
