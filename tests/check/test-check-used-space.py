#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: check-used-space suite=check timeout=900 parallel=false protocol=tap env=test
#    needs=fuse3 depends=sdtunerctl,sdt_fake_card args=@sdtunerctl@,@sdt_fake_card@
"""The check on a card whose free space is not fresh: what a running Pi leaves.

On a Pi the state folder is on the card being checked, and the file system hands the
check's journal copies the blocks freed last next to it: after a benchmark (its 64 MiB
test file of random bytes, in the same state folder, removed when it ends) or any file
written and removed there, those blocks hold data.  The copies take only blocks that hold
one byte value (on a wrap fake they may alias a user's data, which the check must put back
exactly), so the check has to look past what was freed.  CI, trixie on the emulated Pi 3:
`sdtunerctl check` right after two benchmarks said "no free space on the card that holds
only one byte value ... it wrote nothing".

Stand-ins (tests/fake-card: the FUSE file under a loop device, ext4, user files with
SHA-256 sums), `sdtunerctl --root MNT` with the state folder MNT/var/lib/sd-tuner on the
card and MNT/run a tmpfs:
  - genuine 4096 MiB, Pi OS layout: `bench --profile quick` in the state folder, then the
    check: "genuine", its three copies logged, everything kept, nothing left;
  - genuine 4096 MiB: 120 MiB of random bytes written in the state folder and removed, then
    the check: the same (the copies past the freed data);
  - wrap 4096/3000 MiB, Pi OS layout, after a benchmark: "fake", everything kept;
  - genuine 700 MiB whose every free block holds data (random files filling the card, then
    removed): the check cannot place its journal: a clear error, exit 1, nothing written
    (user files, the file system and the free space as before, no journal, no stray file).

usage: test-check-used-space.py SDTUNERCTL SDT_FAKE_CARD   (as root; prints TAP)"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
sys.path.insert(0, os.path.join(HERE, '..', 'fake-card'))
import sdttap  # noqa: E402
from sdttap import finish, ok, skip  # noqa: E402
import sdtfakecard as fc  # noqa: E402

CTL = os.path.abspath(sys.argv[1])
os.environ['SDT_FAKE_CARD'] = os.path.abspath(sys.argv[2])
CI = os.environ.get('CI') == 'true'
MIB = fc.MIB
sdttap.detail_lines = 40


def state_dir(card):
    return os.path.join(card.mnt, 'var', 'lib', 'sd-tuner')


def run(argv, timeout=900):
    env = dict(os.environ, G_MESSAGES_DEBUG='all')  # where the journal's copies lie
    r = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env=env)
    copies = [int(m.group(1)) for m in re.finditer(r'journal copy \S+ at (\d+) ',
                                                   r.stdout + r.stderr)]
    out = '\n'.join(line for line in r.stdout.splitlines() if ': DEBUG: ' not in line)
    err = '\n'.join(line for line in r.stderr.splitlines() if ': DEBUG: ' not in line)
    return r.returncode, out, err, copies


def dirty(card, mib, name='old-data'):
    """@mib MiB of random bytes written in the state folder, synced, then removed"""
    path = os.path.join(state_dir(card), name)
    with open(path, 'wb') as f:
        left = mib * MIB
        while left > 0:
            n = min(left, 4 * MIB)
            f.write(os.urandom(n))
            left -= n
        f.flush()
        os.fsync(f.fileno())
    os.unlink(path)
    os.sync()


def fill_all(card):
    """every free block written with random bytes, then the files removed again"""
    n = 0
    while True:
        path = os.path.join(state_dir(card), f'fill-{n}')
        try:
            with open(path, 'wb') as f:
                for _ in range(8):
                    f.write(os.urandom(4 * MIB))
                f.flush()
                os.fsync(f.fileno())
        except OSError:
            break
        n += 1
    for name in os.listdir(state_dir(card)):
        if name.startswith('fill-'):
            os.unlink(os.path.join(state_dir(card), name))
    os.sync()
    return n


def prepare(kind, claim, real, layout):
    card = fc.Card(kind, claim, real, layout=layout)
    os.makedirs(state_dir(card), mode=0o700)
    fc.mount_run(card.mnt)
    return card


def judge_clean(card, allowed, regions, name, detail):
    found = card.judge(allowed, regions)
    bad = {k: found[k] for k in ('damaged', 'left', 'regions') if found[k]}
    if found['fsck'] is not None:
        bad['fsck'] = found['fsck']
    ok(not bad, f'{name}: every user file, the file system and the card as before, '
       'nothing left', f'{bad}\n{detail}')
    return found


def case(name, kind, claim, real, layout, before, want):
    card = prepare(kind, claim, real, layout)
    try:
        if before == 'bench':
            rc, out, err, _ = run([CTL, '--root', card.mnt, '--json', 'bench', '--profile',
                                   'quick', '--dir', state_dir(card)])
            ok(rc == 0, f'{name}: a quick benchmark in the state folder first',
               f'{rc}: {out[-800:]}{err[-800:]}')
        elif before == 'full':
            n = fill_all(card)
            print(f'# {name}: {n} files of 32 MiB of random bytes filled the card, removed')
        else:
            dirty(card, before)
        os.sync()
        card.save_files()
        regions = card.region_sums()
        allowed = set(card.files_now())
        free_before = os.statvfs(card.mnt).f_bfree
        rc, out, err, copies = run([CTL, '--root', card.mnt, '--json', 'check', '--dir',
                                    card.mnt])
        print(f'# {name}: exit {rc}, journal copies at ' +
              ', '.join(f'{c / MIB:.1f} MiB' for c in copies))
        try:
            res = json.loads(out)
        except ValueError:
            res = {}
        if want == 'no-place':
            ok(rc == 1 and 'one byte value' in err,
               f'{name}: the check says it found no place for its journal and wrote '
               'nothing', f'{rc}: {out[-800:]}{err[-1500:]}')
        else:
            ok(rc == 0 and res.get('verdict') == want,
               f'{name}: the check says "{want}"', f'{rc}: {out[-1500:]}{err[-1500:]}')
            # three for the first batch, three more where a bigger batch needs bigger ones
            ok(len(copies) >= 3, f'{name}: its three journal copies were placed',
               f'copies at {copies}')
        judge_clean(card, allowed, regions, name, err[-800:])
        ok(abs(os.statvfs(card.mnt).f_bfree - free_before) <= 256,
           f'{name}: the free space is back', f'{free_before} -> '
           f'{os.statvfs(card.mnt).f_bfree} blocks')
        left = os.listdir(state_dir(card))
        ok(not [n for n in left if 'journal' in n or n.startswith('check')],
           f'{name}: no journal left in the state folder', str(left))
    finally:
        fc.umount_run(card.mnt)
        card.down()


def main():
    if os.geteuid() != 0 or fc.missing():
        why = 'needs root, FUSE and loop devices' + (f' ({fc.missing()})'
                                                      if fc.missing() else '')
        if CI:
            ok(False, 'the used-space check tests can run', why)
        else:
            skip('check on used free space', why)
        finish()
        return
    # 4 GiB, the smallest card Raspberry Pi OS fits on (the emulated Pi's): the check keeps
    # 5% of the file system free for the running system (205 MiB here) and its journal
    # can only lie there; on a 1 GiB card that is 51 MiB, less than a benchmark's file,
    # and the trixie tier's ext4 put it all there (no place: the clear error)
    case('genuine 4096 MiB Pi OS, after a benchmark', 'genuine', 4096, 4096, 'pios', 'bench',
         'genuine')
    case('genuine 4096 MiB, after 120 MiB written and removed', 'genuine', 4096, 4096,
         'plain', 120, 'genuine')
    case('wrap 4096/3000 MiB Pi OS, after a benchmark', 'wrap', 4096, 3000, 'pios', 'bench',
         'fake')
    case('genuine 700 MiB, every free block holding data', 'genuine', 700, 700, 'plain',
         'full', 'no-place')
    finish()


if __name__ == '__main__':
    main()
