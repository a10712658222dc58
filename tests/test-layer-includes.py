#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: layer-includes suite=style timeout=300 args={srcdir},{builddir}
"""The compiler keeps the layers (issue 25, docs/ARCHITECTURE.md "Layers").

For every folder of src/ this takes the compile command the build uses for
one of its files (compile_commands.json) and preprocesses, with exactly those
flags, a probe that includes one header of every other folder: a header of a
folder the layer may use (tests/layers.py) must be found, a header of any
other folder must fail with "No such file" — so a forbidden include does not
compile, and the meson dependencies are exactly the documented ones. The
issue's own case is named: the GUI cannot include the config writer's header.

    test-layer-includes.py SRCDIR BUILDDIR
"""
import json
import os
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from layers import LAYERS, layer_closure  # noqa: E402
from sdttap import finish, ok  # noqa: E402

SRC = os.path.abspath(sys.argv[1])
BUILD = os.path.abspath(sys.argv[2])


def public_header(folder):
    """one header of the folder that others may include (not a -private.h)"""
    names = sorted(f for f in os.listdir(os.path.join(SRC, 'src', folder))
                   if f.endswith('.h') and not f.endswith('-private.h'))
    return names[0] if names else None


def command_for(folder, entries):
    """(directory, argv without the source and the output) of a file of @folder (or of
    the code generated for it, src/dbus): the one with the most include folders, for
    the app its GTK executable's"""
    dirs = (os.path.join(SRC, 'src', folder), os.path.join(BUILD, 'src', folder))
    best = None
    for e in entries:
        path = os.path.normpath(os.path.join(e['directory'], e['file']))
        if os.path.dirname(path) in dirs:
            n = sum(1 for a in shlex.split(e['command']) if a.startswith('-I'))
            if best is None or n > best[0]:
                best = (n, e, path)
    if best is None:
        return None, None
    _, e, path = best
    argv = shlex.split(e['command'])
    out = []
    skip = False
    for a in argv:
        if skip:
            skip = False
            continue
        if a in ('-o', '-MF', '-MQ', '-c'):
            skip = a != '-c'
            continue
        if a in ('-MD',) or os.path.normpath(os.path.join(e['directory'], a)) == path:
            continue
        out.append(a)
    return e['directory'], out


def preprocess(directory, argv, header, probe_dir):
    probe = os.path.join(probe_dir, 'probe.c')
    with open(probe, 'w', encoding='utf-8') as f:
        f.write(f'#include "config.h"\n#include "{header}"\n')
    r = subprocess.run(argv + ['-fdiagnostics-color=never', '-E', '-o', os.devnull, probe], cwd=directory,
                       capture_output=True, text=True)
    return r.returncode, r.stderr


with open(os.path.join(BUILD, 'compile_commands.json'), encoding='utf-8') as f:
    entries = json.load(f)

folders = sorted(LAYERS)
# every folder of src/ that holds C sources is a layer of the table, and no layer is missing
with_sources = sorted({os.path.relpath(d, os.path.join(SRC, 'src'))
                       for d, _, fs in os.walk(os.path.join(SRC, 'src'))
                       if any(f.endswith(('.c', '.h')) for f in fs)})
ok(with_sources == folders, 'tests/layers.py names every folder of src/ and no other',
   f'folders of src/: {with_sources}; LAYERS: {folders}')
with tempfile.TemporaryDirectory() as probe_dir:
    for folder in folders:
        directory, argv = command_for(folder, entries)
        if argv is None:
            ok(folder in ('app', 'helper') and os.environ.get('CI') != 'true',
               f'src/{folder}: a compile command in the build',
               'no file of this folder is compiled in this build')
            continue
        allowed = layer_closure(folder) | {folder}
        for other in folders:
            header = public_header(other)
            if header is None:
                continue
            rc, err = preprocess(directory, argv, header, probe_dir)
            if other in allowed:
                ok(rc == 0, f'src/{folder} may include {header} (src/{other})', err[-400:])
            else:
                name = (' (the GUI cannot include the config writer)'
                        if (folder, other) == ('app', 'config/writer') else '')
                ok(rc != 0 and f'{header}: No such file' in err,
                   f'src/{folder} cannot include {header} (src/{other}){name}',
                   f'the compiler found it: src/{folder} sees src/{other} (exit {rc})')
    # the case, with the writer's own header by name
    directory, argv = command_for('app', entries)
    if argv is not None:
        rc, err = preprocess(directory, argv, 'sdt-config-writer.h', probe_dir)
        ok(rc != 0 and 'sdt-config-writer.h: No such file' in err,
           'the GUI cannot include sdt-config-writer.h', err[-400:])
sys.exit(finish())
