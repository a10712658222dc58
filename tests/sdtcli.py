# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
"""What the `sdtunerctl --root DIR` tests in tests/*.py share (each is run by
meson as `test-X.py SDTUNERCTL` and prints TAP):

    import sdtcli
    from sdtcli import DATA, ok, read, write
    SDTUNERCTL = sdtcli.init()          # sys.argv[1], made absolute
    ok(cond, 'name', detail)            # sdttap's: one TAP line; detail printed as # lines on failure
    sdtcli.skip('name', 'reason')       # sdttap's: one "ok N - name # SKIP reason" line
    p = sdtcli.run(['info'], umockdev=..., root=...)   # sdtunerctl under umockdev-run
    r = sdtcli.Root(tmp, 'name', 'pi3', 'pi3.umockdev')  # a scratch copy of a fixture
    sdtcli.main('sdt-x', case1, case2)  # each case(tmp) in one scratch folder, then 1..N
"""
import os
import shutil
import subprocess
import sys
import tempfile

from sdttap import finish, ok, skip  # noqa: F401 (the TAP helpers of every test)

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, 'data')
BOOKWORM = os.path.join(DATA, 'config', 'rpios-bookworm.txt')

SDTUNERCTL = None


def init():
    global SDTUNERCTL
    SDTUNERCTL = os.path.abspath(sys.argv[1])
    return SDTUNERCTL


def main(prefix, *cases):
    """run each case(tmp) with one scratch folder, removed afterwards; exit with the result"""
    tmp = tempfile.mkdtemp(prefix=f'{prefix}-{os.getpid()}-')
    try:
        for case in cases:
            case(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(finish())


def strace_works():
    """None when strace can trace here, else why not"""
    if shutil.which('strace') is None:
        return 'strace is not installed (tools/deps.sh test installs it)'
    p = subprocess.run(['strace', '-f', '-qq', '-e', 'trace=none', 'true'], capture_output=True, text=True)
    return None if p.returncode == 0 else f'strace cannot trace here: {p.stderr.strip()}'


def read(path, mode='r'):
    with open(path, mode) as f:
        return f.read()


def write(path, data, mode='w'):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(data)


def env(**extra):
    """os.environ in the C.UTF-8 locale with English messages, without SDTUNER_ROOT"""
    e = dict(os.environ, LANGUAGE='C', LC_ALL='C.UTF-8', **extra)
    e.pop('SDTUNER_ROOT', None)
    return e


def argv(args, umockdev=None, root=None):
    """sdtunerctl [--root ROOT] ARGS, under umockdev-run -d UMOCKDEV when given"""
    cmd = [SDTUNERCTL] + (['--root', root] if root else []) + list(args)
    if umockdev:
        cmd = ['umockdev-run', '-d', umockdev, '--'] + cmd
    return cmd


def run(args, umockdev=None, root=None, text=True, timeout=60, environ=None, **kw):
    return subprocess.run(argv(args, umockdev, root), capture_output=True, text=text,
                          env=env() if environ is None else environ, timeout=timeout, **kw)


class Root:
    """a copy of a board fixture (tests/data/roots/FIXTURE) under a temporary folder,
    with CONFIG (a file name, or None for none) as its config.txt"""

    def __init__(self, tmp, name, fixture, umockdev, config=BOOKWORM):
        self.path = os.path.join(tmp, name)
        shutil.copytree(os.path.join(DATA, 'roots', fixture), self.path)
        self.umockdev = os.path.join(DATA, 'umockdev', umockdev)
        self.boot = os.path.join(self.path, 'boot', 'firmware')
        self.config = os.path.join(self.boot, 'config.txt')
        if config is not None:
            write(self.config, read(config, 'rb'), 'wb')

    def argv(self, *args):
        return argv(args, self.umockdev, self.path)

    def run(self, *args, **kw):
        return run(args, self.umockdev, self.path, **kw)

    def set_clock(self, actual_hz, overclock_line):
        """the SD clock in debugfs; with OVERCLOCK_LINE the kernel's "overclocking to" line"""
        ios = os.path.join(self.path, 'sys', 'kernel', 'debug', 'mmc0', 'ios')
        lines = [f'actual clock:\t{actual_hz} Hz' if x.startswith('actual clock:') else x
                 for x in read(ios).splitlines()]
        write(ios, '\n'.join(lines) + '\n')
        kmsg = os.path.join(self.path, 'dev', 'kmsg')
        recs = [x for x in read(kmsg).splitlines() if 'overclocking to' not in x]
        if overclock_line:
            recs.insert(4, f'6,4,1512345,-;mmc0: overclocking to {actual_hz}Hz')
        write(kmsg, '\n'.join(recs) + '\n')
