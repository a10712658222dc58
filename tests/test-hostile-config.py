#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: hostile-config suite=integration timeout=120 protocol=tap env=test
#    args=@sdtunerctl@
"""`sdtunerctl --root DIR` under umockdev-run on hostile config.txt files
(issue 9): non-UTF-8 bytes, include fan-out, and the core clock rules of
enable_uart, disable-bt/miniuart-bt and force_turbo, with the running core
clock in debugfs.  Output is read as bytes: every line must be valid UTF-8.

usage: test-hostile-config.py SDTUNERCTL   (run by meson; prints TAP)"""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sdtcli  # noqa: E402
import sdttap  # noqa: E402
from sdtcli import BOOKWORM, DATA, ok  # noqa: E402

SDTUNERCTL = sdtcli.init()
REPLACEMENT = '\ufffd'
sdttap.detail_lines = 40


def read(path):
    return sdtcli.read(path, 'rb')


def write(path, data):
    sdtcli.write(path, data, 'wb')


class Run:
    def __init__(self, p):
        self.returncode = p.returncode
        self.raw_out, self.raw_err = p.stdout, p.stderr
        self.utf8 = True
        try:
            self.stdout = p.stdout.decode('utf-8')
            self.stderr = p.stderr.decode('utf-8')
        except UnicodeDecodeError as e:
            self.utf8 = False
            self.stdout = p.stdout.decode('utf-8', 'replace')
            self.stderr = p.stderr.decode('utf-8', 'replace') + f'\n(not UTF-8: {e})'

    def json(self):
        try:
            return json.loads(self.raw_out.decode('utf-8'))
        except ValueError:
            return None


class Root(sdtcli.Root):
    """a copy of the pi3 fixture with its SD clock at 50 MHz and a config.txt"""

    def __init__(self, tmp, name, config):
        super().__init__(tmp, name, 'pi3', 'pi3.umockdev', config=None)
        write(self.config, config)
        self.set_clock(50000000, False)

    def run(self, *args):
        return Run(super().run(*args, text=False, timeout=120))


def non_utf8(tmp):
    """item 6: a Latin-1 comment and a non-UTF-8 byte on an SD line"""
    original = read(BOOKWORM) + (b'\n# \xdcbertaktung\n[pi4]\ndtparam=sd_cqe=1 # Ger\xe4t\n'
                                 b'[all]\n')
    r = Root(tmp, 'latin1', original)

    p = r.run('--json', 'info')
    info = p.json()
    ok(p.returncode == 0 and p.utf8 and info is not None, '--json info: valid UTF-8 JSON',
       p.stdout[-2000:] + p.stderr)
    texts = [s['text'] for s in info['config']['sd_settings']] if info else []
    ok('dtparam=sd_cqe=1 # Ger' + REPLACEMENT + 't' in texts,
       '--json info: the invalid byte shows as U+FFFD', texts)

    p = r.run('info')
    ok(p.returncode == 0 and p.utf8, 'info: the terminal text is valid UTF-8', p.stdout + p.stderr)

    p = r.run('--json', 'apply', 'sd-overclock-100')
    res = p.json()
    ok(p.returncode == 0 and p.utf8 and res is not None and
       'Ger' + REPLACEMENT + 't' in res.get('diff', ''),
       'apply --json: valid UTF-8 JSON, the diff shows U+FFFD', p.stdout + p.stderr)
    new = read(r.config)
    ok(new.startswith(original) and b'dtparam=sd_overclock=100\n' in new[len(original):],
       'apply: the user\'s bytes stay exactly as they were', new[-400:])
    p = r.run('status')
    ok(p.returncode == 0 and p.utf8, 'status: valid UTF-8', p.stdout + p.stderr)
    p = r.run('revert')
    ok(p.returncode == 0 and p.utf8 and read(r.config) == original,
       'revert: valid UTF-8 diff on the terminal, the exact bytes back', p.stdout + p.stderr)

    # an error that quotes the line
    bad = read(BOOKWORM) + b'[pi\xe4\n'
    r = Root(tmp, 'latin1-error', bad)
    p = r.run('--json', 'apply', 'sd-overclock-100')
    res = p.json()
    ok(p.returncode == 1 and p.utf8 and res is not None and
       '[pi' + REPLACEMENT in res['error']['message'] and '[pi' + REPLACEMENT in p.stderr,
       'apply --json with a non-UTF-8 line in the error: valid UTF-8 JSON and stderr',
       p.stdout + p.stderr)
    ok(read(r.config) == bad, 'refused apply: config.txt untouched')


def fanout(tmp):
    """item 8: 20 files each including all 20"""
    names = [f'inc{i}.txt' for i in range(1, 21)]
    r = Root(tmp, 'fanout', read(BOOKWORM) + ''.join(f'include {x}\n' for x in names).encode())
    for x in names:
        write(os.path.join(r.boot, x), ''.join(f'include {y}\n' for y in names).encode())
    before = read(r.config)
    p = r.run('--json', 'info')
    info = p.json()
    err = info['config']['error'] if info else None
    ok(p.returncode == 0 and err is not None and 'remove the nested include lines' in err,
       '--json info: config.error explains the include budget', p.stdout[-1500:] + p.stderr)
    p = r.run('apply', 'sd-overclock-100')
    ok(p.returncode == 1 and 'include lines' in p.stderr and read(r.config) == before,
       'apply: refused with the same clear error, nothing written', p.stdout + p.stderr)


def clock(tmp):
    """item 4: the core clock rules through the whole stack (Pi 3B, mini UART primary)"""
    base = read(BOOKWORM)
    cases = [
        ('enable_uart=1\n', 'sd-overclock-83', 'enable-uart'),
        ('enable_uart=1\ndtoverlay=disable-bt\n', 'sd-overclock-100', 'board-default'),
        ('enable_uart=1\ndtoverlay=pi3-miniuart-bt\n', 'sd-overclock-100', 'board-default'),
        ('enable_uart=1\nforce_turbo=1\n', 'sd-overclock-100', 'enable-uart-force-turbo'),
    ]
    for i, (lines, want, source) in enumerate(cases):
        r = Root(tmp, f'clock{i}', base + b'[all]\n' + lines.encode())
        p = r.run('--json', 'recommend')
        res = p.json() or {}
        ids = [x['id'] for x in res.get('recommendations', [])]
        got = res.get('core_clock', {}).get('source')
        ok(ids == [want] and got == source,
           f'{lines.strip()!r}: {want}, core clock from {source}', f'{ids} {got}\n{p.stderr}')
    # the running system's reading wins: enable_uart=1, but debugfs reads 400 MHz
    r = Root(tmp, 'clock-running', base + b'[all]\nenable_uart=1\n')
    write(os.path.join(r.path, 'sys', 'kernel', 'debug', 'clk', 'fw-clk-core', 'clk_rate'),
          b'400000000\n')
    p = r.run('--json', 'recommend')
    res = p.json() or {}
    ids = [x['id'] for x in res.get('recommendations', [])]
    cc = res.get('core_clock', {})
    ok(ids == ['sd-overclock-100'] and cc.get('source') == 'running-system' and
       cc.get('hz') == 400000000 and cc.get('detail', '').endswith('fw-clk-core/clk_rate'),
       'a core clock in debugfs wins, and its source is recorded', f'{ids} {cc}\n{p.stderr}')


def history(tmp):
    """tampered history entries: `history` lists the good ones, explains the others,
    and never hits a Json-CRITICAL (G_DEBUG=fatal-criticals is set by meson)"""
    r = Root(tmp, 'history', read(BOOKWORM))
    hist = os.path.join(r.path, 'var', 'lib', 'sd-tuner', 'history')
    shutil.copytree(os.path.join(DATA, 'history'), hist)
    write(os.path.join(hist, '1767225600000003-apply.json'),
          b'{"kind": {"x": 1}, "time": "2026-01-01T00:00:00Z"}')
    write(os.path.join(hist, '1767225600000004-apply.json'),
          b'{"kind": "apply", "time": "t", "id": 5, "trial": {}}')
    write(os.path.join(hist, '1767225600000005-apply.json'),
          b'{"kind": "apply", "time": "t", "id": "a\\ud800"}')
    os.mkfifo(os.path.join(hist, '1767225600000006-bench.json'))
    env = dict(os.environ, G_DEBUG='fatal-criticals')
    p = Run(subprocess.run(r.argv('history'), capture_output=True, env=env, timeout=60))
    ok(p.returncode == 0 and p.utf8 and 'applied sd-overclock-100' in p.stdout and
       'CRITICAL' not in p.stderr and p.stderr.count('is damaged') == 4,
       'history: good entries listed, tampered ones explained, no critical', p.stdout + p.stderr)
    p = r.run('--json', 'history')
    res = p.json() or {}
    ok(p.utf8 and len(res.get('entries', [])) == 3 and len(res.get('warnings', [])) == 4,
       'history --json: 3 entries, 4 warnings, valid UTF-8', p.stdout + p.stderr)


sdtcli.main('sdt-hostile', non_utf8, fanout, clock, history)
