#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: check-powercut suite=check timeout=1500 parallel=false protocol=tap env=test
#    needs=fuse3 depends=sdtunerctl,sdt_fake_card args=@sdtunerctl@,@sdt_fake_card@
"""Power cuts during the authenticity check, as on a Pi (issue 33, item 1).

The state folder is on the card being checked: `sdtunerctl --root R` with R the stand-in's
own ext4 (R/var/lib/sd-tuner on the card), R/run a tmpfs.  A cut, at a point taken from the
check's own progress (right after the N-th return of one of its system calls: the journal's
fsync, rename and removal, the batch's writes, syncs and put-back, FIFREEZE/FITHAW; strace
stops the check there):

  1. the card takes no write from that instant (sdt-fake-card's SIGPWR: what the kernel
     still flushes goes nowhere), then the check dies (SIGKILL) and /run is unmounted;
  2. the mount and the loop device go, the stand-in stops; it starts again from the bytes it
     stored, at the same loop device node, and ext4 is mounted again (its journal replayed)
     with a fresh tmpfs at R/run: the boot;
  3. the boot-time repair as sd-tuner-verify.service runs it: `sdtunerctl --root R verify`.

After every cut: verify exits 0; every user file's SHA-256 as before; e2fsck -fn clean; on
the Pi OS layout the first 4 MiB (partition table) and the boot partition byte for byte as
before; nothing of the check left (no journal in the state folder or in /run, no file but
what a cut-free check and verify leave, the free space back).

Stand-ins: wrap 512/333 and zeros 700/350 MiB, each with the plain layout and the Pi OS one
(FAKE_LAYOUT=pios), wrap 803/773 Pi OS (a journal copy lands above R and aliases the boot
partition) and wrap 1024/800 Pi OS 'crowd' (the free space below R + 8 MiB taken first);
$SDT_POWERCUT_CUTS cuts on each (default 6: 36 cuts).  A longer sweep:
SDT_POWERCUT_CUTS=25 SDT_POWERCUT_STANDINS=wrap:1000:700,zeros:512:460:pios,...;
SDT_POWERCUT_SEED varies the points.  The points: a check run without a cut is traced
first; half of the cuts go after its landmarks (every traced call but the block writes, from
the journal's first sync on), half after block writes spread over the batches.

usage: test-check-powercut.py SDTUNERCTL SDT_FAKE_CARD   (as root; prints TAP)"""
import json
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
sys.path.insert(0, os.path.join(HERE, '..', 'fake-card'))
import sdttap  # noqa: E402
from sdttap import finish, ok, skip  # noqa: E402
import sdtfakecard as fc  # noqa: E402
import sdtpowercut as pc  # noqa: E402
from sdtpowercut import bad, choose_points, one_cut, survey  # noqa: E402

pc.CTL = os.path.abspath(sys.argv[1])
os.environ['SDT_FAKE_CARD'] = os.path.abspath(sys.argv[2])
CI = os.environ.get('CI') == 'true'
MIB = fc.MIB
sdttap.detail_lines = 60

# wrap 803/773 on the Pi OS layout: main's journal copies, written through the file system at
# the top of the fresh root (above R), landed in the boot partition (two blocks near 29.7
# and 30.0 MiB); since the copies keep out of the top run's blocks they lie below R there;
# 'crowd': every free block below R + 8 MiB taken first (fallocate: nothing written), so that
# the journal's copies must lie above R and alias the boot partition
DEFAULT_STANDINS = ('wrap:512:333,zeros:700:350,wrap:512:333:pios,zeros:700:350:pios,'
                    'wrap:803:773:pios,wrap:1024:800:crowd')


def standins():
    out = []
    for item in os.environ.get('SDT_POWERCUT_STANDINS', DEFAULT_STANDINS).split(','):
        f = item.split(':')
        out.append((f[0], int(f[1]), int(f[2]), f[3] if len(f) > 3 else 'plain'))
    return out


def run_standin(kind, claim, real, layout, cuts, rng, totals):
    name = f'{kind} {claim}/{real} MiB {layout}'
    crowd = layout == 'crowd'
    card = fc.Card(kind, claim, real, layout='pios' if crowd else layout)
    try:
        os.makedirs(os.path.join(card.mnt, 'var', 'lib', 'sd-tuner'), mode=0o700)
        os.makedirs(os.path.join(card.mnt, 'run'), mode=0o755)
        if crowd:
            card.crowd_below((real + 8) * MIB)
            pc.replug(card)
        card.save_files()
        regions = card.region_sums()
        os.environ['G_MESSAGES_DEBUG'] = 'all'  # where the journal's copies lie
        try:
            rc, out, err, events, vrc, vout = survey(card)
        finally:
            del os.environ['G_MESSAGES_DEBUG']
        # GLib writes debug messages to stdout, among the JSON
        copies = [int(m.group(1))
                  for m in re.finditer(r'journal copy \S+ at (\d+) ', out + err)]
        out = '\n'.join(line for line in out.splitlines() if ': DEBUG: ' not in line)
        above = [c for c in copies if c >= real * MIB]
        print(f'# {name}: the journal\'s copies at ' +
              ', '.join(f'{c / MIB:.1f} MiB' for c in copies) +
              f' ({len(above)} above R = {real} MiB' +
              (': on this fake they alias ' + ', '.join(f'{(c % (real * MIB)) / MIB:.1f} MiB'
                                                     for c in above) if above else '') + ')',
              flush=True)
        # where the copies lie is read from the check's debug line ("journal copy PATH at N"):
        # every stand-in must show its three; 'crowd' must also put one above R (its case)
        ok(len(copies) >= 3, f'{name}: the check logged where its 3 journal copies lie',
           f'copies at {copies}\n{err[-1500:]}')
        if crowd:
            ok(len(above) >= 1, f'{name}: a journal copy lies above R (it aliases a low place)',
               f'copies at {copies}')
        err = '\n'.join(line for line in err.splitlines() if ': DEBUG: ' not in line)
        allowed = set(card.files_now())  # what a cut-free check and verify leave
        clean = card.judge(allowed, regions)
        clean_bad = [k for k in ('damaged', 'left', 'regions') if clean[k]]
        try:
            verdict = json.loads(out).get('verdict')
        except ValueError:
            verdict = None
        ok(rc == 0 and vrc == 0 and clean['fsck'] is None and not clean_bad and
           verdict == 'fake',
           f'{name}: a check without a cut says fake and keeps everything',
           f'check {rc}: {out[-2000:]}{err[-2000:]}\nverify {vrc}: {vout}\n{clean}')
        free_before = clean['free_bytes']
        points = choose_points(events, cuts, rng)
        ok(len(points) >= min(cuts, 4), f'{name}: {len(points)} kill points from '
           f'{len(events)} traced calls', str(events[:50]))
        pc.umount_run_and_keep(card)
        for point in points:
            found = one_cut(card, point, allowed, regions, free_before)
            why = bad(found)
            totals['cuts'] += 1
            totals['out'] += bool(found['at_boot'])
            totals['hit'] += found['hit']
            totals['damaged'] += len(found['damaged'])
            totals['lost'] += found.get('bytes_lost') or 0
            totals['fsck'] += found['fsck'] is not None
            totals['regions'] += bool(found['regions'])
            totals['left'] += bool(found['left'] or found['left_state'] or found['left_run'])
            totals['bad'] += bool(why)
            where = f'after {point[0]} #{point[1]}' + ('' if found['hit'] else
                                                        ' (the check ended before)')
            state = ('journal on the card at the boot: ' + ' '.join(found['at_boot'])
                     if found['at_boot'] else 'nothing of the check on the card at the boot')
            ok(not why, f'{name}: power cut {where}; {state}; '
               + ('; '.join(why) if why else 'all kept'),
               f'verify: {found["verify_out"]}\n'
               f'damaged: {" ".join(found["damaged"][:20])}\n{found["fsck"] or ""}')
            if why:
                pc.restore(card)
    finally:
        fc.umount_run(card.mnt) if os.path.isdir(card.mnt) else None
        card.down()


def main():
    why = fc.missing()
    if why:
        if CI:
            ok(False, 'power cuts during the check', f'{why} (CI=true: this must run)')
        else:
            skip('power cuts during the check', why)
        sys.exit(finish())
    cuts = int(os.environ.get('SDT_POWERCUT_CUTS', '6'))
    rng = random.Random(int(os.environ.get('SDT_POWERCUT_SEED', '33')))
    totals = dict.fromkeys(['cuts', 'out', 'hit', 'damaged', 'lost', 'fsck', 'regions', 'left',
                            'bad'], 0)
    for kind, claim, real, layout in standins():
        try:
            run_standin(kind, claim, real, layout, cuts, rng, totals)
        except fc.CardError as e:
            ok(False, f'{kind} {claim}/{real} MiB {layout}: the harness ran', str(e))
    print(f'# {totals["cuts"]} power cuts ({totals["hit"]} inside the check, '
          f'{totals["out"]} with its journal on the card at the boot): '
          f'{totals["bad"]} left damage; {totals["damaged"]} user files damaged '
          f'({totals["lost"]} bytes lost), '
          f'{totals["fsck"]} e2fsck errors, {totals["regions"]} changed the partition table '
          f'or boot partition, {totals["left"]} left something behind', flush=True)
    # the harness itself: enough cuts, and inside the batches (not all before or after)
    ok(totals['cuts'] >= min(30, 4 * cuts) and totals['out'] >= totals['cuts'] // 3,
       f'{totals["cuts"]} cuts, {totals["out"]} of them with a journal on the card at the boot',
       'too few cuts hit the check while its blocks were out')
    sys.exit(finish())


if __name__ == '__main__':
    main()
