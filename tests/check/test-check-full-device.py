#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: check-full-device suite=check timeout=900 parallel=false protocol=tap env=test
#    needs=fuse3 depends=sdtunerctl,sdt_fake_card args=@sdtunerctl@,@sdt_fake_card@
"""The full check of a whole card (issue 34): `sdtunerctl --root R check --device DEV --full
--destroy-data-on DEV`, in-process as root, as H2testw and f3write/f3read do it: every block
written with its self-identifying pattern, read back and judged; nothing saved.

Stand-ins (tests/fake-card, FAKE_LAYOUT=raw, not mounted): genuine 256 MiB (random bytes),
wrap 2048/700, zeros 900/899, eio 2048/700, and cache 1024/512 whose RAM cache holds the
last 32 MiB written (zeros): the full pass writes the whole card before it reads, so no
cache smaller than the card answers for what the flash dropped.  Each: the verdict right, a fake's range
holding its real size, the map (every cell "ok" on the genuine card, "ok" at the start and
the failure at the end of a fake), the card written (its backing's SHA-256 changed: it now
holds the pattern), no journal, within 60 s; the words: the rates, the seconds and that the
card now holds no data.  A symbolic link to the device counts as naming it.

Refused before anything is opened for writing, the card's SHA-256 unchanged: no
confirmation (the message names the device and what it holds: the partition table and the
file systems of a Raspberry Pi OS card), a confirmation naming another card, one naming a
partition of the card, one that does not exist, --destroy-data-on without --full, and a
confirmation to the helper without a device.

Stopped (SIGINT) in the middle: it ends at once, saying the card holds part of the
pattern.  Pulled out in the middle (the fake's process killed while the check is stopped
right after a write): an error naming the device, no journal, nothing to repair.

usage: test-check-full-device.py SDTUNERCTL SDT_FAKE_CARD   (as root; prints TAP)"""
import json
import os
import re
import shutil
import signal
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

# kind, claim MiB, real MiB, what the card holds before
CARDS = [
    ('genuine', 256, 256, 'random'),
    ('wrap', 2048, 700, 'zeros'),
    ('zeros', 900, 899, 'zeros'),
    ('eio', 2048, 700, 'zeros'),
    ('cache', 1024, 512, 'zeros'),
]
FAILURE = {'wrap': 'wrap', 'zeros': 'lost-writes', 'eio': 'io-error', 'cache': 'lost-writes'}
# the cache kind's RAM cache of the last writes: larger than the quick check's fixed 8 MiB
# flush (which calls this card genuine: docs/ARCHITECTURE.md), not than the whole card
CACHE = 32 * MIB


def run(root, *args, json_out=True):
    argv = [CTL, '--root', root] + (['--json'] if json_out else []) + ['check'] + list(args)
    t0 = time.monotonic()
    r = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    secs = time.monotonic() - t0
    res = None
    if json_out and r.returncode == 0:
        try:
            res = json.loads(r.stdout)
        except ValueError:
            pass
    return r.returncode, res, secs, f'$ {" ".join(argv)}\nexit {r.returncode}\n{r.stdout}{r.stderr}'


def journal_left(root):
    left = []
    for d in (os.path.join(root, 'var', 'lib', 'sd-tuner'), os.path.join(root, 'run')):
        for top, _dirs, files in os.walk(d):
            left += [os.path.join(top, f) for f in files if 'check-journal' in f]
    return left


def judge(kind, claim, real, res):
    """why the result is wrong, or None"""
    if res is None:
        return 'no result'
    if res.get('mode') != 'full' or not res['target'].get('whole_device'):
        return f'mode {res.get("mode")}, whole_device {res["target"].get("whole_device")}'
    map_ = res.get('map') or []
    if not map_ or map_[0]['from'] != 0 or map_[-1]['to'] != claim * MIB:
        return f'the map does not cover the card: {map_}'
    if not any('now holds no data' in n for n in res['notes']):
        return f'no note that the card now holds no data: {res["notes"]}'
    if not res.get('write_mb_s') or not res.get('read_mb_s'):
        return f'no rates: {res.get("write_mb_s")}, {res.get("read_mb_s")}'
    if kind == 'genuine':
        if res['verdict'] != 'genuine':
            return f'verdict {res["verdict"]}, not genuine'
        if any(r['state'] != 'ok' for r in map_):
            return f'a genuine card with a region not ok: {map_}'
        if res['coverage'] != 1:
            return f'coverage {res["coverage"]}, not 1'
        return None
    if res['verdict'] != 'fake' or res['failure'] != FAILURE[kind]:
        return f'verdict {res["verdict"]} ({res["failure"]}), not fake ({FAILURE[kind]})'
    lo, hi = res['capacity_at_least_bytes'], res['capacity_at_most_bytes']
    if not lo <= real * MIB <= hi:
        return f'the range {lo}..{hi} does not hold the real size {real * MIB}'
    if map_[0]['state'] != 'ok' or map_[-1]['state'] != FAILURE[kind]:
        return f'the map does not start ok and end in {FAILURE[kind]}: {map_}'
    return None


def run_cards(root):
    for kind, claim, real, fill in CARDS:
        name = f'{kind} {claim}/{real} MiB ({fill})'
        os.environ['FAKE_CACHE'] = str(CACHE)
        card = fc.Card(kind, claim, real, layout='raw', mounted=False, raw_fill=fill)
        try:
            before = fc.sha256_file(card.backing)
            rc, res, secs, out = run(root, '--device', card.loop, '--full',
                                     '--destroy-data-on', card.loop)
            why = judge(kind, claim, real, res)
            written = fc.sha256_file(card.backing) != before
            left = journal_left(root)
            verdict = res['verdict'] if res else 'error'
            ok(why is None and written and not left and secs <= 60,
               f'{name}: {verdict} in {secs:.1f} s' + (f'; {why}' if why else '') +
               ('; the card now holds the pattern' if written else '; NOTHING WRITTEN') +
               (f'; journal left: {left}' if left else ''), out)
            if kind != 'genuine':
                continue
            # in words, the confirmation a link to the device
            link = os.path.join(root, 'card-link')
            os.symlink(card.loop, link)
            rc, res, secs, out = run(root, '--device', card.loop, '--full',
                                     '--destroy-data-on', link, json_out=False)
            said = re.search(r'Wrote at [0-9.]+ MB/s, read back at [0-9.]+ MB/s', out) and \
                re.search(r'in [0-9.]+ s\n', out) and 'now holds no data' in out and \
                'Verdict: genuine' in out and re.search(r'MB/s  about [0-9]+ s left', out)
            ok(rc == 0 and said, f'{name}, confirmed by a link to it: in words, exit {rc}, '
               'with the rates, the time left, the seconds and that it holds no data', out)
            os.unlink(link)
        finally:
            card.down()


def refusals(root):
    card = fc.Card('genuine', 512, 512, layout='pios', mounted=False)
    other = fc.Card('genuine', 256, 256, layout='raw', raw_fill='zeros')
    try:
        before = fc.sha256_file(card.backing)
        rc, res, secs, out = run(root, '--device', card.loop, '--full', json_out=False)
        ok(rc == 1 and card.loop in out and 'vfat' in out and 'rootfs' in out and
           'dos partition table' in out and f'--destroy-data-on {card.loop}' in out,
           f'no confirmation: refused, exit {rc}, naming the device, its partition table '
           'and file systems, and the option', out)
        for what, confirm in (('another card', other.loop), ('a partition of it', card.part),
                              ('a device that does not exist', '/dev/sdt-no-such-card')):
            rc, res, secs, out = run(root, '--device', card.loop, '--full',
                                     '--destroy-data-on', confirm, json_out=False)
            ok(rc == 1 and 'nothing was written' in out and confirm in out,
               f'the confirmation names {what} ({confirm}): refused, exit {rc}', out)
        rc, res, secs, out = run(root, '--device', card.loop, '--destroy-data-on', card.loop,
                                 json_out=False)
        ok(rc == 2 and 'goes with --device and --full' in out,
           f'--destroy-data-on without --full: refused, exit {rc}', out)
        ok(fc.sha256_file(card.backing) == before, 'the refused card: every byte as before')
    finally:
        card.down()
        other.down()


def stop_and_pull(root):
    card = fc.Card('wrap', 2048, 700, layout='raw', raw_fill='zeros')
    try:
        argv = [CTL, '--root', root, 'check', '--device', card.loop, '--full',
                '--destroy-data-on', card.loop]
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(2)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        secs = time.monotonic() - t0
        ok(proc.returncode == 1 and 'part of the test pattern' in err and secs < 10 and
           not journal_left(root),
           f'stopped (SIGINT) in the middle: exit {proc.returncode} {secs:.1f} s later',
           f'{out}{err}')
    finally:
        card.down()

    card = fc.Card('wrap', 2048, 700, layout='raw', raw_fill='zeros')
    try:
        # right after the 60th write of 4 MiB: the write pass is a quarter through
        stop = fc.Stopper([CTL, '--root', root, 'check', '--device', card.loop, '--full',
                           '--destroy-data-on', card.loop], point=('pwrite64', 60))
        stopped = stop.wait_stop()
        # the card pulled out: its FUSE process gone, the loop device's I/O fails
        os.kill(card.fake_pid, signal.SIGKILL)
        time.sleep(0.5)
        os.kill(stop.pid, signal.SIGCONT)
        rc, out, err = stop.finish(timeout=120)
        stop.close()
        ok(stopped and rc == 1 and 'stopped answering' in err and card.loop in err and
           not journal_left(root),
           f'pulled out in the middle: stopped {stopped}, exit {rc}, an error naming the '
           'device, no journal', f'{out}{err}')
    finally:
        subprocess.run(['losetup', '-d', card.loop], capture_output=True)
        subprocess.run(['umount', '-l', os.path.join(card.dir, 'fuse')], capture_output=True)
        card.down()


def main():
    why = fc.missing()
    if why:
        if CI:
            ok(False, 'the full check of a whole card', f'{why} (CI=true: this must run)')
        else:
            skip('the full check of a whole card', why)
        sys.exit(finish())
    root = tempfile.mkdtemp(prefix='sdt-full-device-root-', dir='/var/tmp')
    try:
        run_cards(root)
        refusals(root)
        stop_and_pull(root)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    sys.exit(finish())


if __name__ == '__main__':
    main()
