#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: ci-cannot-run suite=ci timeout=300 protocol=tap env=test args={srcdir}
"""Under CI=true a step that cannot run fails; elsewhere it is skipped with the reason.

- tools/test-32bit.sh when its packages cannot be had (deps-32bit.sh exit 77: here a `dpkg`
  that says this machine is arm64)
- the real-kernel tier (tests/vm/vm.sh) when a host program is missing (a PATH without
  qemu-system-aarch64)
- the clean-root package install (tests/installed/lite-install.sh) without the .debs

usage: test-ci-cannot-run.py SRCDIR   (run by meson; prints TAP)"""
import os
import shutil
import subprocess
import sys
import tempfile

from sdttap import finish, ok

SRC = os.path.abspath(sys.argv[1])


def env(ci, path):
    e = {k: v for k, v in os.environ.items() if k != 'CI'}
    e['PATH'] = path
    if ci:
        e['CI'] = 'true'
    return e


def run(argv, e):
    r = subprocess.run(argv, env=e, capture_output=True, text=True, timeout=300)
    return r.returncode, r.stdout + r.stderr


tmp = tempfile.mkdtemp(prefix='sdt-ci-')
try:
    # 1. tools/test-32bit.sh: deps-32bit.sh skips on a machine that is not amd64
    fake = os.path.join(tmp, 'fake-dpkg')
    os.makedirs(fake)
    with open(os.path.join(fake, 'dpkg'), 'w') as f:
        f.write('#!/bin/sh\n[ "$1" = --print-architecture ] && { echo arm64; exit 0; }\n'
                'exec /usr/bin/dpkg "$@"\n')
    os.chmod(os.path.join(fake, 'dpkg'), 0o755)
    path = fake + ':' + os.environ.get('PATH', '/usr/bin:/bin')
    for ci in (False, True):
        e = env(ci, path)
        e['BUILDDIR32'] = os.path.join(tmp, 'b32-' + str(ci))
        rc, out = run(['sh', os.path.join(SRC, 'tools', 'test-32bit.sh')], e)
        if ci:
            ok(rc == 1 and '32-bit: FAILED (CI=true' in out,
               'test-32bit.sh under CI=true: packages that cannot be had fail the step', out)
        else:
            ok(rc == 0 and 'SKIPPED' in out,
               'test-32bit.sh elsewhere: skipped, saying why', out)

    # 2. tests/vm/vm.sh: every program of the PATH but qemu-system-aarch64
    nobin = os.path.join(tmp, 'no-qemu')
    os.makedirs(nobin)
    for d in ('/usr/local/bin', '/usr/bin', '/bin', '/usr/sbin', '/sbin'):
        for name in os.listdir(d) if os.path.isdir(d) else []:
            link = os.path.join(nobin, name)
            if not name.startswith('qemu-system-') and not os.path.lexists(link):
                os.symlink(os.path.join(d, name), link)
    for ci in (False, True):
        rc, out = run(['bash', os.path.join(SRC, 'tests', 'vm', 'vm.sh'), 'prepare', 'arm64', SRC,
                       os.path.join(tmp, 'vm-' + str(ci))], env(ci, nobin))
        if ci:
            ok(rc == 1 and 'vm: FAILED (CI=true' in out and 'qemu-system-aarch64' in out,
               'vm.sh under CI=true: a missing qemu fails the tier', out)
        else:
            ok(rc == 77 and 'vm: SKIPPED' in out and 'qemu-system-aarch64' in out,
               'vm.sh elsewhere: a missing qemu skips the tier, saying why', out)
    # 3. tests/installed/lite-install.sh without the .debs to install (issue 26 item 3)
    for ci in (False, True):
        e = env(ci, os.environ.get('PATH', '/usr/bin:/bin'))
        for k in ('SDTUNER_DEB', 'SDTUNER_DEB_APP'):
            e.pop(k, None)
        rc, out = run(['sh', os.path.join(SRC, 'tests', 'installed', 'lite-install.sh')], e)
        if ci:
            ok(rc == 1 and 'FAILED: cannot run' in out and 'SDTUNER_DEB' in out,
               'lite-install.sh under CI=true: no .deb fails the test', out)
        else:
            ok(rc == 77 and 'SKIP' in out and 'SDTUNER_DEB' in out,
               'lite-install.sh elsewhere: no .deb skips it, saying why', out)
finally:
    shutil.rmtree(tmp, ignore_errors=True)
sys.exit(finish())
