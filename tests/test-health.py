#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: health suite=integration timeout=120 protocol=tap env=test args=@sdtunerctl@
"""`sdtunerctl --root DIR --json health` under umockdev-run (the pi4 card) with
fixture sysfs and ext4 files under the root prefix: lifetime and since-boot
writes, writes per day, the projection, kernel card errors, read-only mounts,
the write-protect bits and the benchmark trend.

usage: test-health.py SDTUNERCTL   (run by meson; prints TAP)"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from sdttap import finish, ok

SDTUNERCTL = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, 'data')


def write(root, path, text):
    full = os.path.join(root, path.lstrip('/'))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, 'w') as f:
        f.write(text)


def health(root, human=False):
    argv = ['umockdev-run', '-d', os.path.join(DATA, 'umockdev', 'pi4.umockdev'), '--',
            SDTUNERCTL, '--root', root] + ([] if human else ['--json']) + ['health']
    r = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        raise AssertionError(r.stderr)
    return r.stdout if human else json.loads(r.stdout)


def bench_entry(root, i, seq_mb_s, lat_us, stand_in=False):
    entry = {'kind': 'bench', 'time': f'2026-01-{i + 1:02d}T00:00:00Z', 'profile': 'quick',
             'target': {'path': '/var/tmp/x', 'stand_in': stand_in},
             'tests': [{'name': 'seq-write', 'mb_s': seq_mb_s},
                       {'name': 'rand-4k-write-qd1', 'mb_s': 1.0,
                        'latency_us': {'mean': lat_us, 'p99': lat_us * 3}}]}
    write(root, f'/var/lib/sd-tuner/history/{1700000000000000 + i}-bench.json', json.dumps(entry))


with tempfile.TemporaryDirectory() as tmp:
    root = os.path.join(tmp, 'root')
    shutil.copytree(os.path.join(DATA, 'roots', 'pi4'), root, symlinks=True)

    # nothing but the board's own fixture: every figure is null, nothing fails
    h = health(root)
    ok(h['card']['present'] and h['card']['device'] == 'mmcblk0', 'the card is found')
    ok(h['lifetime_write_bytes'] is None and h['since_boot']['written_bytes'] is None
       and h['writes_per_day_bytes'] is None and h['projection'] is None,
       'missing counters are null')
    ok(h['card']['write_protect'] == {'permanent': False, 'temporary': False},
       'CSD write-protect bits decoded')
    ok(any('CMD56' in note for note in h['notes']), 'no vendor command, and it says so')
    ok(h['trend']['alerts'] == [] and h['trend']['runs'] == 0, 'no history, no trend')
    ok(h['registers']['verdict'] == 'plausible' and h['registers']['findings'] == [],
       'the SanDisk card\'s registers are plausible')

    write(root, '/sys/fs/ext4/mmcblk0p2/lifetime_write_kbytes', '123456789\n')
    write(root, '/sys/block/mmcblk0/stat',
          '   12345      100   2000000     5000    67890      200  8000000    9000'
          '        0    10000    14000\n')
    write(root, '/proc/uptime', '172800.50 300000.00\n')
    with open(os.path.join(root, 'dev', 'kmsg'), 'a') as f:
        f.write('3,900,50000000,-;mmc0: error -110 whilst initialising SD card\n')
        f.write('3,901,50000001,-;mmc0: Timeout waiting for hardware interrupt.\n')
        f.write('6,902,50000002,-;mmc1: new high speed SDIO card at address 0001\n')
    h = health(root)
    ok(h['lifetime_write_bytes'] == 123456789 * 1024, 'ext4 lifetime_write_kbytes of mmcblk0p2')
    part = {p['device']: p for p in h['partitions']}
    ok(part['mmcblk0p2']['lifetime_write_bytes'] == 123456789 * 1024
       and part['mmcblk0p1']['lifetime_write_bytes'] is None, 'per partition, vfat has none')
    ok(h['since_boot']['written_bytes'] == 8000000 * 512
       and h['since_boot']['read_bytes'] == 2000000 * 512, 'block stat fields 3 and 7')
    ok(abs(h['writes_per_day_bytes'] - 8000000 * 512 / 2.0000058) < 1e4,
       'writes per day from the uptime')
    p = h['projection']
    want_years = (h['card']['capacity_bytes'] * 500 - 123456789 * 1024) / h['writes_per_day_bytes'] / 365.25
    ok(p is not None and abs(p['years'] - want_years) < 0.01 and 'rough estimate' in p['assumption'],
       'projection with its assumption')
    ok(h['kernel_errors_since_boot'] == 2, 'two card errors of mmc0; the mmc1 line is not ours')
    ok(h['read_only'] is False, 'mounted read-write')
    text = health(root, human=True)
    ok('2 card errors reported by the kernel since boot' in text and 'rough estimate' in text,
       'human output')
    # the projection counts years with the right plural form (issue 24): lifetime writes
    # that leave about one year, then about two years, of the card's rated endurance
    for years, want in ((1, 'about 1 more year.'), (2, 'about 2 more years.')):
        left = h['card']['capacity_bytes'] * 500 - h['writes_per_day_bytes'] * 365.25 * years
        write(root, '/sys/fs/ext4/mmcblk0p2/lifetime_write_kbytes', f'{int(left / 1024)}\n')
        text = health(root, human=True)
        ok(want in text and 'about 1 more years' not in text,
           f'human output: "{want}"', text)
    write(root, '/sys/fs/ext4/mmcblk0p2/lifetime_write_kbytes', '123456789\n')

    # the helper's own mount table under its unit's sandbox (seen on the systemd boot of
    # tests/vm/systemd): ProtectSystem=strict makes / read-only for the helper alone (per
    # mount, the file system stays read-write), ReadWritePaths=, PrivateTmp= and
    # StateDirectory= add bind mounts of the card's partitions. Health reported / read-only
    # and counted ext4's lifetime writes once per bind mount.
    mi = os.path.join(root, 'proc', 'self', 'mountinfo')
    with open(mi) as f:
        system = f.read()
    p2 = '179:2 {} {} rw,noatime shared:1 - ext4 /dev/mmcblk0p2 rw'
    sandbox = [ln.replace(' / / rw,', ' / / ro,', 1) if ' / / ' in ln else ln
               for ln in system.splitlines()] + [
        '40 22 ' + p2.format('/boot', '/boot'),
        '41 31 179:1 / /boot/firmware rw,relatime shared:20 - vfat /dev/mmcblk0p1 rw,fmask=0022',
        '42 22 ' + p2.format('/tmp/systemd-private-0c1d-sd-tuner-helper.service-x/tmp', '/tmp'),
        '43 22 ' + p2.format('/var/lib/sd-tuner', '/var/lib/sd-tuner'),
        '44 22 ' + p2.format('/var/tmp/systemd-private-0c1d-sd-tuner-helper.service-y/tmp',
                             '/var/tmp')]
    with open(mi, 'w') as f:
        f.write('\n'.join(sandbox) + '\n')
    h = health(root)
    ok(h['read_only'] is False, 'a sandbox\'s read-only view of / is not a read-only card')
    ok(sorted(p['mount_point'] for p in h['partitions']) == ['/', '/boot/firmware'],
       'partitions as the system mounts them, not the sandbox\'s bind mounts: '
       + ' '.join(p['mount_point'] for p in h['partitions']))
    ok(h['lifetime_write_bytes'] == 123456789 * 1024, 'lifetime writes counted once')

    # / remounted read-only by the kernel (errors=remount-ro): the superblock is read-only,
    # which mountinfo shows in both option fields
    lines = [ln.replace(' / / rw,', ' / / ro,', 1).replace(' /dev/mmcblk0p2 rw', ' /dev/mmcblk0p2 ro', 1)
             if ' / / ' in ln else ln for ln in system.splitlines()]
    with open(mi, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    h = health(root)
    ok(h['read_only'] is True, 'a read-only mount is reported')

    # trend: stable runs, then clearly slower ones
    for i, (mb, lat) in enumerate([(20.0, 900), (21.0, 950), (19.5, 920), (20.5, 910)]):
        bench_entry(root, i, mb, lat)
    h = health(root)
    ok(h['trend']['runs'] == 4 and h['trend']['alerts'] == [], 'spread only: no alert')
    # a benchmark of a stand-in folder says nothing about the card (issue 9, item 13)
    for i, (mb, lat) in enumerate([(2.0, 9000), (2.1, 9100), (1.9, 9050)]):
        bench_entry(root, 5 + i, mb, lat, stand_in=True)
    h = health(root)
    ok(h['trend']['runs'] == 4 and h['trend']['alerts'] == []
       and h['registers']['verdict'] == 'plausible',
       'stand-in benchmarks stay out of the trend and the register check')
    for i, (mb, lat) in enumerate([(10.0, 2500), (10.5, 2600), (9.8, 2400)]):
        bench_entry(root, 10 + i, mb, lat)
    h = health(root)
    ok(sorted(h['trend']['alerts']) == ['qd1_write_latency_us', 'seq_write_mb_s'],
       'worse beyond the spread: alerts')
    ok(h['trend']['seq_write_mb_s']['latest'] < h['trend']['seq_write_mb_s']['first'],
       'latest below first')
    text = health(root, human=True)
    ok('Alert: sequential writes got clearly slower over the benchmark history.' in text
       and 'Alert: small writes got clearly slower over the benchmark history.' in text
       and '_mb_s' not in text and '_us' not in text,
       'the alerts in words, not JSON keys')
    ok(h['registers']['verdict'] == 'suspicious'
       and [f['rule'] for f in h['registers']['findings']] == ['speed-contradicted'],
       'a U3/V30 card writing 9.8 MB/s: its promise is contradicted')

    # garbage counters are null, not a failure
    write(root, '/sys/block/mmcblk0/stat', 'garbage\n')
    write(root, '/sys/fs/ext4/mmcblk0p2/lifetime_write_kbytes', '-5\n')
    h = health(root)
    ok(h['since_boot']['written_bytes'] is None and h['lifetime_write_bytes'] is None,
       'garbage counters are null')

    # a state folder others may write (issue 33): said with what to do, in JSON and in words
    state = os.path.join(root, 'var/lib/sd-tuner')
    os.chmod(state, 0o777)
    h = health(root)
    text = health(root, human=True)
    os.chmod(state, 0o755)
    ok(h['state_error'] is not None and 'other users' in h['state_error']
       and h['trend']['runs'] == 0, 'a refused state folder: state_error, no trend')
    ok('SD Tuner cannot read its state folder' in text and 'chmod go-w' in text,
       'a refused state folder: what is wrong and what to do, in words')
    ok(health(root)['state_error'] is None, 'state_error null once it is fixed')

    # issue 34: a card checked before in a reader or another slot.  The pi4 card's CID is
    # the umockdev fixture's sysfs cid; its size the block device's
    with open(os.path.join(DATA, 'umockdev', 'pi4.umockdev')) as f:
        cid = re.search(r'^A: cid=([0-9a-f]+)', f.read(), re.M).group(1)
    size = 128177930240

    def check_entry(i, ident, verdict):
        entry = {'kind': 'check', 'time': f'2026-02-{i:02d}T10:00:00Z', 'verdict': verdict,
                 'reason': 'x', 'target': {'whole_device': True}, 'identity': ident}
        write(root, f'/var/lib/sd-tuner/history/{1800000000000000 + i}-check.json',
              json.dumps(entry))

    def reader(dev, size_bytes):
        return {'device': dev, 'size_bytes': size_bytes, 'vendor': 'Generic', 'model': 'Reader',
                'serial': '000000001536', 'serial_of': 'reader', 'bus': 'usb', 'cid': None,
                'cid_serial': None}

    ok(health(root)['checked_before'] is None, 'no device check: checked_before null')
    check_entry(1, reader('sdb', size + 512), 'fake')
    check_entry(2, dict(reader('mmcblk1', size), bus='mmc', cid='035344534c31323880aabbccdd0100',
                        serial_of='card'), 'fake')
    h = health(root)
    ok(h['checked_before'] is None,
       'a reader card one sector larger and a slot card of its size with another CID: '
       'not this card')
    check_entry(3, reader('sdc', size), 'genuine')
    h = health(root)
    text = health(root, human=True)
    ok(h['checked_before'] is not None and h['checked_before']['match'] == 'size'
       and h['checked_before']['identity']['device'] == 'sdc'
       and h['checked_before']['verdict'] == 'genuine',
       'a reader card of exactly its size: maybe this one', json.dumps(h['checked_before']))
    ok('A card of the same size was checked in a card reader on' in text
       and '(maybe this one): genuine' in text, 'said in words: maybe this one', text)
    check_entry(4, dict(reader('mmcblk1', 1), bus='mmc', cid=cid.upper(), serial_of='card'),
                'genuine')
    check_entry(5, reader('sdd', size), 'fake')
    h = health(root)
    text = health(root, human=True)
    ok(h['checked_before'] is not None and h['checked_before']['match'] == 'cid'
       and h['checked_before']['time'] == '2026-02-04T10:00:00Z',
       'its own CID: this card, before a newer reader card of its size',
       json.dumps(h['checked_before']))
    ok('This card was checked before, on' in text and ': genuine' in text,
       'said in words: this card', text)

sys.exit(finish())
