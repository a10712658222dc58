#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: history-series suite=integration timeout=120 protocol=tap env=test args=@sdtunerctl@
"""`sdtunerctl --root DIR [--json] history` under umockdev-run: the figures over time
(DESIGN.md "Results over time").  The history of tests/data/history-series (five
benchmarks of the pi3 fixture's card with an apply between the second and the third, one
of another card, one of a stand-in folder) gives the "series" and "card_in_slot" of
tests/data/history-series.expected.json exactly (the contract: members are added, none
changed), the entries as before, and the text a summary per test; a damaged entry is
skipped and named, the rest still charted; a different card in the slot (the pi4
fixture) is no series in the slot; no history is an empty series.

usage: test-history-series.py SDTUNERCTL   (run by meson; prints TAP)"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from sdttap import finish, ok

SDTUNERCTL = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, 'data')
FIXTURE = os.path.join(DATA, 'history-series')
EXPECTED = os.path.join(DATA, 'history-series.expected.json')
SLOT = '0353445355303847801e4c298300d28e'


def history(root, board, *args):
    argv = ['umockdev-run', '-d', os.path.join(DATA, 'umockdev', f'{board}.umockdev'), '--',
            SDTUNERCTL, '--root', root] + list(args) + ['history']
    return subprocess.run(argv, capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, LC_ALL='C.UTF-8', LANGUAGE='', TZ='UTC'))


def make_root(tmp, board):
    root = os.path.join(tmp, board)
    shutil.copytree(os.path.join(DATA, 'roots', board), root, symlinks=True)
    hist = os.path.join(root, 'var', 'lib', 'sd-tuner', 'history')
    os.makedirs(hist, mode=0o755)
    for name in sorted(os.listdir(FIXTURE)):
        shutil.copy(os.path.join(FIXTURE, name), hist)
    return root, hist


with tempfile.TemporaryDirectory() as tmp:
    root, hist = make_root(tmp, 'pi3')
    p = history(root, 'pi3', '--json')
    doc = json.loads(p.stdout)
    got = {'card_in_slot': doc.get('card_in_slot'), 'series': doc.get('series')}
    if os.environ.get('SDTUNER_UPDATE_GOLDEN'):
        with open(EXPECTED, 'w') as f:
            json.dump(got, f, indent=2, ensure_ascii=False)
            f.write('\n')
    with open(EXPECTED) as f:
        expected = json.load(f)
    ok(p.returncode == 0 and got == expected, 'history --json: series and card_in_slot as the golden file',
       json.dumps(got)[:400])
    ok([e['kind'] for e in doc['entries']] == ['bench', 'bench', 'apply', 'bench', 'bench', 'bench',
                                               'bench', 'bench'] and 'warnings' not in doc,
       'the entries are listed as before')
    slot = [s for s in doc['series'] if s['in_slot']]
    seq = [t for t in slot[0]['tests'] if t['name'] == 'seq-read'][0]
    ok(len(slot) == 1 and slot[0]['card']['id'] == SLOT and len(seq['points']) == 5
       and [pt['change'] for pt in seq['points']] == [None, None, 'sd-overclock-100',
                                                      'sd-overclock-100', 'sd-overclock-100']
       and slot[0]['changes'] == [{'time': '2026-02-02T10:00:00.000000Z', 'kind': 'apply',
                                   'id': 'sd-overclock-100'}],
       'the slot card: five runs (no stand-in, no other card), the change in force, the marker')

    p = history(root, 'pi3')
    ok(p.returncode == 0 and 'The card in the slot (SU08G, serial 0x1e4c2983) over time:' in p.stdout
       and 'Sequential read: 5 runs, first 22.1 MB/s, latest 37.6 MB/s (lowest 22.1 MB/s, '
           'highest 39.8 MB/s)' in p.stdout
       and 'Random 4K write, one at a time: 5 runs, first 610 IOPS, latest 430 IOPS' in p.stdout
       and '77.7' not in p.stdout.split('over time:')[1],
       'history: a summary per test for the card in the slot', p.stdout)

    # a damaged entry: skipped and named, the rest still charted
    with open(os.path.join(hist, '1767600000000008-bench.json'), 'w') as f:
        f.write('{"kind": "bench", "time": "2026-04-01T00:00:00Z", "tests": [')
    p = history(root, 'pi3', '--json')
    doc = json.loads(p.stdout)
    slot = [s for s in doc['series'] if s['in_slot']]
    ok(p.returncode == 0 and len(doc['warnings']) == 1
       and '1767600000000008-bench.json' in doc['warnings'][0]
       and len(slot[0]['tests'][0]['points']) == 5, 'a damaged entry: skipped, named, rest charted')
    p = history(root, 'pi3')
    ok(p.returncode == 0 and '1767600000000008-bench.json' in p.stderr and 'over time:' in p.stdout,
       'a damaged entry: the text names it on stderr and still summarizes', p.stderr)

    # another card in the slot (the pi4 fixture's): nothing of this history is in the slot
    root4, _ = make_root(tmp, 'pi4')
    p = history(root4, 'pi4', '--json')
    doc = json.loads(p.stdout)
    ok(p.returncode == 0 and doc['card_in_slot']['id'] != SLOT
       and not any(s['in_slot'] for s in doc['series']) and len(doc['series']) == 2,
       'another card in the slot: two series, neither in the slot')
    p = history(root4, 'pi4')
    ok(p.returncode == 0 and 'over time:' not in p.stdout, 'another card: no summary for it')

    # no history
    shutil.rmtree(os.path.join(root4, 'var', 'lib', 'sd-tuner', 'history'))
    p = history(root4, 'pi4', '--json')
    ok(p.returncode == 0 and json.loads(p.stdout)['series'] == [], 'no history: no series')

sys.exit(finish())
