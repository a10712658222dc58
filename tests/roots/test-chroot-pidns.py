#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: chroot-pidns suite=integration timeout=60 protocol=tap
"""tests/roots/chroot-pidns.sh keeps a chroot's maintainer scripts off the host's processes.

polkitd's postinst (trixie, without systemd) runs `start-stop-daemon --stop --exec
/usr/lib/polkit-1/polkitd`; in a chroot with the host's /proc that stopped the polkitd of
every test running beside a root being made (ci5: gui-pseudo, "org.freedesktop.PolicyKit1
was not provided"). The model: a process of the host runs DIR/sleeper; a root holds its own
copy at the same path (and the host's programs, read-only); start-stop-daemon --exec that
path in the root stops the host's process through a plain chroot (the control: what the
roots were made with), and not through chroot-pidns.sh.

usage: test-chroot-pidns.py   (as root; prints TAP)"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
from sdttap import finish, ok, skip  # noqa: E402

WRAPPER = os.path.join(HERE, 'chroot-pidns.sh')


def alive(p):
    time.sleep(0.3)
    return p.poll() is None


def main():
    if os.geteuid() != 0 or shutil.which('start-stop-daemon') is None:
        if os.environ.get('CI') == 'true':
            ok(False, 'chroot-pidns', 'needs root and start-stop-daemon (CI=true: must run)')
        else:
            skip('chroot-pidns', 'needs root and start-stop-daemon')
        return finish()
    work = tempfile.mkdtemp(prefix='sdt-pidns-', dir='/var/tmp')
    root = os.path.join(work, 'root')
    mounts = []
    try:
        # the host's process, and the root's own copy of its program at the same path
        prog = os.path.join(work, 'sleeper')
        shutil.copy('/usr/bin/sleep', prog)
        os.makedirs(root + work)
        shutil.copy('/usr/bin/sleep', root + prog)
        for d in ('usr', 'bin', 'sbin', 'lib', 'lib64', 'etc'):
            src = os.path.join('/', d)
            if not os.path.isdir(src) or os.path.islink(src):
                if os.path.islink(src):
                    os.symlink(os.readlink(src), os.path.join(root, d))
                continue
            os.makedirs(os.path.join(root, d))
            subprocess.run(['mount', '--bind', '-o', 'ro', src, os.path.join(root, d)],
                           check=True)
            mounts.append(os.path.join(root, d))
        os.makedirs(os.path.join(root, 'proc'))
        subprocess.run(['mount', '-t', 'proc', 'proc', os.path.join(root, 'proc')], check=True)
        mounts.append(os.path.join(root, 'proc'))
        stop = ['start-stop-daemon', '--stop', '--oknodo', '--quiet', '--exec', prog]

        host = subprocess.Popen([prog, '300'])
        try:
            r = subprocess.run([WRAPPER, root] + stop, capture_output=True, text=True)
            ok(r.returncode == 0 and alive(host),
               'through chroot-pidns.sh the root\'s start-stop-daemon leaves the host\'s '
               'process running', r.stderr)
        finally:
            host.kill()
            host.wait()

        host = subprocess.Popen([prog, '300'])
        try:
            subprocess.run(['chroot', root] + stop, capture_output=True)
            ok(not alive(host), 'the control: through a plain chroot it stops the host\'s process')
        finally:
            host.kill()
            host.wait()
    finally:
        for m in reversed(mounts):
            subprocess.run(['umount', '-l', m])
        subprocess.run(['rm', '-rf', '--one-file-system', work])
    return finish()


if __name__ == '__main__':
    sys.exit(main())
