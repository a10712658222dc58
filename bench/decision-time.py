#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
"""decision-time.py - how long `status` and the verify decision take, the benchmark
excluded (issue 10: under 1 s each).

    bench/decision-time.py _build/src/cli/sdtunerctl [RUNS]

On a copy of the Pi 3 fixture root (tests/data) with the stock bookworm config.txt:
`apply sd-overclock-100`, a simulated restart at 100 MHz with a clean kernel log, then
RUNS times each: `status --json`, and `verify --evidence FILE` (the soak and benchmark
results given, so only the decision is timed: reading the pending state, the kernel log
and the SD bus, deciding, writing config.txt and history) on a fresh copy of the root.
Each command runs under umockdev-run, whose own start-up is timed too and printed
separately. Prints the median and the slowest run.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

CTL = os.path.abspath(sys.argv[1])
RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 10
TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(TOP, 'tests', 'data')
UMOCKDEV = os.path.join(DATA, 'umockdev', 'pi3.umockdev')
BOOT1 = '5d0e7c1a-9f3b-4c2d-8e1f-2b3c4d5e6f70'
FIG = {'median': 0, 'spread': 0, 'unit': 'MB/s'}
EVIDENCE = {
    'soak': {'bytes_written': 67108864, 'bytes_checked': 67108864, 'mismatches': 0,
             'first_bad_offset': None},
    'before': {'seq-write': dict(FIG, median=18.0, spread=0.4), 'seq-read': dict(FIG, median=22.0, spread=0.3)},
    'after': {'seq-write': dict(FIG, median=21.5, spread=0.5), 'seq-read': dict(FIG, median=41.0, spread=0.6)},
}


def write(path, data, mode='w'):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(data)


def run(root, *args, mock=True):
    cmd = ([CTL, '--root', root] + list(args)) if mock else ['true']
    cmd = ['umockdev-run', '-d', UMOCKDEV, '--'] + cmd
    env = dict(os.environ, LANGUAGE='C', LC_ALL='C.UTF-8')
    start = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    return time.monotonic() - start, p


def boot(root, boot_id, clock_hz):
    """a boot: its id and the SD bus clock in debugfs"""
    write(os.path.join(root, 'proc', 'sys', 'kernel', 'random', 'boot_id'), boot_id + '\n')
    ios = os.path.join(root, 'sys', 'kernel', 'debug', 'mmc0', 'ios')
    with open(ios) as f:
        lines = [(f'actual clock:\t{clock_hz} Hz' if l.startswith('actual clock:') else l)
                 for l in f.read().splitlines()]
    write(ios, '\n'.join(lines) + '\n')


def prepare(tmp):
    root = os.path.join(tmp, 'root')
    shutil.copytree(os.path.join(DATA, 'roots', 'pi3'), root)
    with open(os.path.join(DATA, 'config', 'rpios-bookworm.txt')) as f:
        write(os.path.join(root, 'boot', 'firmware', 'config.txt'), f.read())
    boot(root, '0b6f8a52-2a4e-4a55-9a43-6a5f0d3b1c11', 50000000)
    _, p = run(root, 'apply', 'sd-overclock-100')
    if p.returncode != 0:
        sys.exit(f'apply failed: {p.stderr}')
    # the restart: a new boot id, the bus at 100 MHz, a clean kernel log
    boot(root, BOOT1, 100000000)
    write(os.path.join(root, 'dev', 'kmsg'),
          '6,3,1500000,-;mmc0: sdhost-bcm2835 loaded - DMA enabled (>1)\n'
          '6,4,1512345,-;mmc0: overclocking to 100000000Hz\n'
          '6,6,1537035,-;mmc0: new high speed SDHC card at address 0001\n')
    write(os.path.join(tmp, 'evidence.json'), json.dumps(EVIDENCE))
    return root


def report(name, times):
    print(f'{name:28s} median {statistics.median(times) * 1000:7.1f} ms   '
          f'slowest {max(times) * 1000:7.1f} ms   ({len(times)} runs)')


with tempfile.TemporaryDirectory(prefix='sdt-decision-') as tmp:
    root = prepare(tmp)
    base, status, verify = [], [], []
    for i in range(RUNS):
        base.append(run(root, mock=False)[0])
        t, p = run(root, '--json', 'status')
        if p.returncode != 0 or json.loads(p.stdout)['pending_verification'] is None:
            sys.exit(f'status failed: {p.stdout}{p.stderr}')
        status.append(t)
        copy = os.path.join(tmp, f'copy{i}')
        shutil.copytree(root, copy, symlinks=True)
        t, p = run(copy, '--json', 'verify', '--evidence', os.path.join(tmp, 'evidence.json'))
        if p.returncode != 0 or json.loads(p.stdout)['decision'] != 'keep':
            sys.exit(f'verify failed: {p.stdout}{p.stderr}')
        verify.append(t)
        shutil.rmtree(copy)
    report('umockdev-run alone', base)
    report('status', status)
    report('verify decision (keep)', verify)
    worst = max(statistics.median(status), statistics.median(verify))
    print(f'target: under 1 s each; slower median {worst * 1000:.1f} ms '
          f'(including umockdev-run\'s {statistics.median(base) * 1000:.1f} ms)')
