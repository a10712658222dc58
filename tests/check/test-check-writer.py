#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: check-writer suite=check timeout=900 parallel=false protocol=tap env=test
#    needs=fuse3 depends=sdtunerctl,sdt_fake_card args=@sdtunerctl@,@sdt_fake_card@
"""The running system writes while the check has blocks out (issue 33, item 2).

A writer process rewrites blocks of its own file on the checked file system as a database or
journald does: O_DIRECT, one 4 KiB block at a time, each followed by fdatasync; every write
carries the block's number and a sequence number, and the writer keeps the last sequence it
saw synced for every block.  Meanwhile `sdtunerctl check --dir` runs $SDT_WRITER_CHECKS times
(default 4) on a wrap 1000/700 MiB stand-in, then twice on a genuine 512 MiB card.  Then,
with the page cache gone (unmounted and mounted again): every block of the file holds the
last synced sequence (no synced write lost, none came back older), no block holds the check's
probe pattern (its magic "SDTCHK01"), e2fsck -fn is clean and the user files are as before.

usage: test-check-writer.py SDTUNERCTL SDT_FAKE_CARD   (as root; prints TAP)
       test-check-writer.py --writer FILE BLOCKS STOPFILE   (the writer itself)"""
import json
import mmap
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
sys.path.insert(0, os.path.join(HERE, '..', 'fake-card'))

BLOCK = 4096
MAGIC = b'SDTWRT01'
PROBE_MAGIC = b'SDTCHK01'  # the check's self-identifying blocks (sdt-check-block.c)
BLOCKS = int(os.environ.get('SDT_WRITER_BLOCKS', '4096'))  # a 16 MiB file


def block_bytes(index, seq):
    """block @index's content at sequence @seq: magic, index, seq, then seeded filler"""
    head = MAGIC + struct.pack('<QQ', index, seq)
    rng = random.Random(index * 1000003 + seq)
    return head + rng.randbytes(BLOCK - len(head))


def parse(block):
    """(index, seq) of one of the writer's blocks, 'probe' for the check's, else None"""
    if block[:8] == PROBE_MAGIC:
        return 'probe'
    if block[:8] != MAGIC:
        return None
    index, seq = struct.unpack('<QQ', block[8:24])
    return (index, seq) if block == block_bytes(index, seq) else None


def writer(path, blocks, stop):
    """rewrite random blocks of @path until @stop exists; print the last synced sequences"""
    fd = os.open(path, os.O_RDWR | os.O_DIRECT)
    buf = mmap.mmap(-1, BLOCK)  # page-aligned, as O_DIRECT wants
    back = mmap.mmap(-1, BLOCK)
    synced = [0] * blocks
    seq = 0
    writes = mismatched = 0
    rng = random.Random(os.getpid())
    while not os.path.exists(stop):
        i = rng.randrange(blocks)
        seq += 1
        buf[:] = block_bytes(i, seq)
        os.pwrite(fd, buf, i * BLOCK)
        os.fdatasync(fd)
        synced[i] = seq
        writes += 1
        # read it back at once (O_DIRECT): what another reader of the file would see
        os.preadv(fd, [back], i * BLOCK)
        mismatched += back[:] != buf[:]
    os.close(fd)
    print(json.dumps({'synced': synced, 'writes': writes, 'mismatched': mismatched}))


if len(sys.argv) > 1 and sys.argv[1] == '--writer':
    writer(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    sys.exit(0)

import sdttap  # noqa: E402
from sdttap import finish, ok, skip  # noqa: E402
import sdtfakecard as fc  # noqa: E402

CTL = os.path.abspath(sys.argv[1])
os.environ['SDT_FAKE_CARD'] = os.path.abspath(sys.argv[2])
CI = os.environ.get('CI') == 'true'
sdttap.detail_lines = 60


def make_file(path, blocks):
    """the writer's file, every block at sequence 0, on the card before the check"""
    with open(path, 'wb') as f:
        for i in range(blocks):
            f.write(block_bytes(i, 0))
        f.flush()
        os.fsync(f.fileno())


def judge_file(path, synced):
    """(lost, probe, foreign): blocks older than their last synced write, blocks with the
    check's pattern, blocks with anything else"""
    lost, probe, foreign = [], [], []
    fd = os.open(path, os.O_RDONLY | os.O_DIRECT)
    buf = mmap.mmap(-1, BLOCK)
    try:
        for i, want in enumerate(synced):
            os.preadv(fd, [buf], i * BLOCK)
            got = parse(buf[:])
            if got == 'probe':
                probe.append(i)
            elif got is None or got[0] != i:
                foreign.append(i)
            elif got[1] != want:
                lost.append((i, want, got[1]))
    finally:
        os.close(fd)
    return lost, probe, foreign


def run_card(kind, claim, real, checks, root):
    name = f'{kind} {claim}/{real} MiB'
    card = fc.Card(kind, claim, real)
    try:
        data = os.path.join(card.mnt, 'database.bin')
        make_file(data, BLOCKS)
        stop = os.path.join(root, 'stop')
        w = subprocess.Popen([sys.executable, os.path.abspath(__file__), '--writer', data,
                              str(BLOCKS), stop], stdout=subprocess.PIPE, text=True)
        verdicts = []
        t0 = time.monotonic()
        try:
            time.sleep(0.3)  # the writer going
            for _ in range(checks):
                r = subprocess.run([CTL, '--root', root, '--json', 'check', '--dir', card.mnt],
                                   capture_output=True, text=True, timeout=600)
                try:
                    verdicts.append(json.loads(r.stdout).get('verdict'))
                except ValueError:
                    verdicts.append(f'error {r.returncode}: {r.stderr.strip()[-300:]}')
        finally:
            with open(stop, 'w'):
                pass
            out, _ = w.communicate(timeout=120)
            os.unlink(stop)
        secs = time.monotonic() - t0
        rec = json.loads(out)
        want = 'genuine' if kind == 'genuine' else 'fake'
        ok(all(v == want for v in verdicts), f'{name}: {checks} checks while the writer '
           f'writes say {want}', str(verdicts))
        # the page cache gone: what the card holds
        clean, log = card.fsck()
        lost, probe, foreign = judge_file(data, rec['synced'])
        print(f'# {name}: {rec["writes"]} synced writes in {secs:.1f} s, '
              f'{rec["mismatched"]} read back other data at once; afterwards '
              f'{len(lost)} synced writes lost, {len(probe)} blocks with the probe pattern, '
              f'{len(foreign)} blocks with other data', flush=True)
        ok(rec['writes'] > 0 and not lost, f'{name}: no synced write lost '
           f'({len(lost)} of {rec["writes"]} came back older)',
           ' '.join(f'block {i}: synced {w}, holds {g}' for i, w, g in lost[:30]))
        ok(not probe and not foreign, f'{name}: no block of the file holds the probe pattern '
           f'({len(probe)}) or anything else ({len(foreign)})', f'{probe[:50]} {foreign[:50]}')
        ok(clean, f'{name}: e2fsck -fn clean', log)
        os.unlink(data)
        damaged = card.damaged()
        ok(not damaged, f'{name}: {len(damaged)} user files damaged', ' '.join(damaged[:30]))
        left = [p for p in card.files_now() if p not in card.sums]
        ok(not left, f'{name}: nothing left in the file system', ' '.join(left))
    finally:
        card.down()


def main():
    why = fc.missing()
    if why:
        if CI:
            ok(False, 'a writer during the check', f'{why} (CI=true: this must run)')
        else:
            skip('a writer during the check', why)
        sys.exit(finish())
    checks = int(os.environ.get('SDT_WRITER_CHECKS', '4'))
    root = tempfile.mkdtemp(prefix='sdt-writer-root-', dir='/var/tmp')
    try:
        for kind, claim, real, n in (('wrap', 1000, 700, checks),
                                     ('genuine', 512, 512, max(1, checks // 2))):
            try:
                run_card(kind, claim, real, n, root)
            except (fc.CardError, OSError, ValueError, subprocess.SubprocessError) as e:
                ok(False, f'{kind} {claim}/{real} MiB: the test ran', str(e))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    sys.exit(finish())


if __name__ == '__main__':
    main()
