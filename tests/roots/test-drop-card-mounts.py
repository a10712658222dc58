#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: drop-card-mounts suite=integration timeout=120 parallel=false protocol=tap
#    needs=fuse3 depends=sdt_fake_card args=@sdt_fake_card@
"""A mount namespace made while a stand-in card is mounted lets the card go
(tests/roots/drop-card-mounts.sh).

A new mount namespace copies every mount there is; the copy of a stand-in's file system keeps
it alive after the test unmounts its own, its loop device never lets go of the FUSE fake, and
the test's unplug fails "still in use" with no process holding anything (ci7, ci8:
check-powercut while mmdebstrap ran for minutes in such a namespace to build a tier's root).
Here: a Pi OS stand-in mounted (ext4 on its loop device, the FUSE fake under it); a namespace
made as the roots' builders make theirs (`unshare --pid --fork --mount-proc`) holding a
`sleep`, once plainly (the control: its mount table has the card's file system and its
fake) and once through drop-card-mounts.sh (neither), and the card unplugged while that one
lives. The script refuses to run without --in-new-namespace (in the host's namespace it
would unmount the running tests' cards).

usage: test-drop-card-mounts.py SDT_FAKE_CARD   (as root; prints TAP)"""
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
sys.path.insert(0, os.path.join(HERE, '..', 'fake-card'))
from sdttap import finish, ok, skip  # noqa: E402
import sdtfakecard as fc  # noqa: E402

SCRIPT = os.path.join(HERE, 'drop-card-mounts.sh')
os.environ['SDT_FAKE_CARD'] = os.path.abspath(sys.argv[1])


def namespace(wrapped):
    """a `sleep` in a namespace as the roots' builders make theirs; (process, its mounts)"""
    argv = ['unshare', '--pid', '--fork', '--kill-child', '--mount-proc']
    argv += [SCRIPT, '--in-new-namespace'] if wrapped else []
    p = subprocess.Popen(argv + ['sleep', '60'])
    # the sleep is unshare's grandchild: its mount table is the namespace's
    table = ''
    for _ in range(100):
        kids = subprocess.run(['pgrep', '-P', str(p.pid)], capture_output=True, text=True)
        for pid in kids.stdout.split():
            inner = subprocess.run(['pgrep', '-P', pid], capture_output=True, text=True)
            for leaf in inner.stdout.split() + [pid]:
                try:
                    with open(f'/proc/{leaf}/comm') as f:
                        if f.read().strip() != 'sleep':
                            continue
                    with open(f'/proc/{leaf}/mountinfo') as f:
                        table = f.read()
                except OSError:
                    continue
        if table:
            break
        time.sleep(0.05)
    return p, table


def main():
    why = fc.missing()
    if why:
        if os.environ.get('CI') == 'true':
            ok(False, 'drop-card-mounts', f'{why} (CI=true: this must run)')
        else:
            skip('drop-card-mounts', why)
        return finish()
    r = subprocess.run([SCRIPT, 'true'], capture_output=True, text=True)
    ok(r.returncode == 2 and 'in-new-namespace' in r.stderr,
       'without --in-new-namespace the script refuses (exit 2) and unmounts nothing',
       f'exit {r.returncode}: {r.stderr}')
    card = fc.Card('wrap', 512, 333, layout='pios', files=20)
    plain = wrapped = None
    try:
        plain, table = namespace(False)
        held = card.mnt in table and card.dir + '/fuse' in table
        plain.kill()
        plain.wait()
        ok(held, 'the control: a namespace made plainly holds the card\'s file system and its '
           'fake', table[-2000:])
        wrapped, table = namespace(True)
        free = table != '' and card.dir not in table
        ok(free, 'through drop-card-mounts.sh the namespace holds neither', table[-2000:])
        t0 = time.monotonic()
        try:
            card.unplug()
            unplugged, out = True, ''
        except fc.CardError as e:
            unplugged, out = False, str(e)
        ok(unplugged and wrapped.poll() is None,
           f'the card unplugged while that namespace lives ({time.monotonic() - t0:.1f} s)', out)
    finally:
        for p in (plain, wrapped):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait()
        card.down()
    return finish()


if __name__ == '__main__':
    sys.exit(main())
