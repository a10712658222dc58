#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: bench-tmpfs suite=integration timeout=120 protocol=tap env=test args=@sdtunerctl@
"""`sdtunerctl bench --dir /tmp` where /tmp is a real tmpfs (Debian 13 "trixie" and
Raspberry Pi OS trixie mount it so): refused, saying why (it measures memory) and what to
use instead, and no file left there. The tmpfs is mounted over /tmp in a private mount
namespace (unshare), so nothing of the machine's /tmp is touched. As root (the mount);
without root it skips, under CI=true that fails.

usage: test-bench-tmpfs.py SDTUNERCTL   (run by meson; prints TAP)"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sdtcli  # noqa: E402
from sdtcli import ok, skip, finish  # noqa: E402

SDTUNERCTL = sdtcli.init()
SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIM = os.path.join(SRC, 'data', 'sim', 'rpi3')
SIM_UMOCKDEV = os.path.join(SRC, 'data', 'sim', 'rpi3.umockdev')

if os.geteuid() != 0 or shutil.which('unshare') is None:
    why = 'needs root and unshare(1) to mount a tmpfs over /tmp in a private namespace'
    if os.environ.get('CI') == 'true':
        ok(False, f'bench --dir /tmp on a tmpfs: cannot run under CI=true: {why}')
        sys.exit(finish())
    skip('bench --dir /tmp on a tmpfs', why)
    finish()
    sys.exit(77)

scratch = tempfile.mkdtemp(prefix='sdt-bench-tmpfs-', dir='/var/tmp')
try:
    root = os.path.join(scratch, 'root')
    shutil.copytree(SIM, root, symlinks=True)
    # in the namespace: a fresh tmpfs on /tmp (as trixie has), the benchmark, then what
    # is left in that /tmp, after a marker line
    script = ('mount -t tmpfs sdt-test-tmpfs /tmp && stat -f -c %T /tmp >&2 && '
              '"$@"; rc=$?; echo "---left in /tmp:"; ls -A /tmp; exit $rc')
    p = subprocess.run(['unshare', '--mount', '--propagation', 'private', 'sh', '-c', script,
                        'sh', 'umockdev-run', '-d', SIM_UMOCKDEV, '--', SDTUNERCTL,
                        '--root', root, 'bench', '--profile', 'quick', '--dir', '/tmp'],
                       capture_output=True, text=True, env=sdtcli.env(), timeout=100)
    out, err = p.stdout, p.stderr
    detail = f'exit {p.returncode}\nstdout:\n{out}\nstderr:\n{err}'
    ok('tmpfs' in err.splitlines()[0] if err else False, '/tmp is a tmpfs in the namespace',
       detail)
    ok(p.returncode == 1, 'bench --dir /tmp on a tmpfs: refused (exit 1)', detail)
    ok('/tmp is on tmpfs' in err and 'measure memory, not a card' in err,
       'the refusal says why: a tmpfs measures memory', detail)
    ok('/var/tmp' in err and 'trixie' in err,
       'the refusal says what to use instead (a folder on the card, /var/tmp on a Pi)',
       detail)
    left = out.split('---left in /tmp:\n', 1)[-1].split()
    ok('---left in /tmp:' in out and left == [], 'no file left in /tmp', detail)
    ok(not os.path.exists(os.path.join(root, 'var', 'lib', 'sd-tuner', 'history')) or
       os.listdir(os.path.join(root, 'var', 'lib', 'sd-tuner', 'history')) == [],
       'no benchmark recorded in the history', detail)
finally:
    shutil.rmtree(scratch, ignore_errors=True)
sys.exit(finish())
