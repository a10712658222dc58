#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: bench-device suite=check timeout=900 parallel=false protocol=tap env=test
#    needs=fuse3 depends=sdtunerctl,sdt_fake_card args=@sdtunerctl@,@sdt_fake_card@
"""The benchmark of a whole unmounted card (issue 34): `sdtunerctl --root R bench --device
DEV`, in-process as root (the helper takes the same code; over the bus:
tests/integration/test_bench_device_bus.py).

Stand-ins (tests/fake-card: the FUSE file under a loop device), not mounted:
- a blank card (zeros, no partition table, no file system): the write tests run on the
  region at 16 MiB, the A1/A2 verdict is given, target.writes is "blank";
- a card holding random bytes but no signature: blank too (nothing libblkid can name);
- a blank card throttled to 20 MB/s and 2000 IOPS (a cgroup, as bench/card.sh): the
  figures are the device's, within the throttle;
- a card with the Raspberry Pi OS layout (partition table, vfat, ext4): only the read tests,
  no verdict, a note naming what it holds, and the SHA-256 of all it stores unchanged; then
  with --destroy-data-on naming it (as another name of it: /dev/loopN vs loopN) the write
  tests run; a --destroy-data-on naming another device is refused before anything runs
  (the SHA-256 unchanged);
- a read-only card (BLKROSET): the read tests, no write tests, unchanged.
Refused, unchanged: a mounted card, a partition, a card another program holds (O_EXCL), a
card smaller than 16 MiB + the region, the system disk, --dir with --device, the soak
profile with --device, --destroy-data-on without --device, a device that does not exist.

usage: test-bench-device.py SDTUNERCTL SDT_FAKE_CARD   (as root; prints TAP)"""
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
READS = ['rand-4k-read-qd32', 'seq-read', 'rand-4k-read-qd1', 'raw-read']
WRITES = ['seq-write', 'rand-4k-write-qd32', 'rand-4k-write-qd1']


class Throttle:
    """a block I/O cgroup limiting the card to @bps bytes/s and @iops, as bench/card.sh
    does (cgroup v2 io.max, else v1 blkio.throttle); None when neither is there"""

    def __init__(self, loop, bps, iops):
        mm = open(f'/sys/block/{os.path.basename(loop)}/dev').read().strip()
        if os.path.exists('/sys/fs/cgroup/cgroup.controllers') and \
                'io' in open('/sys/fs/cgroup/cgroup.controllers').read().split():
            self.cg = f'/sys/fs/cgroup/sdt-bench-device-{os.getpid()}'
            os.mkdir(self.cg)
            with open(os.path.join(self.cg, 'io.max'), 'w') as f:
                f.write(f'{mm} rbps={bps} wbps={bps} riops={iops} wiops={iops}\n')
        elif os.path.isdir('/sys/fs/cgroup/blkio'):
            self.cg = f'/sys/fs/cgroup/blkio/sdt-bench-device-{os.getpid()}'
            os.mkdir(self.cg)
            for what, v in (('read_bps', bps), ('write_bps', bps), ('read_iops', iops),
                            ('write_iops', iops)):
                with open(os.path.join(self.cg, f'blkio.throttle.{what}_device'), 'w') as f:
                    f.write(f'{mm} {v}\n')
        else:
            raise OSError('no cgroup io (v2) or blkio (v1) controller')

    def enter(self):
        """in the child, before exec: into the group"""
        with open(os.path.join(self.cg, 'cgroup.procs'), 'w') as f:
            f.write(str(os.getpid()))

    def remove(self):
        os.rmdir(self.cg)


def bench(root, device, *extra, json_out=True, throttle=None):
    argv = [CTL, '--root', root] + (['--json'] if json_out else []) + \
        ['bench', '-p', 'quick', '--device', device] + list(extra)
    t0 = time.monotonic()
    r = subprocess.run(argv, capture_output=True, text=True, timeout=600,
                       preexec_fn=throttle.enter if throttle else None)
    secs = time.monotonic() - t0
    res = None
    if json_out and r.returncode == 0:
        try:
            res = json.loads(r.stdout)
        except ValueError:
            pass
    return r.returncode, res, secs, f'$ {" ".join(argv)}\nexit {r.returncode}\n{r.stdout}{r.stderr}'


def names(res):
    return [t['name'] for t in res['tests']] if res else []


def region_written(card, before_region):
    """whether the region at 16 MiB (64 MiB, quick) differs from before"""
    return fc.sha256_file(card.backing, 16 * MIB, 64 * MIB) != before_region


def judge_target(res, card, writes):
    t = res['target']
    if not t.get('whole_device') or t.get('device_node') != card.loop:
        return f'target not the whole card {card.loop}: {t}'
    if t.get('region_offset') != 16 * MIB or t.get('file_size') != 64 * MIB:
        return f'region not 64 MiB at 16 MiB: {t}'
    if t.get('writes') != writes:
        return f'target.writes {t.get("writes")!r}, not {writes!r}'
    if 'usb_speed_mbit_s' not in t or t['usb_speed_mbit_s'] is not None:
        return f'a loop device has no USB link, usb_speed_mbit_s must be null: {t}'
    if t.get('reader_bottleneck') is not False:
        return f'reader_bottleneck not false: {t}'
    return None


def case_blank(root, fill):
    card = fc.Card('genuine', 256, 256, layout='raw', mounted=False, raw_fill=fill)
    try:
        before = fc.sha256_file(card.backing, 16 * MIB, 64 * MIB)
        head = fc.sha256_file(card.backing, 0, 16 * MIB)
        rc, res, secs, out = bench(root, card.loop)
        why = 'no result' if res is None else judge_target(res, card, 'blank')
        if why is None and sorted(names(res)) != sorted(READS + WRITES):
            why = f'tests {names(res)}'
        if why is None and not {'a1', 'a2'} <= set(res.get('verdict') or {}):
            why = f'no A1/A2 verdict: {res.get("verdict")}'
        written = region_written(card, before)
        head_same = fc.sha256_file(card.backing, 0, 16 * MIB) == head
        ok(why is None and written and head_same and secs <= 60,
           f'a blank card ({fill}): all seven tests, the verdict, the region written, the '
           f'first 16 MiB untouched, in {secs:.1f} s' + (f'; {why}' if why else ''), out)
        # the text form: the whole card and the verdict
        rc, _res, secs, out = bench(root, card.loop, json_out=False)
        ok(rc == 0 and f'Whole card {card.loop}: 64 MiB from 16 MiB on' in out and
           'no partition table and no file system' in out and 'A1: ' in out,
           'a blank card: the text output names the card, its region and the verdict', out)
    finally:
        card.down()


def case_throttled(root):
    """a blank card throttled to 20 MB/s and 2000 IOPS: the figures are the device's (the
    region read and written on the card, not a cache): each within the throttle, the
    sequential ones above half of it"""
    card = fc.Card('genuine', 256, 256, layout='raw', mounted=False, raw_fill='zeros')
    throttle = None
    try:
        try:
            throttle = Throttle(card.loop, 20000000, 2000)
        except OSError as e:
            skip('a throttled blank card', str(e))
            return
        rc, res, secs, out = bench(root, card.loop, throttle=throttle)
        tests = {t['name']: t for t in res['tests']} if res else {}
        figures = {n: (round(t['mb_s'], 1), round(t['iops'])) for n, t in tests.items()}
        good = len(tests) == 7
        for name in ('seq-write', 'seq-read', 'raw-read'):
            good = good and 15.0 <= tests[name]['mb_s'] <= 20.0 * 1.1
        for name in ('rand-4k-read-qd32', 'rand-4k-write-qd32'):
            good = good and tests[name]['iops'] <= 2000 * 1.1
        ok(good and rc == 0,
           f'a blank card throttled to 20 MB/s and 2000 IOPS: the figures within the '
           f'throttle, {secs:.1f} s: {figures}', out)
    finally:
        if throttle is not None:
            throttle.remove()
        card.down()


def case_pios(root):
    card = fc.Card('genuine', 512, 512, layout='pios', mounted=False)
    try:
        before = fc.sha256_file(card.backing)
        rc, res, secs, out = bench(root, card.loop)
        why = 'no result' if res is None else judge_target(res, card, None)
        if why is None and sorted(names(res)) != sorted(READS):
            why = f'tests {names(res)}, not only the reads'
        if why is None and 'verdict' in res:
            why = f'a verdict without write tests: {res["verdict"]}'
        notes = ' '.join(res['notes']) if res else ''
        if why is None and not ('write tests skipped' in notes and 'dos' in notes and
                                'ext4' in notes and 'A1/A2 cannot be judged' in notes):
            why = f'notes: {res["notes"]}'
        same = fc.sha256_file(card.backing) == before
        ok(why is None and same and secs <= 60,
           f'a Pi OS card: only the read tests, no verdict, the notes say why, '
           f'{"every byte as before" if same else "THE CARD CHANGED"}, {secs:.1f} s' +
           (f'; {why}' if why else ''), out)

        rc, _res, secs, out = bench(root, card.loop, json_out=False)
        ok(rc == 0 and 'Write tests: skipped' in out and 'No A1/A2 verdict' in out and
           'write tests skipped' in out,
           'a Pi OS card: the text output says the write tests were skipped, no verdict', out)

        # a confirmation naming another device: refused before anything
        other = fc.free_loop()
        rc, res, secs, out = bench(root, card.loop, '--destroy-data-on', other)
        same = fc.sha256_file(card.backing) == before
        ok(rc == 1 and 'does not name the card' in out and 'nothing was written' in out and
           same, f'--destroy-data-on {other} (not the card) refused, the card unchanged', out)

        # confirmed, by its kernel name: the write tests run on the region
        region = fc.sha256_file(card.backing, 16 * MIB, 64 * MIB)
        short = os.path.basename(card.loop)
        rc, res, secs, out = bench(root, card.loop, '--destroy-data-on', short)
        why = 'no result' if res is None else judge_target(res, card, 'confirmed')
        if why is None and sorted(names(res)) != sorted(READS + WRITES):
            why = f'tests {names(res)}'
        if why is None and 'verdict' not in res:
            why = 'no verdict'
        if why is None and not any('overwrote 64 MiB' in n for n in res['notes']):
            why = f'no note of what was overwritten: {res["notes"]}'
        ok(why is None and region_written(card, region),
           f'--destroy-data-on {short}: the write tests ran on the region, the verdict, '
           f'{secs:.1f} s' + (f'; {why}' if why else ''), out)
    finally:
        card.down()


def case_read_only(root):
    card = fc.Card('genuine', 256, 256, layout='raw', mounted=False, raw_fill='zeros')
    try:
        before = fc.sha256_file(card.backing)
        subprocess.run(['blockdev', '--setro', card.loop], check=True)
        rc, res, secs, out = bench(root, card.loop)
        subprocess.run(['blockdev', '--setrw', card.loop], check=True)
        notes = ' '.join(res['notes']) if res else ''
        ok(rc == 0 and sorted(names(res)) == sorted(READS) and 'read-only' in notes and
           res['target']['writes'] is None and fc.sha256_file(card.backing) == before,
           f'a read-only card: the read tests only, a note, every byte as before, exit {rc}',
           out)
    finally:
        card.down()


def refusals(root):
    card = fc.Card('genuine', 512, 512, layout='pios')
    try:
        before = fc.sha256_file(card.backing, 0, 4 * MIB)
        rc, res, secs, out = bench(root, card.loop)
        ok(rc == 1 and 'mounted' in out, f'a mounted card refused, exit {rc}', out)
        subprocess.run(['umount', card.mnt], check=True)
        rc, res, secs, out = bench(root, card.part)
        ok(rc == 1 and 'partition' in out and card.loop in out,
           f'a partition ({card.part}) refused, naming the card, exit {rc}', out)
        ok(fc.sha256_file(card.backing, 0, 4 * MIB) == before,
           'the refused card: its partition table as before')
    finally:
        card.down()

    card = fc.Card('genuine', 256, 256, layout='raw', mounted=False, raw_fill='zeros')
    try:
        before = fc.sha256_file(card.backing)
        fd = os.open(card.loop, os.O_RDONLY | os.O_EXCL)
        try:
            rc, res, secs, out = bench(root, card.loop)
        finally:
            os.close(fd)
        ok(rc == 1 and 'in use' in out, f'a card another program holds refused, exit {rc}',
           out)
        rc, res, secs, out = bench(root, card.loop, '--dir', root, json_out=False)
        ok(rc == 2 and 'not both' in out, f'--dir with --device refused, exit {rc}', out)
        r = subprocess.run([CTL, '--root', root, 'bench', '-p', 'soak', '--device', card.loop],
                           capture_output=True, text=True)
        ok(r.returncode == 2 and 'soak' in r.stderr,
           f'the soak profile with --device refused, exit {r.returncode}', r.stderr)
        r = subprocess.run([CTL, '--root', root, 'bench', '--destroy-data-on', card.loop],
                           capture_output=True, text=True)
        ok(r.returncode == 2 and '--destroy-data-on goes with --device' in r.stderr,
           f'--destroy-data-on without --device refused, exit {r.returncode}', r.stderr)
        ok(fc.sha256_file(card.backing) == before, 'the refused card: every byte as before')
    finally:
        card.down()

    # smaller than the first 16 MiB and the standard profile's 256 MiB region
    card = fc.Card('genuine', 200, 200, layout='raw', mounted=False, raw_fill='zeros')
    try:
        argv = [CTL, '--root', root, 'bench', '--device', card.loop]
        r = subprocess.run(argv, capture_output=True, text=True)
        ok(r.returncode == 1 and 'too small' in r.stderr and '256 MiB region' in r.stderr,
           f'a card too small for the region refused, exit {r.returncode}', r.stderr)
    finally:
        card.down()

    system = subprocess.run(['findmnt', '-no', 'SOURCE', '/'], capture_output=True,
                            text=True).stdout.strip().split('[')[0]
    disk = system
    pk = subprocess.run(['lsblk', '-no', 'PKNAME', system], capture_output=True,
                        text=True).stdout.strip()
    if pk:
        disk = '/dev/' + pk
    for what, dev in (('the system disk', disk), ('a partition of the system disk', system)):
        rc, res, secs, out = bench(root, dev)
        ok(rc == 1 and 'system disk' in out, f'{what} ({dev}) refused, exit {rc}', out)
    rc, res, secs, out = bench(root, '/dev/sdt-no-such-card')
    ok(rc == 1 and 'no-such-card' in out, f'a device that does not exist refused, exit {rc}',
       out)


def main():
    why = fc.missing()
    if why:
        if CI:
            ok(False, 'the benchmark of a whole card', f'{why} (CI=true: this must run)')
        else:
            skip('the benchmark of a whole card', why)
        sys.exit(finish())
    root = tempfile.mkdtemp(prefix='sdt-bench-device-root-', dir='/var/tmp')
    try:
        case_blank(root, 'zeros')
        case_blank(root, 'random')
        case_throttled(root)
        case_pios(root)
        case_read_only(root)
        refusals(root)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    sys.exit(finish())


if __name__ == '__main__':
    main()
