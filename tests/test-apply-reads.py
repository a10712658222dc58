#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: apply-reads suite=integration timeout=180 protocol=tap env=test args=@sdtunerctl@
"""One `sdtunerctl --root DIR apply ID` reads config.txt once, the history at most once and the
boot id once (issue 36): counted with strace (every successful open(2) of config.txt, of an entry
of the history and of <root>/proc/sys/kernel/random/boot_id), on a copy of the pi3 fixture under
umockdev-run with a benchmark of the card in the history (measured under another config.txt, so
the apply also looks for any benchmark: the path that read the history most).  A read of the
history opens each of its entries once, so the opens of the benchmark's entry count the reads.
The trial apply and revert are counted too and printed; what they must hold is asserted.

usage: test-apply-reads.py SDTUNERCTL   (run by meson; prints TAP)"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sdtcli  # noqa: E402
from sdtcli import ok, skip, write  # noqa: E402

SDTUNERCTL = sdtcli.init()
CI = os.environ.get('CI') == 'true'
BOOT_ID = '0b6f8a52-2a4e-4a55-9a43-6a5f0d3b1c11\n'
BENCH = '1767225600000000-bench.json'


def root(tmp, name):
    """pi3 at boot BOOT_ID, the SD clock at 50 MHz (sd-overclock-100 is recommended), and a
    benchmark of the card in the history, measured under another config.txt"""
    r = sdtcli.Root(tmp, name, 'pi3', 'pi3.umockdev')
    write(os.path.join(r.path, 'proc', 'sys', 'kernel', 'random', 'boot_id'), BOOT_ID)
    r.set_clock(50000000, False)
    r.state = os.path.join(r.path, 'var', 'lib', 'sd-tuner')
    write(os.path.join(r.state, 'history', BENCH), json.dumps(
        {'kind': 'bench', 'time': '2026-01-01T00:00:00.000000Z', 'profile': 'quick',
         'config_sha256': '0' * 64,
         'target': {'path': r.state, 'device': 'mmcblk0p2', 'filesystem': 'ext4', 'stand_in': False},
         'tests': [{'name': 'seq-write', 'mb_s': 18.0, 'ci_percent': 2.0}]}))
    return r


def opened(lines, *paths):
    """the successful opens of one of PATHS in an strace log"""
    return [x for x in lines if any(f'"{p}"' in x for p in paths) and '= -1 ' not in x and 'O_PATH' not in x]


def reads(r, *args):
    """(process, {what: its successful opens}) of `sdtunerctl --root R ARGS` under strace"""
    log = os.path.join(os.path.dirname(r.path), 'strace.log')
    argv = (['umockdev-run', '-d', r.umockdev, '--', 'strace', '-f', '-qq', '-o', log,
             '-e', 'trace=open,openat,openat2', SDTUNERCTL, '--root', r.path] + list(args))
    p = subprocess.run(argv, capture_output=True, text=True, env=sdtcli.env(), timeout=120)
    with open(log) as f:
        lines = f.read().splitlines()
    os.unlink(log)
    return p, {'config.txt': opened(lines, r.config),
               'history': opened(lines, os.path.join(r.state, 'history', BENCH)),
               # openat2() under the root's folder (RESOLVE_IN_ROOT), or one step at a time without it
               'boot id': opened(lines, '/proc/sys/kernel/random/boot_id', 'boot_id')}


def figures(name, n):
    print(f'# {name}: config.txt {len(n["config.txt"])}, history {len(n["history"])}, '
          f'boot id {len(n["boot id"])}')


def case_apply(tmp):
    r = root(tmp, 'apply')
    p, n = reads(r, 'apply', 'sd-overclock-100')
    figures('apply', n)
    ok(p.returncode == 0 and 'dtparam=sd_overclock=100' in sdtcli.read(r.config), 'apply: done',
       p.stdout + p.stderr)
    ok(len(n['config.txt']) == 1, f'apply: config.txt read once ({len(n["config.txt"])})',
       '\n'.join(n['config.txt']))
    ok(len(n['history']) <= 1, f'apply: the history read at most once ({len(n["history"])})',
       '\n'.join(n['history']))
    ok(len(n['boot id']) == 1, f'apply: the boot id read once ({len(n["boot id"])})',
       '\n'.join(n['boot id']))
    p, n = reads(r, 'revert')
    figures('revert', n)
    ok(p.returncode == 0 and 'SD Tuner begin' not in sdtcli.read(r.config), 'revert: done',
       p.stdout + p.stderr)
    ok(len(n['config.txt']) == 1, f'revert: config.txt read once ({len(n["config.txt"])})',
       '\n'.join(n['config.txt']))
    ok(len(n['boot id']) == 1, f'revert: the boot id read once ({len(n["boot id"])})',
       '\n'.join(n['boot id']))


def case_trial(tmp):
    r = root(tmp, 'trial')
    p, n = reads(r, 'apply', 'sd-overclock-100', '--trial')
    figures('trial apply', n)
    ok(p.returncode == 0 and os.path.exists(os.path.join(r.boot, 'tryboot.txt')), 'trial apply: done',
       p.stdout + p.stderr)
    ok(len(n['config.txt']) == 1, f'trial apply: config.txt read once ({len(n["config.txt"])})',
       '\n'.join(n['config.txt']))
    ok(len(n['history']) <= 1, f'trial apply: the history read at most once ({len(n["history"])})',
       '\n'.join(n['history']))
    ok(len(n['boot id']) == 1, f'trial apply: the boot id read once ({len(n["boot id"])})',
       '\n'.join(n['boot id']))
    p, n = reads(r, 'revert')
    figures('revert of the trial', n)
    ok(p.returncode == 0 and not os.path.exists(os.path.join(r.boot, 'tryboot.txt')),
       'revert of the trial: done', p.stdout + p.stderr)


def main():
    why = sdtcli.strace_works()
    if why is not None:
        if CI:
            ok(False, 'strace traces sdtunerctl', why + '; CI=true forbids a skip')
        else:
            skip('one read of config.txt, the history and the boot id per apply', why)
        sys.exit(sdtcli.finish())
    sdtcli.main('sdt-apply-reads', case_apply, case_trial)


main()
