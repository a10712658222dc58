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
(FAKE_LAYOUT=pios); $SDT_POWERCUT_CUTS cuts on each (default 8: 32 cuts).  A longer sweep:
SDT_POWERCUT_CUTS=25 SDT_POWERCUT_STANDINS=wrap:1000:700,zeros:512:460:pios,...;
SDT_POWERCUT_SEED varies the points.  The points: a check run without a cut is traced
first; half of the cuts go after its landmarks (every traced call but the block writes, from
the journal's first sync on), half after block writes spread over the batches.

usage: test-check-powercut.py SDTUNERCTL SDT_FAKE_CARD   (as root; prints TAP)"""
import json
import os
import random
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
sdttap.detail_lines = 60

DEFAULT_STANDINS = 'wrap:512:333,zeros:700:350,wrap:512:333:pios,zeros:700:350:pios'
# the calls that are not landmarks: the block writes themselves
WRITES = ('pwrite64', 'pwritev', 'write')


def standins():
    out = []
    for item in os.environ.get('SDT_POWERCUT_STANDINS', DEFAULT_STANDINS).split(','):
        f = item.split(':')
        out.append((f[0], int(f[1]), int(f[2]), f[3] if len(f) > 3 else 'plain'))
    return out


def check_argv(card):
    return [CTL, '--root', card.mnt, '--json', 'check', '--dir', card.mnt]


def verify(card):
    """the verify unit's command (data/systemd/sd-tuner-verify.service.in) on this root"""
    r = subprocess.run([CTL, '--root', card.mnt, 'verify'], capture_output=True, text=True,
                       timeout=600)
    return r.returncode, (r.stdout + r.stderr).strip()


def state_files(card):
    """what is in the state folder on the card (relative paths)"""
    top = os.path.join(card.mnt, 'var', 'lib', 'sd-tuner')
    return sorted(os.path.relpath(os.path.join(d, n), top)
                  for d, dirs, files in os.walk(top) for n in dirs + files)


def run_files(card):
    top = os.path.join(card.mnt, 'run')
    return sorted(os.path.relpath(os.path.join(d, n), top)
                  for d, _, files in os.walk(top) for n in files)


def ensure_run(card):
    if os.path.join(card.mnt, 'run') not in fc._mounts_under(card.mnt):
        fc.mount_run(card.mnt)


def choose_points(events, cuts, rng):
    """@cuts kill points from a traced check's calls: (name, n-th of that name)"""
    start = next((i for i, (name, _) in enumerate(events)
                  if name in ('fsync', 'fdatasync', 'rename', 'renameat2')), None)
    if start is None:
        return []
    window = events[start:]
    land = [e for e in window if e[0] not in WRITES]
    writes = [e for e in window if e[0] in WRITES]
    n_land = min(len(land), (cuts + 1) // 2)
    points = []
    if n_land:
        step = len(land) / n_land
        off = rng.random()
        points += [land[min(len(land) - 1, int((k + off) * step))] for k in range(n_land)]
    n_writes = cuts - len(points)
    if writes and n_writes:
        step = len(writes) / n_writes
        points += [writes[min(len(writes) - 1, int((k + rng.random()) * step))]
                   for k in range(n_writes)]
    # in the order the check reaches them
    order = {e: i for i, e in enumerate(window)}
    return sorted(set(points), key=lambda e: order[e])


def survey(card):
    """a check without a cut, traced: its calls, and what it and verify leave"""
    ensure_run(card)
    st = fc.Stopper(check_argv(card))
    rc, out, err = st.finish()
    events = st.events()
    st.close()
    vrc, vout = verify(card)
    return rc, out, err, events, vrc, vout


def one_cut(card, point, allowed, regions, free_before):
    """a power cut right after @point, the boot, verify; what it found (and a line)"""
    ensure_run(card)
    st = fc.Stopper(check_argv(card), point)
    try:
        hit = st.wait_stop()
    except fc.CardError:
        hit = False
    card.cut()          # the power goes: the card first, then everything else
    st.kill()
    st.close()
    fc.umount_run(card.mnt)
    card.unplug()
    try:
        card.plug()     # the boot: the card from what it stored, ext4 replayed
    except fc.CardError as e:
        # the Pi would not even mount its root
        return {'hit': hit, 'unmountable': str(e), 'at_boot': ['?'], 'verify_rc': None,
                'verify_out': '', 'damaged': sorted(card.sums), 'fsck': str(e), 'regions': [],
                'left': [], 'left_state': [], 'left_run': [], 'free_lost': 0}
    at_boot = [p for p in state_files(card) if p not in allowed_state(allowed)]
    fc.mount_run(card.mnt)
    vrc, vout = verify(card)
    left_state = [p for p in state_files(card) if p not in allowed_state(allowed)]
    left_run = run_files(card)
    found = card.judge(allowed, regions)
    found.update(hit=hit, at_boot=at_boot, verify_rc=vrc, verify_out=vout,
                 left_run=left_run, left_state=left_state)
    found['free_lost'] = max(0, free_before - found['free_bytes'])
    return found


def allowed_state(allowed):
    prefix = os.path.join('var', 'lib', 'sd-tuner') + os.sep
    return {p[len(prefix):] for p in allowed if p.startswith(prefix)}


def bad(found):
    why = []
    if found.get('unmountable'):
        return ['the card no longer mounts (every user file lost to the Pi)']
    if found['verify_rc'] != 0:
        why.append(f'verify exited {found["verify_rc"]}')
    if found['damaged']:
        why.append(f'{len(found["damaged"])} user files damaged')
    if found['fsck'] is not None:
        why.append('e2fsck -fn found errors')
    if found['regions']:
        why.append('changed: ' + ', '.join(found['regions']))
    if found['left'] or found['left_state'] or found['left_run']:
        # (the state folder is on the card: what it keeps is in 'left' too)
        why.append('left behind: ' + ' '.join(found['left'] +
                                              ['run/' + p for p in found['left_run']]))
    if found['free_lost'] > MIB:
        why.append(f'{found["free_lost"] // MIB} MiB of free space not back')
    return why


def run_standin(kind, claim, real, layout, cuts, rng, totals):
    name = f'{kind} {claim}/{real} MiB {layout}'
    card = fc.Card(kind, claim, real, layout=layout)
    try:
        os.makedirs(os.path.join(card.mnt, 'var', 'lib', 'sd-tuner'), mode=0o700)
        os.makedirs(os.path.join(card.mnt, 'run'), mode=0o755)
        regions = card.region_sums()
        rc, out, err, events, vrc, vout = survey(card)
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
        # the card as it is now, to start again from after a cut that broke it
        fc.umount_run(card.mnt)
        card.unplug()
        card.keep()
        card.plug()
        for point in points:
            found = one_cut(card, point, allowed, regions, free_before)
            why = bad(found)
            totals['cuts'] += 1
            totals['out'] += bool(found['at_boot'])
            totals['hit'] += found['hit']
            totals['damaged'] += len(found['damaged'])
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
                fc.umount_run(card.mnt)
                card.unplug()
                card.restore()
                card.plug()
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
    cuts = int(os.environ.get('SDT_POWERCUT_CUTS', '8'))
    rng = random.Random(int(os.environ.get('SDT_POWERCUT_SEED', '33')))
    totals = dict.fromkeys(['cuts', 'out', 'hit', 'damaged', 'fsck', 'regions', 'left', 'bad'],
                           0)
    for kind, claim, real, layout in standins():
        try:
            run_standin(kind, claim, real, layout, cuts, rng, totals)
        except fc.CardError as e:
            ok(False, f'{kind} {claim}/{real} MiB {layout}: the harness ran', str(e))
    print(f'# {totals["cuts"]} power cuts ({totals["hit"]} inside the check, '
          f'{totals["out"]} with its journal on the card at the boot): '
          f'{totals["bad"]} left damage; {totals["damaged"]} user files damaged, '
          f'{totals["fsck"]} e2fsck errors, {totals["regions"]} changed the partition table '
          f'or boot partition, {totals["left"]} left something behind', flush=True)
    # the harness itself: enough cuts, and inside the batches (not all before or after)
    ok(totals['cuts'] >= min(30, 4 * cuts) and totals['out'] >= totals['cuts'] // 3,
       f'{totals["cuts"]} cuts, {totals["out"]} of them with a journal on the card at the boot',
       'too few cuts hit the check while its blocks were out')
    sys.exit(finish())


if __name__ == '__main__':
    main()
