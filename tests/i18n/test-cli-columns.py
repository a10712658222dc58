#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: cli-columns suite=i18n timeout=240 protocol=tap env=test
#    args=@sdtunerctl@,{builddir}/po depends=sdtunerctl
"""test-cli-columns.py SDTUNERCTL PO-LOCALEDIR - sdtunerctl's tables line up in every language.

Issue 24: printf's "%-30s" and "%8s" pad by bytes, so a column after a Japanese,
German, French or Spanish cell (ブロック, „Streuung“, “—”, “±”) starts elsewhere on
every line. Measured in terminal columns (East Asian Wide and Fullwidth characters
count two, combining marks none, as a terminal shows them):
1. `sdtunerctl bench --profile quick` under ja_JP.UTF-8 and de_DE.UTF-8 (the real
   catalogues of the build): every right-aligned cell of every row ends in the column
   where its heading ends, and every line of the table is as wide as its heading;
2. `sdtunerctl history` under ja, de, fr and es with entries on days whose dates
   differ in width (2026年1月5日, 2026年11月25日): the second column starts in the
   same terminal column on every line.
Runs `sdtunerctl --root` on copies of data/sim/rpi3 under umockdev-run. TAP."""
import gettext
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from sdttap import finish, ok  # noqa: E402

SDTUNERCTL = os.path.abspath(sys.argv[1])
PO_DIR = os.path.abspath(sys.argv[2])
HERE = os.path.dirname(os.path.abspath(__file__))
SIM_ROOT = os.path.join(HERE, '..', '..', 'data', 'sim', 'rpi3')
SIM_UMOCKDEV = os.path.join(HERE, '..', '..', 'data', 'sim', 'rpi3.umockdev')
sys.path.insert(0, HERE)
import sdti18n  # noqa: E402

LOCALES = {'ja': 'ja_JP', 'de': 'de_DE', 'fr': 'fr_FR', 'es': 'es_ES'}
TITLES = ['Sequential write', 'Sequential read', 'Random 4K write, one at a time',
          'Random 4K read, one at a time', 'Random 4K write, 32 queued',
          'Random 4K read, 32 queued', 'Raw device read']
HEADS = ['Block', 'QD', 'MB/s', 'IOPS', 'p99 µs', 'Spread']


def width(c):
    if unicodedata.combining(c) or unicodedata.category(c) in ('Mn', 'Me', 'Cf'):
        return 0
    return 2 if unicodedata.east_asian_width(c) in ('W', 'F') else 1


def grid(line):
    """@line as terminal cells: a wide character fills its cell and a '' after it"""
    cells = []
    for c in line:
        w = width(c)
        if w:
            cells += [c] + [''] * (w - 1)
    return cells


def columns(text):
    return len(grid(text))


def run(root, args, lang, locpath):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith('LC_') and k not in ('LANG', 'LANGUAGE', 'SDTUNER_ROOT')}
    env.update({'LANG': f'{LOCALES[lang]}.UTF-8', 'LANGUAGE': lang, 'LOCPATH': locpath,
                'SDTUNER_LOCALEDIR': PO_DIR, 'TZ': 'UTC'})
    return subprocess.run(['umockdev-run', '-d', SIM_UMOCKDEV, '--', SDTUNERCTL, '--root', root]
                          + args, capture_output=True, text=True, env=env, timeout=300)


def check_bench(tmp, lang, locpath):
    tr = gettext.translation('sd-tuner', PO_DIR, [lang]).gettext
    root = os.path.join(tmp, f'bench-{lang}')
    shutil.copytree(SIM_ROOT, root)
    target = os.path.join(tmp, f'bench-dir-{lang}')
    os.mkdir(target)
    p = run(root, ['bench', '--profile', 'quick', '--dir', target], lang, locpath)
    lines = p.stdout.splitlines()
    heads = [tr(h) for h in HEADS]
    titles = [tr(t) for t in TITLES]
    head = next((i for i, ln in enumerate(lines)
                 if ln.startswith(tr('Test')) and ln.rstrip().endswith(heads[-1])), None)
    ok(p.returncode == 0 and head is not None,
       f'{lang}: bench prints its table with the translated headings',
       p.stdout + p.stderr)
    if head is None:
        return
    # where each heading ends, in terminal columns
    ends, cursor = [], len(tr('Test'))
    for h in heads:
        at = lines[head].index(h, cursor)
        ends.append(columns(lines[head][:at]) + columns(h))
        cursor = at + len(h)
    rows = []
    for ln in lines[head + 1:]:
        if not any(ln.startswith(t) for t in titles):
            break
        rows.append(ln)
    ok(len(rows) >= 4 and titles[0] != TITLES[0],
       f'{lang}: the table has a row per test, with translated titles', '\n'.join(lines))
    bad = []
    for ln in rows:
        g = grid(ln)
        if len(g) != ends[-1]:
            bad.append(f'{ln!r}: {len(g)} columns wide, the headings {ends[-1]}')
        start = columns(next(t for t in titles if ln.startswith(t)))
        for i, e in enumerate(ends):
            cell_start = ends[i - 1] + 1 if i > 0 else start
            cell = ''.join(g[cell_start:e])
            empty = cell.strip() == ''
            if not empty and (g[e - 1] in (' ', '') or (e < len(g) and g[e] != ' ')):
                bad.append(f'{ln!r}: the {HEADS[i]} cell does not end in column {e}')
    ok(not bad, f'{lang}: every cell ends where its heading ends (display width)',
       '\n'.join(bad) + '\n' + '\n'.join(lines[head:head + len(rows) + 1]))


def check_history(tmp, lang, locpath):
    root = os.path.join(tmp, f'history-{lang}')
    shutil.copytree(SIM_ROOT, root)
    hist = os.path.join(root, 'var', 'lib', 'sd-tuner', 'history')
    os.makedirs(hist, exist_ok=True)
    for i, when in enumerate(['2026-01-05T09:30:00Z', '2026-11-25T10:00:00Z',
                              '2026-03-14T23:59:00Z']):
        entry = {'kind': 'bench', 'time': when, 'profile': 'quick',
                 'target': {'path': '/var/tmp', 'stand_in': False},
                 'tests': [{'name': 'seq-write', 'mb_s': 10.0 + i}]}
        with open(os.path.join(hist, f'{1767600000000000 + i}-bench.json'), 'w') as f:
            json.dump(entry, f)
    p = run(root, ['history'], lang, locpath)
    # the entries' table, up to the blank line before the figures over time (issue 35)
    table = p.stdout.split('\n\n', 1)[0]
    lines = [ln for ln in table.splitlines() if ln.strip()]
    starts = set()
    for ln in lines:
        head, sep, rest = ln.partition('  ')
        summary = rest.lstrip(' ')
        starts.add(columns(ln) - columns(summary))
    ok(p.returncode == 0 and len(lines) == 3,
       f'{lang}: history lists the three entries', p.stdout + p.stderr)
    ok(len(starts) == 1, f'{lang}: history\'s second column starts in one terminal column',
       f'starts at {sorted(starts)}:\n' + p.stdout)


locpath, why = sdti18n.locales(tuple(LOCALES.values()))
if locpath is None:
    ok(False, 'the locales of the alignment test can be made', why)
    sys.exit(finish())
with tempfile.TemporaryDirectory(prefix='sdt-cli-columns-') as tmp:
    for lang in ('ja', 'de'):
        check_bench(tmp, lang, locpath)
    for lang in LOCALES:
        check_history(tmp, lang, locpath)
sdti18n.cleanup()
sys.exit(finish())
