# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
"""sdtpowercut.py - one power cut during the check with the state folder on the card, and
the boot after it (tests/check/test-check-powercut.py, bench/check-fakes.py --cuts).

The root R given to `sdtunerctl --root R` is the card's own ext4: R/var/lib/sd-tuner is on
the card, R/run a tmpfs.  survey() runs a check without a cut (traced) and the verify unit's
command; choose_points() takes kill points from its calls; one_cut() cuts the power right
after one of them, boots (the card from what it stored) and runs verify; bad() says what
the cut left wrong."""
import os
import subprocess

import sdtfakecard as fc

MIB = fc.MIB
CTL = None  # the sdtunerctl to run: set by the caller


# the calls that are not landmarks: the block writes themselves
WRITES = ('pwrite64', 'pwritev', 'write')


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
                'left': [], 'left_state': [], 'left_run': [], 'free_lost': 0,
                'bytes_lost': card.bytes_lost(sorted(card.sums))}
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




def replug(card):
    """the card out and in again: what ext4 keeps in its journal is at its place since"""
    fc.umount_run(card.mnt)
    card.unplug()
    card.plug()


def umount_run_and_keep(card):
    """a copy of the card as it is now, to start again from after a cut that broke it"""
    fc.umount_run(card.mnt)
    card.unplug()
    card.keep()
    card.plug()


def restore(card):
    """the card as keep() left it"""
    fc.umount_run(card.mnt)
    card.unplug()
    card.restore()
    card.plug()
