#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: metrics suite=integration timeout=300 protocol=tap env=test
#    args=@sdtunerctl@,{builddir}/data
"""`sdtunerctl metrics` (issue 27) with the real parts:

  - every fixture board (the roots of test-info.py under umockdev-run): the
    output passes Debian's `promtool check metrics` with nothing to say, and its
    samples say what `info` and `health` say;
  - label values from hostile card registers (quote, backslash) are escaped;
  - the last benchmark is the history's (a stand-in run is not the card's), and
    metrics write nothing into the history;
  - `--output FILE`: atomic, mode 0644; a missing folder, a read-only and a full
    file system (real tmpfs mounts) fail with a clear message, exit 1, leave the
    old file as it was and no temporary file; as root, a folder of the user nobody,
    a link nobody planted and nobody's racing renames of the folder are refused,
    with nothing written through the link and no temporary file left (issue 33);
  - a real prometheus-node-exporter on 127.0.0.1 (textfile collector only) serves
    the sdtuner_ samples on /metrics after the unit's own command ran;
  - the timer and its service pass `systemd-analyze verify`, and the service's
    `systemd-analyze security` exposure is at most the helper's (both printed).

Under CI=true a missing promtool, node_exporter, systemd-analyze or root fails.

usage: test-metrics.py SDTUNERCTL BUILD_DATA_DIR   (run by meson; prints TAP)"""
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from sdttap import finish, ok, skip

SDTUNERCTL = os.path.abspath(sys.argv[1])
UNITS = os.path.abspath(sys.argv[2])
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, 'data')
CI = os.environ.get('CI') == 'true'
PROMTOOL = shutil.which('promtool')
NODE_EXPORTER = shutil.which('prometheus-node-exporter') or shutil.which('node_exporter')
ANALYZE = shutil.which('systemd-analyze')
TEXTFILE_DIR = '/var/lib/prometheus/node-exporter'

# (name, umockdev file, root) as test-info.py pairs them
FIXTURES = [
    ('pi3', 'umockdev/pi3.umockdev', 'roots/pi3'),
    ('pi3-no-debugfs', 'umockdev/pi3.umockdev', 'roots/pi3-no-debugfs'),
    ('pi3-qemu', 'umockdev/pi3-qemu.umockdev', 'roots/pi3-qemu'),
    ('pi4', 'umockdev/pi4.umockdev', 'roots/pi4'),
    ('pi4-usb-boot', 'umockdev/pi4.umockdev', 'roots/pi4-usb-boot'),
    ('pi4-no-card', 'umockdev/pi4-no-card.umockdev', 'roots/pi4-no-card'),
    ('pi5', 'umockdev/pi5.umockdev', 'roots/pi5'),
    ('pi5-bad-input', 'umockdev/pi5.umockdev', 'roots/pi5-bad-input'),
    ('tinker-board', 'umockdev/tinker-board.umockdev', 'roots/tinker-board'),
    ('garbage', 'umockdev/bad-registers.umockdev', 'roots/garbage'),
    ('simulated-pi3', '../../data/sim/rpi3.umockdev', '../../data/sim/rpi3'),
    ('pi5-nvme-boot', 'umockdev/pi5-nvme-boot.umockdev', 'roots/pi5-nvme-boot'),
] + [(f'cm4-{v}', f'umockdev/cm4-{v}.umockdev', 'roots/cm4-emmc')
     for v in ('emmc', 'emmc-warning', 'emmc-urgent', 'emmc-worn-out', 'emmc-odd-values',
               'emmc-garbage')]
# the eMMC's wear in words, and its JEDEC figures (life time A, B, pre-EOL; None: absent)
EMMC = {
    'cm4-emmc': ('normal', 2, 3, 1),
    'cm4-emmc-warning': ('warning', 5, 9, 2),
    'cm4-emmc-urgent': ('urgent', 7, 10, 3),
    'cm4-emmc-worn-out': ('urgent', 11, 11, 3),
    'cm4-emmc-odd-values': (None, 12, 255, 7),
    'cm4-emmc-garbage': ('unknown', None, None, None),
}


def missing(what, why):
    """a tool or a right the test needs: fails under CI, else skipped"""
    if CI:
        ok(False, what, f'{why} (CI=true: this must run)')
    else:
        skip(what, why)


def write(root, path, text):
    full = os.path.join(root, path.lstrip('/'))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, 'w') as f:
        f.write(text)


def run(umockdev, argv, env=None):
    return subprocess.run(['umockdev-run', '-d', umockdev, '--', SDTUNERCTL] + argv,
                          capture_output=True, text=True, timeout=60, env=env)


def parse(text):
    """{(name, ((label, value), ...)): value} of the samples of exposition text"""
    out = {}
    for line in text.splitlines():
        if not line or line.startswith('#'):
            continue
        m = re.match(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$', line)
        assert m, f'not a sample line: {line!r}'
        labels = []
        for lm in re.finditer(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"', m.group(3) or ''):
            value = re.sub(r'\\(.)', lambda e: {'n': '\n'}.get(e.group(1), e.group(1)),
                           lm.group(2))
            labels.append((lm.group(1), value))
        out[(m.group(1), tuple(sorted(labels)))] = float(m.group(4))
    return out


def sample(samples, name, **labels):
    return samples.get((name, tuple(sorted(labels.items()))))


def history(root):
    hist = os.path.join(root, 'var/lib/sd-tuner/history')
    os.makedirs(hist, exist_ok=True)
    for f in os.listdir(os.path.join(DATA, 'history')):
        shutil.copy(os.path.join(DATA, 'history', f), hist)
    # a stand-in benchmark after the card's: never the card's figures
    write(root, '/var/lib/sd-tuner/history/1767225600000003-bench.json', json.dumps({
        'kind': 'bench', 'time': '2026-01-01T01:00:00Z', 'profile': 'quick',
        'target': {'path': '/tmp/x', 'stand_in': True},
        'tests': [{'name': 'seq-read', 'mb_s': 999.0, 'iops': 9.0}],
        'verdict': {'a1': True, 'a2': True}}))
    write(root, '/var/lib/sd-tuner/history/1767225600000004-check.json', json.dumps({
        'kind': 'check', 'time': '2026-01-02T00:00:00Z', 'verdict': 'fake', 'mode': 'quick',
        'claimed_bytes': 64000000000, 'estimated_capacity_bytes': 7500000000}))
    write(root, '/var/lib/sd-tuner/history/1767225600000005-verify.json', json.dumps({
        'kind': 'verify', 'time': '2026-01-03T00:00:00.5Z', 'pending': True,
        'decision': 'step-down', 'reason': 'errors'}))


def promtool(text):
    r = subprocess.run([PROMTOOL, 'check', 'metrics'], input=text, capture_output=True,
                       text=True, timeout=60)
    return r.returncode, r.stdout + r.stderr


def fixture_root(tmp, name, rel):
    root = os.path.join(tmp, name)
    shutil.copytree(os.path.join(DATA, rel), root, symlinks=True)
    history(root)
    return root


def check_fixture(tmp, name, mock, rel):
    umockdev = os.path.join(DATA, mock)
    root = fixture_root(tmp, name, rel)
    r = run(umockdev, ['--root', root, 'metrics'])
    ok(r.returncode == 0 and r.stdout.endswith('\n'), f'{name}: metrics exits 0', r.stderr)
    if PROMTOOL:
        rc, said = promtool(r.stdout)
        ok(rc == 0 and said == '', f'{name}: promtool check metrics finds nothing wrong',
           said + r.stdout)
    info = json.loads(run(umockdev, ['--root', root, '--json', 'info']).stdout)
    s = parse(r.stdout)
    card = info['card']
    ok(sample(s, 'sdtuner_card_present') == (1 if card['present'] else 0),
       f'{name}: sdtuner_card_present says what info says', r.stdout)
    if not card['present']:
        ok(not any(k[0].startswith('sdtuner_card_info') for k in s), f'{name}: no identity')
        return s
    ids = [k for k in s if k[0] == 'sdtuner_card_info']
    labels = dict(ids[0][1]) if len(ids) == 1 else {}
    want = {'manfid': '' if card['manfid'] is None else f'0x{card["manfid"]:02x}',
            'oemid': card['oemid'] if card['oemid'] is not None else
            f'0x{card["emmc"]["oemid"]:02x}' if (card.get('emmc') or {}).get('oemid') is not None
            else '', 'name': card['name'] or '',
            'serial': card['serial'] or ''}
    ok(len(ids) == 1 and all(labels[k] == v for k, v in want.items()),
       f'{name}: sdtuner_card_info has the registers\' identity', f'{labels} != {want}')
    cap = card['capacity_bytes']
    ok(sample(s, 'sdtuner_card_capacity_bytes') == (None if cap is None else float(cap)),
       f'{name}: capacity as info says', r.stdout)
    emmc = card.get('emmc')
    if name in EMMC:
        level, a, b, eol = EMMC[name]
        levels = {dict(k[1])['level']: v for k, v in s.items() if k[0] == 'sdtuner_emmc_wear'}
        # the odd values' level is sdt-emmc's call (i27-emmc); here: the same word as info
        level = level or emmc['wear']
        ok(levels.get(level) == 1 and sum(levels.values()) == 1 and emmc['wear'] == level,
           f'{name}: eMMC wear "{level}", as info says', f'{levels} {emmc}')
        got = (sample(s, 'sdtuner_emmc_life_time_estimate', type='a'),
               sample(s, 'sdtuner_emmc_life_time_estimate', type='b'),
               sample(s, 'sdtuner_emmc_pre_eol_info'))
        ok(got == tuple(None if v is None else float(v) for v in (a, b, eol)),
           f'{name}: life_time A/B and pre_eol_info {a}, {b}, {eol} (absent when unreadable)',
           got)
    else:
        ok(not any(k[0].startswith('sdtuner_emmc_') for k in s), f'{name}: no eMMC samples')
    if name == 'pi5-nvme-boot':
        ok(sample(s, 'sdtuner_card_holds_system') == 0,
           f'{name}: the system is not on the card (booting from NVMe)')
    clock = info['bus']['actual_clock_hz']
    ok(sample(s, 'sdtuner_bus_actual_clock_hertz') == (None if clock is None else float(clock)),
       f'{name}: actual SD clock as info says (absent when unknown)')
    return s


def test_fixtures(tmp):
    for name, mock, rel in FIXTURES:
        s = check_fixture(tmp, name, mock, rel)
    # the last fixture's history: the card's benchmark, the check, the verification
    ok(sample(s, 'sdtuner_benchmark_throughput_bytes_per_second', test='seq-read') == 22.5e6
       and sample(s, 'sdtuner_benchmark_iops', test='seq-read') == 21.5,
       'the last benchmark of the card, not the later stand-in run')
    ok(sample(s, 'sdtuner_benchmark_timestamp_seconds') == 1767226800.0,
       'the benchmark\'s time as the history recorded it (2026-01-01T00:20:00Z)')
    ok(sample(s, 'sdtuner_benchmark_app_class_met', **{'class': 'A1'}) == 1
       and sample(s, 'sdtuner_benchmark_app_class_met', **{'class': 'A2'}) == 0, 'A1/A2 met')
    ok(sample(s, 'sdtuner_check_verdict', verdict='fake') == 1
       and sample(s, 'sdtuner_check_verdict', verdict='genuine') == 0
       and sample(s, 'sdtuner_check_real_capacity_bytes') == 7.5e9,
       'the last check: fake, and what the card really holds')
    ok(sample(s, 'sdtuner_verification_decision', decision='step-down') == 1
       and sample(s, 'sdtuner_verification_timestamp_seconds') == 1767398400.5,
       'the last verification\'s decision and time')


def test_health(tmp):
    """pi4 with ext4's and the block layer's counters, kernel errors and a remount"""
    root = fixture_root(tmp, 'pi4-health', 'roots/pi4')
    write(root, '/sys/fs/ext4/mmcblk0p2/lifetime_write_kbytes', '123456789\n')
    write(root, '/sys/block/mmcblk0/stat',
          '   12345      100   2000000     5000    67890      200  8000000    9000'
          '        0    10000    14000\n')
    write(root, '/proc/uptime', '172800.50 300000.00\n')
    with open(os.path.join(root, 'dev', 'kmsg'), 'a') as f:
        f.write('3,900,50000000,-;mmc0: error -110 whilst initialising SD card\n')
        f.write('3,901,50000001,-;mmc0: Timeout waiting for hardware interrupt.\n')
        f.write('2,902,50000002,-;EXT4-fs (mmcblk0p2): Remounting filesystem read-only\n')
        f.write('2,903,50000003,-;EXT4-fs (sda1): Remounting filesystem read-only\n')
    hist = os.path.join(root, 'var/lib/sd-tuner/history')
    before = sorted(os.listdir(hist))
    umockdev = os.path.join(DATA, 'umockdev/pi4.umockdev')
    r = run(umockdev, ['--root', root, 'metrics'])
    s = parse(r.stdout)
    h = json.loads(run(umockdev, ['--root', root, '--json', 'health']).stdout)
    ok(sample(s, 'sdtuner_card_lifetime_written_bytes_total') == 123456789 * 1024
       and sample(s, 'sdtuner_card_written_bytes_total') == 8000000 * 512
       and sample(s, 'sdtuner_card_read_bytes_total') == 2000000 * 512,
       'lifetime and since-boot bytes from ext4 and the block layer', r.stdout)
    ok(sample(s, 'sdtuner_card_written_bytes_per_day') == h['writes_per_day_bytes'],
       'writes per day as health says')
    ok(sample(s, 'sdtuner_mmc_errors_total') == 2 == h['kernel_errors_since_boot'],
       'mmc errors since boot')
    ok(sample(s, 'sdtuner_card_read_only_remounts_total') == 1
       == h['read_only_remounts_since_boot'], 'the card\'s read-only remount, not sda1\'s')
    ok(sample(s, 'sdtuner_card_write_protected', kind='permanent') == 0
       and sample(s, 'sdtuner_card_write_protected', kind='temporary') == 0,
       'write-protect bits')
    cq = {dict(k[1])['state']: v for k, v in s.items() if k[0] == 'sdtuner_bus_command_queue'}
    ok(len(cq) == 4 and sum(cq.values()) == 1, 'queueing: one state of the set is 1', cq)
    ok(sorted(os.listdir(hist)) == before, 'metrics write nothing into the history')
    if PROMTOOL:
        rc, said = promtool(r.stdout)
        ok(rc == 0 and said == '', 'pi4 with counters: promtool finds nothing wrong', said)


def test_hostile(tmp):
    """a CID whose OEM id and product name hold a quote and a backslash"""
    with open(os.path.join(DATA, 'umockdev/pi3.umockdev')) as f:
        text = f.read()
    # MID 03, OID '"\', PNM 'a"b\c'
    text = text.replace('cid=0353445355303847801e4c298300d28e',
                        'cid=03225c6122625c63801e4c298300d28e')
    mock = os.path.join(tmp, 'hostile.umockdev')
    with open(mock, 'w') as f:
        f.write(text)
    root = fixture_root(tmp, 'hostile', 'roots/pi3')
    r = run(mock, ['--root', root, 'metrics'])
    line = [x for x in r.stdout.splitlines() if x.startswith('sdtuner_card_info')]
    # the CID decoder writes a backslash of the name as \x5c itself (info shows the same)
    ok(len(line) == 1 and 'name="a\\"b\\\\x5cc"' in line[0] and 'oemid="\\"\\\\"' in line[0],
       'label values escaped (quote, backslash)', '\n'.join(line) + r.stderr)
    info = json.loads(run(mock, ['--root', root, '--json', 'info']).stdout)['card']
    labels = dict([k for k in parse(r.stdout) if k[0] == 'sdtuner_card_info'][0][1])
    ok(labels['name'] == info['name'] == 'a"b\\x5cc'
       and labels['oemid'] == info['oemid'] == '"\\',
       'and read back as the registers\' words, as info shows them', f'{labels} {info}')
    if PROMTOOL:
        rc, said = promtool(r.stdout)
        ok(rc == 0 and said == '', 'hostile labels: promtool finds nothing wrong', said)


def files_in(d):
    return sorted(os.listdir(d))


def test_output(tmp):
    umockdev = os.path.join(DATA, 'umockdev/pi5.umockdev')
    root = fixture_root(tmp, 'pi5-out', 'roots/pi5')
    out = os.path.join(tmp, 'out')
    os.mkdir(out)
    target = os.path.join(out, 'sdtuner.prom')
    old = os.umask(0o077)
    try:
        r = run(umockdev, ['--root', root, 'metrics', '--output', target])
    finally:
        os.umask(old)
    printed = run(umockdev, ['--root', root, 'metrics']).stdout
    ok(r.returncode == 0 and r.stdout == '' and files_in(out) == ['sdtuner.prom'],
       '--output writes the file and nothing else', r.stderr + str(files_in(out)))
    ok(os.stat(target).st_mode & 0o7777 == 0o644, 'world-readable (0644) under umask 077')
    with open(target) as f:
        ok(f.read() == printed, 'the same text as on standard output')
    r = run(umockdev, ['--root', root, 'metrics', '--output', os.path.join(tmp, 'nope', 'x.prom')])
    ok(r.returncode == 1 and 'does not exist' in r.stderr, 'a missing folder: exit 1, says so',
       r.stderr)
    if os.geteuid() != 0:
        missing('read-only and full file systems', 'needs root to mount tmpfs')
        return
    for kind, opts, word in (('read-only', 'ro,size=64k', 'read-only'),
                             ('full', 'size=64k', 'full')):
        mnt = os.path.join(tmp, 'mnt-' + kind)
        os.mkdir(mnt)
        subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=64k', 'sdt-metrics', mnt], check=True)
        try:
            dest = os.path.join(mnt, 'sdtuner.prom')
            with open(dest, 'w') as f:
                f.write('# the previous run\n')
            if kind == 'full':
                fd = os.open(os.path.join(mnt, 'filler'), os.O_WRONLY | os.O_CREAT)
                try:
                    while os.write(fd, b'\0' * 4096) > 0:
                        pass
                except OSError:
                    pass
                os.close(fd)
            else:
                subprocess.run(['mount', '-o', 'remount,' + opts, mnt], check=True)
            before = files_in(mnt)
            r = run(umockdev, ['--root', root, 'metrics', '--output', dest])
            with open(dest) as f:
                kept = f.read()
            ok(r.returncode == 1 and word in r.stderr and dest in r.stderr,
               f'a {kind} file system: exit 1 and a message naming the file and why', r.stderr)
            ok(kept == '# the previous run\n' and files_in(mnt) == before,
               f'{kind}: the old file as it was, no temporary file left',
               f'{files_in(mnt)} {kept!r}')
        finally:
            subprocess.run(['umount', mnt], check=True)


RACER = r"""
import os, sys
pub, secret, stop = sys.argv[1:4]
prom, real, link = (os.path.join(pub, n) for n in ('prom', 'prom.real', 'prom.link'))
os.mkdir(real)
os.symlink(secret, link)
swaps = 0
while not os.path.exists(stop):
    # the folder the root process was given is now this user's own, now a link to a root-only one
    for other in (real, link):
        os.rename(other, prom)
        os.rename(prom, other)
        swaps += 1
print(swaps)
"""


def test_output_planted(tmp):
    """issue 33: as root, `--output` into a folder another user controls follows no link it
    planted, writes nothing through it and leaves no temporary file, also under racing renames
    (before: 69 stray sdtuner.prom.XXXXXX in a root-only folder)"""
    if os.geteuid() != 0:
        missing('--output never follows a link another user planted', 'needs root and the user nobody')
        return
    import pwd
    nobody = pwd.getpwnam('nobody')
    base = tempfile.mkdtemp(prefix='sdt-metrics-planted-', dir='/tmp')
    umockdev = os.path.join(DATA, 'umockdev/pi5.umockdev')
    root = fixture_root(tmp, 'pi5-planted', 'roots/pi5')
    try:
        os.chmod(base, 0o755)
        secret = os.path.join(base, 'root-only')
        os.mkdir(secret, 0o700)
        pub = os.path.join(base, 'pub')
        os.mkdir(pub)
        os.chown(pub, nobody.pw_uid, nobody.pw_gid)
        as_nobody = dict(user=nobody.pw_uid, group=nobody.pw_gid, extra_groups=[])
        dest = os.path.join(pub, 'prom', 'sdtuner.prom')
        # a folder of that user, then a link it planted to a root-only folder
        subprocess.run(['mkdir', os.path.join(pub, 'prom')], check=True, **as_nobody)
        r = run(umockdev, ['--root', root, 'metrics', '--output', dest])
        ok(r.returncode == 1 and 'another user' in r.stderr and os.listdir(os.path.join(pub, 'prom')) == [],
           '--output into a folder of another user (nobody): refused, nothing written', r.stderr)
        shutil.rmtree(os.path.join(pub, 'prom'))  # what an old SD Tuner may have left in it
        subprocess.run(['ln', '-s', secret, os.path.join(pub, 'prom')], check=True, **as_nobody)
        r = run(umockdev, ['--root', root, 'metrics', '--output', dest])
        ok(r.returncode == 1 and 'symbolic link' in r.stderr and os.listdir(secret) == [],
           '--output through a link nobody planted to a root-only folder: refused, nothing written there',
           f'{r.stderr}{os.listdir(secret)}')
        os.unlink(os.path.join(pub, 'prom'))
        for f in os.listdir(secret):
            os.unlink(os.path.join(secret, f))
        # the race: nobody swaps the folder and the link while root writes, 60 times
        stop = os.path.join(base, 'stop')
        racer = subprocess.Popen(['/usr/bin/python3', '-c', RACER, pub, secret, stop], stdout=subprocess.PIPE,
                                 text=True, **as_nobody)
        codes = []
        try:
            for _ in range(60):
                codes.append(run(umockdev, ['--root', root, 'metrics', '--output', dest]).returncode)
        finally:
            with open(stop, 'w'):
                pass
            swaps = racer.communicate(timeout=30)[0].strip()
        left = {d: sorted(os.listdir(d)) for d in (secret, pub, os.path.join(pub, 'prom.real'))}
        print(f'# racing renames: {swaps} swaps by nobody, 60 runs, exit codes {sorted(set(codes))}, '
              f'left: {left}', flush=True)
        ok(racer.returncode == 0 and left == {secret: [], pub: ['prom.link', 'prom.real'],
                                              os.path.join(pub, 'prom.real'): []}
           and set(codes) == {1},
           '--output under racing renames by nobody: every run refused, no stray temporary file, '
           'nothing in the root-only folder', f'{left} {codes}')
        # a sticky folder everyone may write (/tmp's kind) is fine; one without the sticky bit is not
        for mode, good in ((0o1777, True), (0o777, False)):
            d = os.path.join(base, f'shared-{mode:o}')
            os.mkdir(d)
            os.chmod(d, mode)
            r = run(umockdev, ['--root', root, 'metrics', '--output', os.path.join(d, 'sdtuner.prom')])
            ok((r.returncode == 0) == good and sorted(os.listdir(d)) == (['sdtuner.prom'] if good else []),
               f'a root-owned folder of mode {mode:o}: ' + ('written' if good else 'refused, nothing written'),
               r.stderr)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def unit_exec(unit):
    with open(os.path.join(UNITS, unit)) as f:
        line = [x for x in f.read().splitlines() if x.startswith('ExecStart=')]
    assert len(line) == 1, line
    return shlex.split(line[0][len('ExecStart='):])


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def scrape(port, proc):
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with urllib.request.urlopen(f'http://127.0.0.1:{port}/metrics', timeout=5) as resp:
                return resp.read().decode()
        except OSError:
            time.sleep(0.1)
    return None


def test_node_exporter(tmp):
    if NODE_EXPORTER is None:
        missing('node_exporter serves the metrics', 'prometheus-node-exporter is not installed')
        return
    textfile = os.path.join(tmp, 'node-exporter')
    os.mkdir(textfile)
    # the unit's own command, with the build's sdtunerctl and the test's textfile folder;
    # $SDTUNER_ROOT points it at the pi5 fixture (the unit reads /)
    argv = unit_exec('sd-tuner-metrics.service')
    ok(argv[1:] == ['metrics', '--output', TEXTFILE_DIR + '/sdtuner.prom'],
       'the unit runs `sdtunerctl metrics --output .../sdtuner.prom` (never a benchmark)', argv)
    argv = [SDTUNERCTL] + [a.replace(TEXTFILE_DIR, textfile) for a in argv[1:]]
    env = dict(os.environ, SDTUNER_ROOT=fixture_root(tmp, 'pi5-node', 'roots/pi5'))
    r = subprocess.run(['umockdev-run', '-d', os.path.join(DATA, 'umockdev/pi5.umockdev'),
                        '--'] + argv, capture_output=True, text=True, timeout=60, env=env)
    ok(r.returncode == 0, 'the unit\'s command ran', r.stderr)
    port = free_port()
    proc = subprocess.Popen([NODE_EXPORTER, f'--web.listen-address=127.0.0.1:{port}',
                             '--collector.disable-defaults', '--collector.textfile',
                             f'--collector.textfile.directory={textfile}'],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        body = scrape(port, proc)
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    ok(body is not None, f'node_exporter answered on 127.0.0.1:{port}/metrics', err)
    if body is None:
        return
    served = {k: v for k, v in parse(body).items() if k[0].startswith('sdtuner_')}
    with open(os.path.join(textfile, 'sdtuner.prom')) as f:
        written = parse(f.read())
    ok(served == written and len(served) > 20,
       f'node_exporter serves every sdtuner_ sample the unit wrote ({len(served)})',
       f'served only: {set(served) - set(written)}\nwritten only: {set(written) - set(served)}')
    ok(parse(body).get(('node_textfile_scrape_error', ())) == 0.0,
       'node_textfile_scrape_error 0', body[-2000:])
    ok(any(k[0] == 'sdtuner_card_info' and dict(k[1]).get('device') == 'mmcblk0'
           for k in served), 'the card\'s identity is served')


def security(unit_path):
    r = subprocess.run([ANALYZE, 'security', '--offline=true', '--no-pager', unit_path],
                       capture_output=True, text=True, timeout=120)
    m = re.search(r'Overall exposure level for \S+: ([0-9.]+)', r.stdout)
    return (float(m.group(1)) if m else None), r.stdout + r.stderr


def test_units(tmp):
    if ANALYZE is None:
        missing('systemd units', 'systemd-analyze is not installed')
        return
    units = os.path.join(tmp, 'units')
    os.mkdir(units)
    for name in ('sd-tuner-metrics.service', 'sd-tuner-metrics.timer'):
        with open(os.path.join(UNITS, name)) as f:
            text = f.read()
        # the build's sdtunerctl where the unit names the installed one
        text = re.sub(r'^ExecStart=\S+', f'ExecStart={SDTUNERCTL}', text, flags=re.M)
        with open(os.path.join(units, name), 'w') as f:
            f.write(text)
    r = subprocess.run([ANALYZE, 'verify', '--man=no',
                        os.path.join(units, 'sd-tuner-metrics.timer'),
                        os.path.join(units, 'sd-tuner-metrics.service')],
                       capture_output=True, text=True, timeout=120)
    ok(r.returncode == 0 and r.stdout + r.stderr == '',
       'systemd-analyze verify: the timer and its service are clean', r.stdout + r.stderr)
    with open(os.path.join(units, 'sd-tuner-metrics.timer')) as f:
        timer = f.read()
    ok('OnUnitActiveSec=15min' in timer and 'WantedBy=timers.target' in timer,
       'every 15 minutes, wanted by timers.target once enabled')
    with open(os.path.join(units, 'sd-tuner-metrics.service')) as f:
        service = f.read()
    rw = re.findall(r'^ReadWritePaths=(.*)$', service, flags=re.M)
    ok(rw == [TEXTFILE_DIR] and '[Install]' not in service,
       'the service may write only the textfile folder and is started by the timer only', rw)
    mine, mine_text = security(os.path.join(units, 'sd-tuner-metrics.service'))
    helper, helper_text = security(os.path.join(UNITS, 'sd-tuner-helper.service'))
    print(f'# systemd-analyze security --offline=true: sd-tuner-metrics.service {mine}, '
          f'sd-tuner-helper.service {helper}', flush=True)
    ok(mine is not None and helper is not None and mine <= helper,
       f'exposure of sd-tuner-metrics.service ({mine}) at most the helper\'s ({helper})',
       mine_text + helper_text)


def test_readme_rule(tmp):
    """the README's alert rule is one Prometheus loads"""
    with open(os.path.join(HERE, '..', 'README.md')) as f:
        m = re.search(r'```yaml\n(groups:.*?)```', f.read(), flags=re.S)
    ok(m is not None and 'sdtuner_' in m.group(1), 'the README has an alert rule')
    path = os.path.join(tmp, 'rules.yml')
    with open(path, 'w') as f:
        f.write(m.group(1) if m else '')
    r = subprocess.run([PROMTOOL, 'check', 'rules', path], capture_output=True, text=True,
                       timeout=60)
    ok(r.returncode == 0 and 'SUCCESS: 1 rules found' in r.stdout,
       'promtool check rules accepts it', r.stdout + r.stderr)


if PROMTOOL is None:
    missing('promtool check metrics', 'promtool (Debian package prometheus) is not installed')

with tempfile.TemporaryDirectory() as tmp:
    test_fixtures(tmp)
    test_health(tmp)
    test_hostile(tmp)
    test_output(tmp)
    test_output_planted(tmp)
    test_node_exporter(tmp)
    test_units(tmp)
    if PROMTOOL:
        test_readme_rule(tmp)

sys.exit(finish())
