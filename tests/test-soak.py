#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: soak suite=integration timeout=300 parallel=false protocol=tap env=test needs=fuse3
#    args=@sdtunerctl@,@sdt_flipfs@
"""`sdtunerctl --root DIR bench --profile soak --dir D` for real: on a loop device with ext4, and
on a loop device over sdt-flipfs, a FUSE file that inverts one byte per 4 KiB page on read above
a given offset (a card returning wrong data), which the soak test must catch, naming the offset.
Needs root (loop devices, mounts, FUSE); skips with the reason otherwise.

usage: test-soak.py SDTUNERCTL SDT_FLIPFS   (run by meson; prints TAP)"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from sdttap import finish, ok

CTL = os.path.abspath(sys.argv[1])
FLIPFS = os.path.abspath(sys.argv[2])
MIB = 1024 * 1024


def sh(*cmd, check=True):
    return subprocess.run(list(cmd), capture_output=True, text=True, check=check)


def soak(root, d, *args):
    env = dict(os.environ, LANGUAGE='C', LC_ALL='C.UTF-8')
    env.pop('SDTUNER_ROOT', None)
    return subprocess.run([CTL, '--root', root, 'bench', '--profile', 'soak', '--dir', d, *args],
                          capture_output=True, text=True, env=env, timeout=600)


if os.geteuid() != 0 or shutil.which('losetup') is None:
    print('1..0 # SKIP needs root and losetup (loop devices, mounts, FUSE)')
    sys.exit(0)

tmp = tempfile.mkdtemp(prefix=f'sdt-soak-{os.getpid()}-')
root = os.path.join(tmp, 'root')
os.makedirs(root)
cleanup = []
try:
    # a plain loop device with ext4
    img = os.path.join(tmp, 'card.img')
    with open(img, 'wb') as f:
        f.truncate(96 * MIB)
    sh('mkfs.ext4', '-q', '-b', '4096', '-O', '^has_journal', img)
    loop = sh('losetup', '-f', '--show', img).stdout.strip()
    cleanup.append(['losetup', '-d', loop])
    mnt = os.path.join(tmp, 'mnt')
    os.makedirs(mnt)
    sh('mount', loop, mnt)
    cleanup.append(['umount', mnt])
    before = sorted(os.listdir(mnt))
    p = soak(root, mnt, '--json', '--size', '32', '--seconds', '0')
    doc = json.loads(p.stdout) if p.returncode == 0 else None
    s = doc['soak'] if doc else {}
    print(f'# loop device: {json.dumps(s)}')
    ok(doc is not None and doc['profile'] == 'soak' and s['bytes_written'] == 32 * MIB
       and s['bytes_checked'] == 32 * MIB and s['mismatches'] == 0 and s['first_bad_offset'] is None
       and s['rounds'] == 1 and doc['target']['device'] == os.path.basename(loop),
       'loop device: 32 MiB written and every byte checked, clean', p.stdout + p.stderr)
    ok(sorted(os.listdir(mnt)) == before, 'loop device: no file left behind', os.listdir(mnt))
    # the human output counts with the right plural form (issue 24): one round
    p = soak(root, mnt, '--size', '16', '--seconds', '0')
    ok(p.returncode == 0 and ' in 1 round (' in p.stdout and 'rounds' not in p.stdout
       and f'Wrote {16 * MIB} bytes and checked {16 * MIB} bytes' in p.stdout,
       'loop device: "in 1 round", not "1 rounds"', p.stdout + p.stderr)
    p = soak(root, mnt, '--json', '--size', '16', '--seconds', '2')
    s = json.loads(p.stdout)['soak'] if p.returncode == 0 else {}
    ok(p.returncode == 0 and s['rounds'] >= 2 and s['bytes_checked'] == s['rounds'] * 16 * MIB
       and s['bytes_written'] == s['bytes_checked'] and s['mismatches'] == 0,
       'loop device: rounds repeat until the time is up, each checked in full', p.stdout + p.stderr)
    p = soak(root, mnt, '--size', '16', '--seconds', '1')
    ok(p.returncode == 0 and re.search(r' in ([2-9]|\d\d+) rounds \(', p.stdout) is not None,
       'loop device: several rounds, "in N rounds"', p.stdout + p.stderr)
    filler = os.path.join(mnt, 'filler')
    with open(filler, 'wb') as f:
        f.write(b'\1' * (56 * MIB))
    p = soak(root, mnt, '--size', '40', '--seconds', '0')
    os.unlink(filler)
    ok(p.returncode == 1 and 'Not enough free space' in p.stderr and sorted(os.listdir(mnt)) == before,
       'loop device: refuses without the free space, leaves nothing', p.stderr)
    p = soak(root, mnt, '--size', '3', '--seconds', '0')
    ok(p.returncode == 1 and 'MiB from 8' in p.stderr, 'size below the bound is refused', p.stderr)
    p = subprocess.run([CTL, '--root', root, 'bench', '--profile', 'quick', '--size', '16', '--dir', mnt],
                       capture_output=True, text=True)
    ok(p.returncode == 2 and 'soak profile' in p.stderr, '--size with another profile is bad usage', p.stderr)
    p, hist = None, None
    p = subprocess.run([CTL, '--root', root, '--json', 'history'], capture_output=True, text=True)
    kinds = [e['kind'] for e in json.loads(p.stdout)['entries']]
    # the two JSON runs and the two human ones (the plural checks)
    ok(kinds == ['soak'] * 4, 'each soak run is in the history', kinds)

    # the corrupting stand-in: ext4 on a loop device over a FUSE file that flips bytes on read
    back = os.path.join(tmp, 'flip-backing.img')
    with open(back, 'wb') as f:
        f.truncate(96 * MIB)
    sh('mkfs.ext4', '-q', '-b', '4096', '-O', '^has_journal', back)
    fmnt = os.path.join(tmp, 'fuse')
    os.makedirs(fmnt)
    fuse = subprocess.Popen([FLIPFS, back, str(40 * MIB), fmnt])
    cleanup.append(['fusermount3', '-u', fmnt])
    for _ in range(100):
        if os.path.exists(os.path.join(fmnt, 'card')):
            break
        time.sleep(0.05)
    floop = sh('losetup', '-f', '--show', os.path.join(fmnt, 'card')).stdout.strip()
    cleanup.append(['losetup', '-d', floop])
    fcard = os.path.join(tmp, 'fcard')
    os.makedirs(fcard)
    sh('mount', floop, fcard)
    cleanup.append(['umount', fcard])
    p = soak(root, fcard, '--json', '--size', '64', '--seconds', '0')
    doc = json.loads(p.stdout) if p.returncode == 0 else None
    s = doc['soak'] if doc else {}
    print(f'# FUSE stand-in: {json.dumps(s)}')
    ok(doc is not None and s['bytes_checked'] == 64 * MIB and s['mismatches'] > 0
       and s['first_bad_offset'] is not None and s['first_bad_offset'] % 4096 == 1234,
       'FUSE byte-flipping stand-in: caught, first bad offset at page offset 1234', p.stdout + p.stderr)
    # control: the same stack with the flips above the end of the image reads back clean,
    # so the mismatches above are the stand-in's, not the soak test's
    sh('umount', fcard)
    sh('losetup', '-d', floop)
    sh('fusermount3', '-u', fmnt)
    fuse.wait(timeout=10)
    fuse = subprocess.Popen([FLIPFS, back, str(1 << 40), fmnt])
    for _ in range(100):
        if os.path.exists(os.path.join(fmnt, 'card')):
            break
        time.sleep(0.05)
    floop = sh('losetup', '-f', '--show', os.path.join(fmnt, 'card')).stdout.strip()
    sh('mount', floop, fcard)
    cleanup[-3:] = [['fusermount3', '-u', fmnt], ['losetup', '-d', floop], ['umount', fcard]]
    p = soak(root, fcard, '--json', '--size', '64', '--seconds', '0')
    s = json.loads(p.stdout)['soak'] if p.returncode == 0 else {}
    ok(p.returncode == 0 and s['mismatches'] == 0 and s['bytes_checked'] == 64 * MIB,
       'control: the FUSE stack without flips reads back clean', p.stdout + p.stderr)
    sh('umount', fcard)
    sh('losetup', '-d', floop)
    sh('fusermount3', '-u', fmnt)
    fuse.wait(timeout=10)
    fuse = subprocess.Popen([FLIPFS, back, str(40 * MIB), fmnt])
    for _ in range(100):
        if os.path.exists(os.path.join(fmnt, 'card')):
            break
        time.sleep(0.05)
    floop = sh('losetup', '-f', '--show', os.path.join(fmnt, 'card')).stdout.strip()
    sh('mount', floop, fcard)
    cleanup[-3:] = [['fusermount3', '-u', fmnt], ['losetup', '-d', floop], ['umount', fcard]]
    p = soak(root, fcard, '--size', '64', '--seconds', '0')
    ok(p.returncode == 0 and 'DATA ERROR' in p.stdout and 'bytes read back wrong, the first at offset' in p.stdout,
       'FUSE stand-in: the text output names the error and the offset', p.stdout + p.stderr)
finally:
    # in reverse: the ext4 mounts, their loop devices, the FUSE mount
    for cmd in reversed(cleanup):
        subprocess.run(cmd, capture_output=True)
    try:
        fuse.terminate()
        fuse.wait(timeout=5)
    except NameError:
        pass
    shutil.rmtree(tmp, ignore_errors=True)
sys.exit(finish())
