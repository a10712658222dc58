#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: self-contained suite=style timeout=300 args={srcdir}
"""The repository stands on its own: every `PLATFORM.md §N` / `DESIGN.md`
citation in src/ and tests/ names a document in docs/ and, for PLATFORM.md, a
section that exists; no file names a path outside the repository (the build
machine's work tree, or the shared reference directory beside the checkout).

    tests/check-self-contained.py SRCDIR
"""
import os
import re
import subprocess
import sys

src = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else '.')
try:
    files = subprocess.run(['git', '-C', src, 'ls-files', '-z'], capture_output=True,
                           check=True).stdout.decode().split('\0')
except (OSError, subprocess.CalledProcessError):
    files = [os.path.relpath(os.path.join(d, f), src) for d, _, fs in os.walk(src)
             if '/_build' not in d and '/.git' not in d for f in fs]
files = [f for f in files if f and os.path.isfile(os.path.join(src, f))]

# spelled in pieces so that this file does not name them itself
OUTSIDE = [re.compile(re.escape('/' + 'work/')), re.compile(re.escape('..' + '/shared'))]

problems = []
try:
    with open(os.path.join(src, 'docs', 'PLATFORM.md')) as f:
        sections = set(re.findall(r'(?m)^#{2,3} ([0-9]+(?:\.[0-9]+)?)\.? ', f.read()))
except FileNotFoundError:
    sections = set()  # reported below
cited = 0
for rel in files:
    try:
        with open(os.path.join(src, rel), encoding='utf-8') as f:
            text = f.read()
    except (UnicodeDecodeError, OSError):
        continue  # binary
    for pat in OUTSIDE:
        for m in pat.finditer(text):
            line = text.count('\n', 0, m.start()) + 1
            problems.append(f'{rel}:{line}: names a path outside the repository')
    if not rel.startswith(('src/', 'tests/')):
        continue
    for m in re.finditer(r'PLATFORM\.md((?:,? ?§? ?[0-9]+(?:\.[0-9]+)?(?:/§?[0-9.]+)?)*)',
                         text):
        cited += 1
        for sec in re.findall(r'[0-9]+(?:\.[0-9]+)?', m.group(1)):
            if sec not in sections:
                line = text.count('\n', 0, m.start()) + 1
                problems.append(f'{rel}:{line}: PLATFORM.md has no section {sec}')
for doc in ('PLATFORM.md', 'DESIGN.md', 'ARCHITECTURE.md'):
    if not os.path.exists(os.path.join(src, 'docs', doc)):
        problems.append(f'docs/{doc} is missing')

print(f'{len(files)} files, {cited} PLATFORM.md citations, {len(sections)} sections')
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
