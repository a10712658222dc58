#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: check-device suite=check timeout=900 parallel=false protocol=tap env=test
#    needs=fuse3 depends=sdtunerctl,sdt_fake_card args=@sdtunerctl@,@sdt_fake_card@
"""A whole card checked in place, before it holds data (issue 34): `sdtunerctl --root R
check --device DEV`, in-process as root (the helper takes the same engine).

Stand-ins (tests/fake-card: the FUSE file under a loop device), not mounted: no file system
(FAKE_LAYOUT=raw), random bytes in all they really store (a put-back of anything but what
was there shows) or zeros (a stray write shows), or the stock Raspberry Pi OS layout with
its user files, taken out of the Pi (FAKE_UNMOUNTED=1): genuine 512 MiB, wrap 1000/700, zeros 900/899,
eio 2048/700, wrap 4096/1000, a 64 GiB claim holding 1 GiB, and cache 1024/512 (raw) and
2048/1500 (Pi OS) whose RAM caches of the last 32 and 12 MiB written answer the read-backs.
Each: the verdict right, a fake's range holding its real size, the write cache's range holding
a cache's size (none on a genuine card, after at least 32 MiB written), the map (the first cell "ok" on every card the check
wrote to, "wrap"/"lost-writes"/"io-error" at the claim's end of a fake), the SHA-256 of all
the card really stores (its backing file) identical before and after, no journal left,
within 60 s.

Killed with blocks out (strace stops the check right after a block write, then SIGKILL; and
once the card is then pulled and put back in at the same node): the card differs, and the
next check puts it back first: the SHA-256 as before.

Each result is in the history under the card's identity (`history --json` and in words).

Killed with blocks out, pulled, another card of the same size put in at its node (never
written: `devices` says the journal waits), the card put back in at another node:
`sdtunerctl --root R devices` finds it by its content and puts it back there.

Refused, the card unchanged: the system disk (its node and a symbolic link to it), a
mounted card, a partition of a card, a read-only card, a card another program holds
(O_EXCL), the full mode without a confirmation that names the device (the full mode:
tests/check/test-check-full-device.py), --dir with --device, a device that does not exist.

usage: test-check-device.py SDTUNERCTL SDT_FAKE_CARD   (as root; prints TAP)"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

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

# kind, claim MiB, real MiB, layout, what a raw card holds: random bytes (a put-back of
# anything but what was there shows) or zeros (any stray write shows; quicker to make)
CARDS = [
    ('genuine', 512, 512, 'raw', 'random'),
    ('wrap', 1000, 700, 'raw', 'random'),
    ('zeros', 900, 899, 'raw', 'zeros'),
    ('eio', 2048, 700, 'raw', 'zeros'),
    ('wrap', 4096, 1000, 'raw', 'zeros'),
    ('wrap', 65536, 1024, 'raw', 'zeros'),
    ('genuine', 1024, 1024, 'pios', None),
    ('wrap', 1000, 700, 'pios', None),
    ('cache', 1024, 512, 'raw', 'zeros'),
    ('cache', 2048, 1500, 'pios', None),
]
FAILURE = {'wrap': 'wrap', 'zeros': 'lost-writes', 'eio': 'io-error', 'cache': 'lost-writes'}
# the cache kind's RAM cache of the last writes (FAKE_CACHE): more than the quick check's
# first 8 MiB flush, which alone called such a card genuine (the cache round sizes it)
CACHE = {1024: 32 * MIB, 2048: 12 * MIB}


def check(root, device, *extra):
    argv = [CTL, '--root', root, '--json', 'check', '--device', device] + list(extra)
    t0 = time.monotonic()
    r = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    secs = time.monotonic() - t0
    try:
        res = json.loads(r.stdout) if r.returncode == 0 else None
    except ValueError:
        res = None
    return r.returncode, res, secs, f'$ {" ".join(argv)}\nexit {r.returncode}\n{r.stdout}{r.stderr}'


def journal_left(root):
    """the check's journal files left in the state folder or /run"""
    left = []
    for d in (os.path.join(root, 'var', 'lib', 'sd-tuner'), os.path.join(root, 'run')):
        for top, _dirs, files in os.walk(d):
            left += [os.path.join(top, f) for f in files if 'check-journal' in f]
    return left


def judge(kind, claim, real, res):
    """why the result is wrong, or None"""
    if res is None:
        return 'no result'
    map_ = res.get('map') or []
    if not map_ or map_[0]['from'] != 0 or map_[-1]['to'] != claim * MIB:
        return f'the map does not cover the card: {map_}'
    if not res['target'].get('whole_device'):
        return 'target.whole_device is not true'
    # sized by the write phase's first batch (a fake the read-only phase found has none)
    cache = res.get('write_cache')
    if cache is None and res['samples']['written'] > 0:
        return 'no write_cache'
    cache = cache or {'flushed_bytes': 0, 'at_least_bytes': None, 'at_most_bytes': None}
    if kind == 'genuine':
        if res['verdict'] != 'genuine':
            return f'verdict {res["verdict"]}, not genuine'
        if any(r['state'] != 'ok' for r in map_):
            return f'a genuine card with a region not ok: {map_}'
        # a cache found on a card that has none, or too little written to say so
        if cache['at_most_bytes'] is not None or cache['flushed_bytes'] < 32 * MIB:
            return f'write_cache {cache} on a card with no cache'
        return None
    if kind == 'cache' and not (cache['at_least_bytes'] or 0) < CACHE[claim] <= (
            cache['at_most_bytes'] or 0):
        return f'write_cache {cache} does not hold the cache of {CACHE[claim]}'
    if res['verdict'] != 'fake':
        return f'verdict {res["verdict"]}, not fake'
    lo, hi = res['capacity_at_least_bytes'], res['capacity_at_most_bytes']
    if not lo <= real * MIB <= hi:
        return f'the range {lo}..{hi} does not hold the real size {real * MIB}'
    if map_[-1]['state'] != FAILURE[kind]:
        return f'the map ends in {map_[-1]["state"]}, not {FAILURE[kind]}'
    # the card's start holds data on every stand-in: where the check wrote (not a fake the
    # read-only phase found), it probed there and read it back right
    if res['samples']['written'] > 0 and map_[0]['state'] != 'ok':
        return f'the map starts {map_[0]["state"]}, not ok: {map_}'
    return None


def run_cards(root):
    for kind, claim, real, layout, fill in CARDS:
        name = f'{kind} {claim}/{real} MiB, {layout}' + (f' ({fill})' if fill else '')
        os.environ['FAKE_CACHE'] = str(CACHE.get(claim, 4 * MIB))
        card = fc.Card(kind, claim, real, layout=layout, mounted=False, raw_fill=fill or 'random')
        try:
            before = fc.sha256_file(card.backing)
            rc, res, secs, out = check(root, card.loop)
            why = judge(kind, claim, real, res)
            same = fc.sha256_file(card.backing) == before
            left = journal_left(root)
            verdict = res['verdict'] if res else 'error'
            ok(why is None and same and not left and secs <= 60,
               f'{name}: {verdict} in {secs:.1f} s' + (f'; {why}' if why else '') +
               ('; every byte as before' if same else '; THE CARD CHANGED') +
               (f'; journal left: {left}' if left else ''), out)
        finally:
            card.down()


def history_kept(root, claims):
    """each check of a whole card is in the history under its identity: the device, its
    size in bytes, udev's words (a loop device: no bus, no serial, no CID)"""
    r = subprocess.run([CTL, '--root', root, '--json', 'history'], capture_output=True,
                       text=True, timeout=60)
    out = f'exit {r.returncode}\n{r.stdout[-3000:]}{r.stderr}'
    entries = json.loads(r.stdout)['entries'] if r.returncode == 0 else []
    ids = [e.get('identity') for e in entries if e['kind'] == 'check']
    good = len(ids) == len(claims) and all(
        i is not None and i['device'].startswith('loop') and i['size_bytes'] == c * MIB
        and i['cid'] is None and i['cid_serial'] is None and i['serial_of'] is None
        and 'bus' in i and 'vendor' in i and 'model' in i
        for i, c in zip(ids, claims))
    ok(good, f'{len(ids)} device checks kept in the history under their identity', out)
    t = subprocess.run([CTL, '--root', root, 'history'], capture_output=True, text=True,
                       timeout=60)
    ok(t.returncode == 0 and t.stdout.count('authenticity check of the card in loop') ==
       len(claims), 'history says which device each was', t.stdout + t.stderr)


def kill_and_repair(root, pull):
    name = 'wrap 1000/700 MiB killed with blocks out' + (', pulled and put back' if pull else '')
    card = fc.Card('wrap', 1000, 700, layout='raw')
    try:
        before = fc.sha256_file(card.backing)
        # right after the 40th block write: the first batch's blocks are out
        stop = fc.Stopper([CTL, '--root', root, 'check', '--device', card.loop],
                          point=('pwrite64', 40))
        stopped = stop.wait_stop()
        stop.kill()
        stop.close()
        if pull:
            card.unplug()
            card.plug()
        changed = fc.sha256_file(card.backing) != before
        rc, res, secs, out = check(root, card.loop)
        same = fc.sha256_file(card.backing) == before
        ok(stopped and changed and rc == 0 and same and not journal_left(root),
           f'{name}: stopped {stopped}, the card changed {changed}, the next check '
           f'(exit {rc}) put it back: {"every byte as before" if same else "NOT AS BEFORE"}',
           out)
    finally:
        card.down()


def devices(root):
    """`sdtunerctl --root R --json devices`: the repair at the sight of a card (R holds a
    copy of the host's mount table: the devices are the host's)"""
    argv = [CTL, '--root', root, '--json', 'devices']
    r = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    try:
        res = json.loads(r.stdout) if r.returncode == 0 else None
    except ValueError:
        res = None
    return res, f'$ {" ".join(argv)}\nexit {r.returncode}\n{r.stdout[:2000]}{r.stderr}'


def repair_elsewhere(root):
    """killed with blocks out, the card pulled; another card of the same size takes its
    node (never written: the journal waits); the card comes back at another node and
    `devices` puts it back there"""
    name = 'wrap 1000/700 MiB killed, put back in at another node'
    # without a journal `devices` makes and changes nothing under the root (it ran on the
    # read-only fixture roots of the devices tests and left /run/sd-tuner/check.lock there)
    bare = tempfile.mkdtemp(prefix='sdt-device-bare-', dir='/var/tmp')
    try:
        os.makedirs(os.path.join(bare, 'proc', 'self'))
        shutil.copy('/proc/self/mountinfo', os.path.join(bare, 'proc', 'self', 'mountinfo'))
        res, out = devices(bare)
        made = sorted(os.path.relpath(os.path.join(d, n), bare)
                      for d, dirs, files in os.walk(bare) for n in dirs + files)
        ok(res is not None and res['repaired'] == [] and res['repair_waiting'] is None
           and made == ['proc', 'proc/self', 'proc/self/mountinfo'],
           f'devices with no journal: nothing to put back, nothing made under the root {made}',
           out)
    finally:
        shutil.rmtree(bare, ignore_errors=True)
    os.makedirs(os.path.join(root, 'proc', 'self'), exist_ok=True)
    shutil.copy('/proc/self/mountinfo', os.path.join(root, 'proc', 'self', 'mountinfo'))
    card = fc.Card('wrap', 1000, 700, layout='raw')
    other = os.path.join(card.dir, 'other-card')
    other_loop = None
    try:
        before = fc.sha256_file(card.backing)
        stop = fc.Stopper([CTL, '--root', root, 'check', '--device', card.loop],
                          point=('pwrite64', 40))
        stopped = stop.wait_stop()
        stop.kill()
        stop.close()
        old_node = card.loop
        card.unplug()
        changed = fc.sha256_file(card.backing) != before
        # another card of the same size, random bytes, at the old node
        with open(other, 'wb') as f:
            for _ in range(1000):
                f.write(os.urandom(MIB))
        other_before = fc.sha256_file(other)
        subprocess.run(['losetup', old_node, other], check=True)
        other_loop = old_node
        text = subprocess.run([CTL, '--root', root, 'devices'], capture_output=True,
                              text=True, timeout=300)
        said = text.returncode == 0 and 'that card is not here' in text.stdout
        ok(said, f'{name}: devices says in words that the journal waits for its card',
           text.stdout + text.stderr)
        res, out = devices(root)
        waiting = res is not None and res.get('repaired') == [] and \
            'insert it' in (res.get('repair_waiting') or '')
        other_same = fc.sha256_file(other) == other_before
        kept = bool(journal_left(root))
        ok(stopped and changed and waiting and other_same and kept,
           f'{name}: stopped {stopped}, the card changed {changed}; another card at '
           f'{old_node}: devices says the journal waits ({waiting}), that card '
           f'{"untouched" if other_same else "WRITTEN"}, the journal kept ({kept})', out)
        new_node = fc.free_loop()
        card.plug_at(new_node)
        res, out = devices(root)
        repaired = res.get('repaired') if res else None
        same = fc.sha256_file(card.backing) == before
        other_same = fc.sha256_file(other) == other_before
        left = journal_left(root)
        ok(repaired is not None and len(repaired) == 1 and repaired[0]['device'] == new_node
           and repaired[0]['blocks'] > 0 and res.get('repair_waiting') is None and same
           and other_same and not left,
           f'{name}: devices put back {repaired} at {new_node}: '
           f'{"every byte as before" if same else "NOT AS BEFORE"}; the other card '
           f'{"untouched" if other_same else "WRITTEN"}; journal left: {left}', out)
    finally:
        if other_loop:
            subprocess.run(['losetup', '-d', other_loop], check=False)
        card.down()


def refusals(root):
    # the device under / (a bind mount's SOURCE is "/dev/vda[/sub/folder]")
    system = subprocess.run(['findmnt', '-no', 'SOURCE', '/'], capture_output=True,
                            text=True).stdout.strip().split('[')[0]
    disk = system
    pk = subprocess.run(['lsblk', '-no', 'PKNAME', system], capture_output=True,
                        text=True).stdout.strip()
    if pk:
        disk = '/dev/' + pk
    link = os.path.join(root, 'system-disk-link')
    os.symlink(disk, link)
    for what, dev in (('the system disk', disk), ('a link to the system disk', link)):
        rc, res, secs, out = check(root, dev)
        ok(rc == 1 and 'system disk' in out, f'{what} ({dev}) refused, exit {rc}', out)

    card = fc.Card('genuine', 512, 512, layout='pios')
    try:
        before = fc.sha256_file(card.backing, 0, 4 * MIB)
        rc, res, secs, out = check(root, card.loop)
        ok(rc == 1 and 'mounted' in out, f'a mounted card refused, exit {rc}', out)
        subprocess.run(['umount', card.mnt], check=True)
        rc, res, secs, out = check(root, card.part)
        ok(rc == 1 and 'partition' in out and card.loop in out,
           f'a partition ({card.part}) refused, naming the card, exit {rc}', out)
        ok(fc.sha256_file(card.backing, 0, 4 * MIB) == before,
           'the refused card: its partition table as before')
    finally:
        card.down()

    card = fc.Card('genuine', 512, 512, layout='raw', raw_fill='zeros')
    try:
        before = fc.sha256_file(card.backing)
        subprocess.run(['blockdev', '--setro', card.loop], check=True)
        rc, res, secs, out = check(root, card.loop)
        ok(rc == 1 and 'read-only' in out, f'a read-only card refused, exit {rc}', out)
        subprocess.run(['blockdev', '--setrw', card.loop], check=True)
        fd = os.open(card.loop, os.O_RDONLY | os.O_EXCL)
        try:
            rc, res, secs, out = check(root, card.loop)
        finally:
            os.close(fd)
        ok(rc == 1 and 'in use' in out, f'a card another program holds refused, exit {rc}', out)
        rc, res, secs, out = check(root, card.loop, '--full')
        ok(rc == 1 and 'confirmation that names' in out,
           f'the full mode without a confirmation refused, exit {rc}', out)
        r = subprocess.run([CTL, '--root', root, 'check', '--device', card.loop, '--dir', root],
                           capture_output=True, text=True)
        ok(r.returncode == 2 and 'not both' in r.stderr,
           f'--dir with --device refused, exit {r.returncode}', r.stderr)
        ok(fc.sha256_file(card.backing) == before, 'the refused card: every byte as before')
    finally:
        card.down()
    rc, res, secs, out = check(root, '/dev/sdt-no-such-card')
    ok(rc == 1 and 'no-such-card' in out, f'a device that does not exist refused, exit {rc}', out)


def main():
    why = fc.missing()
    if why:
        if CI:
            ok(False, 'the check of a whole card', f'{why} (CI=true: this must run)')
        else:
            skip('the check of a whole card', why)
        sys.exit(finish())
    root = tempfile.mkdtemp(prefix='sdt-device-root-', dir='/var/tmp')
    try:
        run_cards(root)
        history_kept(root, [c[1] for c in CARDS])
        kill_and_repair(root, pull=False)
        kill_and_repair(root, pull=True)
        repair_elsewhere(root)
        refusals(root)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    sys.exit(finish())


if __name__ == '__main__':
    main()
