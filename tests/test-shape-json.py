#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: shape-json suite=style timeout=120 args={srcdir} protocol=tap
"""The wire rule of tests/check-shape.py (issue 36: JSON is built and read only in
src/wire/) can fail: run on a copy of the source tree, the copy as it is passes; a
json-glib call, an sdt_json_* call or a node-type macro in a .c file outside src/wire/
fails the check naming the file and line; the same call inside src/wire/, or in a
comment or a string, does not.

usage: test-shape-json.py SRCDIR"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sdttap import finish, ok  # noqa: E402

src = os.path.abspath(sys.argv[1])
CHECK = os.path.join(src, 'tests', 'check-shape.py')


def shape(tree):
    return subprocess.run([sys.executable, CHECK, tree], capture_output=True, text=True,
                          timeout=100)


def with_probe(tmp, rel, body):
    """a copy of src/ with a static function of @body appended to @rel"""
    tree = os.path.join(tmp, os.path.basename(rel).replace('.', '-'))
    shutil.copytree(os.path.join(src, 'src'), os.path.join(tree, 'src'))
    with open(os.path.join(tree, rel), 'a', encoding='utf-8') as f:
        f.write('\nstatic void\nsdt_shape_probe(void)\n{\n' + body + '}\n')
    with open(os.path.join(tree, rel), encoding='utf-8') as f:
        line = f.read().count('\n') - 1
    return tree, line


with tempfile.TemporaryDirectory(prefix='sdt-shape-json-') as tmp:
    clean = os.path.join(tmp, 'clean')
    shutil.copytree(os.path.join(src, 'src'), os.path.join(clean, 'src'))
    r = shape(clean)
    ok(r.returncode == 0, 'the source tree as it is: no .c outside src/wire builds or reads JSON',
       r.stdout + r.stderr)

    for rel, body, what in (
            ('src/ops/sdt-ops-status.c', '\tjson_object_new();\n', 'a json-glib call'),
            ('src/cli/sdt-cli-ops.c', '\tsdt_json_parse_object("{}", 2, NULL);\n',
             'an sdt_json_* call'),
            ('src/app/sdt-session.c', '\t(void) JSON_NODE_HOLDS_OBJECT(NULL);\n',
             'a node-type macro')):
        tree, line = with_probe(tmp, rel, body)
        r = shape(tree)
        ok(r.returncode != 0 and f'{rel}:{line}: builds or reads JSON' in r.stdout + r.stderr,
           f'{what} in {rel}: the check fails naming the file and line {line}',
           r.stdout + r.stderr)

    tree, _ = with_probe(tmp, 'src/wire/sdt-soak-report.c', '\tjson_object_new();\n')
    r = shape(tree)
    ok(r.returncode == 0 and 'builds or reads JSON' not in r.stdout + r.stderr,
       'the same call in src/wire (a codec) is what the rule allows', r.stdout)
    tree, _ = with_probe(tmp, 'src/ops/sdt-ops-info.c',
                         '\t/* json_object_new() is the wire\'s */\n'
                         '\tg_message("json_object_new()");\n')
    r = shape(tree)
    ok(r.returncode == 0 and 'builds or reads JSON' not in r.stdout + r.stderr,
       'a call named in a comment or a string is not a use', r.stdout)

sys.exit(finish())
