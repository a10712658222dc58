#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: cli-i18n suite=i18n timeout=240 protocol=tap env=test
#    args=@sdtunerctl@,{testsbuilddir}/i18n-pseudo,{builddir}/po
#    depends=sdtunerctl,pseudo_install
"""test-cli-i18n.py SDTUNERCTL PSEUDO-LOCALEDIR PO-LOCALEDIR - sdtunerctl in other languages.

1. Marking: under the pseudo-locale "qps" (every msgstr wrapped in ⟦…⟧, built from a
   freshly extracted pot by make-pseudo.sh), the human output of info, recommend, apply,
   status, history, revert, bench, --help and an error shows no run of English words
   outside the markers (sdti18n.py's detector). Every command and error path, also over
   the bus: test-pseudo-cli.py.
2. JSON is not localised: `--json` output of info, recommend, apply, status, history,
   revert and of an error is byte-identical under LANG=C and under de_DE.UTF-8 (with
   LC_NUMERIC's decimal comma) and ja_JP.UTF-8 with LANGUAGE=de / ja; the human output
   under the same environments is localised (Japanese text; a decimal comma), so the
   environments did take effect.
Runs `sdtunerctl --root` on copies of data/sim/rpi3 under umockdev-run. TAP."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from sdttap import finish, ok  # noqa: E402

SDTUNERCTL = os.path.abspath(sys.argv[1])
PSEUDO_DIR = os.path.abspath(sys.argv[2])
PO_DIR = os.path.abspath(sys.argv[3])
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, '..', 'data')
# the simulated Raspberry Pi 3 of tools/run.sh: a card at 50 MHz, sd-overclock-100 applies
SIM_ROOT = os.path.join(HERE, '..', '..', 'data', 'sim', 'rpi3')
SIM_UMOCKDEV = os.path.join(HERE, '..', '..', 'data', 'sim', 'rpi3.umockdev')
sys.path.insert(0, HERE)
import sdti18n  # noqa: E402

# a UTF-8 locale that is not C for LANGUAGE to count: glibc 2.41 ignores it under C.UTF-8
# (tests/meson.build compiles en_US.UTF-8 into LOCPATH)
TEST_LOCALE = os.environ.get('SDTUNER_TEST_LOCALE', 'C.UTF-8')


def make_root(tmp, name):
    root = os.path.join(tmp, name)
    shutil.copytree(SIM_ROOT, root)
    return root


def run(root, args, env):
    cmd = ['umockdev-run', '-d', SIM_UMOCKDEV, '--',
           SDTUNERCTL, '--root', root] + args
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith('LC_') and k not in ('LANG', 'LANGUAGE', 'SDTUNER_ROOT')}
    clean.update(env)
    return subprocess.run(cmd, capture_output=True, env=clean, timeout=120)


# times of the run: backup names (20261201T090059.187867Z) and ISO 8601 history times
STAMP = re.compile(rb'\d{8}T\d{6}(?:\.\d+)?Z|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)')

SEQUENCE = [['info'], ['recommend'], ['apply', 'sd-overclock-100'], ['status'], ['history'],
            ['revert'], ['apply', 'no-such-id']]

with tempfile.TemporaryDirectory(prefix='sdt-cli-i18n-') as tmp:
    # 1. the pseudo-locale: every visible string is marked
    qps = {'LANG': TEST_LOCALE, 'LANGUAGE': 'qps', 'SDTUNER_LOCALEDIR': PSEUDO_DIR}
    root = make_root(tmp, 'qps')
    bench_dir = os.path.join(tmp, 'bench')
    os.mkdir(bench_dir)
    runs = [(a, run(root, a, qps)) for a in SEQUENCE]
    runs.append((['bench'], run(root, ['bench', '--profile', 'quick', '--dir', bench_dir], qps)))
    for args in (['--help'], ['bench', '--help'], ['nonsense']):
        runs.append((args, run(root, args, qps)))
    for args, p in runs:
        text = p.stdout.decode() + p.stderr.decode()
        ok(sdti18n.MARK_OPEN in text, f'qps: sdtunerctl {" ".join(args)} prints marked text',
           text)
        bad = [f'{line!r}: {sdti18n.unmarked(line)!r}' for line in text.splitlines()
               if sdti18n.unmarked(line)]
        ok(not bad, f'qps: sdtunerctl {" ".join(args)}: nothing unmarked', '\n'.join(bad))

    # an error raised deep in the library, inside a sentence: a damaged history entry's
    # reason (sdt_history_entry_parse_data()) is translated itself, not English in ⟦…(…)…⟧
    root = make_root(tmp, 'qps-damaged')
    hist = os.path.join(root, 'var', 'lib', 'sd-tuner', 'history')
    os.makedirs(hist, exist_ok=True)
    with open(os.path.join(hist, '1700000000000000-bench.json'), 'wb') as f:
        f.write(b'{\0}')
    p = run(root, ['history'], qps)
    text = p.stdout.decode() + p.stderr.decode()
    ok('1700000000000000-bench.json' in text and '(⟦a NUL byte⟧)' in text,
       'qps: a damaged history entry: the library\'s reason is translated', text)

    # 2. JSON stays byte-identical whatever the locale says
    locpath, why = sdti18n.locales()
    if locpath is None:
        print(f'# SKIP JSON locale checks: {why}')
    else:
        envs = {
            'C': {'LANG': 'C'},
            'de': {'LANG': 'de_DE.UTF-8', 'LC_NUMERIC': 'de_DE.UTF-8', 'LANGUAGE': 'de',
                   'LOCPATH': locpath, 'SDTUNER_LOCALEDIR': PO_DIR},
            'ja': {'LANG': 'ja_JP.UTF-8', 'LANGUAGE': 'ja', 'LOCPATH': locpath,
                   'SDTUNER_LOCALEDIR': PO_DIR},
        }
        outputs = {}
        for name, env in envs.items():
            # the same path for each run; only the clock may differ (masked below)
            root = make_root(tmp, 'json')
            outputs[name] = [run(root, a + ['--json'], env) for a in SEQUENCE]
            for p in outputs[name]:
                p.stdout = STAMP.sub(b'<time>', p.stdout)
            shutil.rmtree(root)
        for i, args in enumerate(SEQUENCE):
            c = outputs['C'][i]
            ok(c.stdout.startswith(b'{'), f'JSON: sdtunerctl {" ".join(args)} --json prints JSON',
               c.stdout.decode() + c.stderr.decode())
            for name in ('de', 'ja'):
                o = outputs[name][i]
                ok(o.stdout == c.stdout and o.returncode == c.returncode,
                   f'JSON: sdtunerctl {" ".join(args)} --json is byte-identical under {name}',
                   f'C:\n{c.stdout.decode()}\n{name}:\n{o.stdout.decode()}')
        # ... while the human output is localised in the same environments
        root = make_root(tmp, 'human-ja')
        p = run(root, ['info'], envs['ja'])
        ok(re.search('[\u3040-\u30ff]', p.stdout.decode()) is not None,
           'human: info under ja_JP.UTF-8 is Japanese', p.stdout.decode())
        ok('7,948,206,080' in p.stdout.decode(), 'human: ja_JP groups the digits of the capacity',
           p.stdout.decode())
        root = make_root(tmp, 'human-de')
        p = run(root, ['info'], envs['de'])
        ok('400,00' in p.stdout.decode() and '7.948.206.080' in p.stdout.decode(),
           'human: de_DE writes a decimal comma and groups digits with dots', p.stdout.decode())
        sdti18n.cleanup()

sys.exit(finish())
