#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: verify-steps-kill suite=integration timeout=600 protocol=tap env=test
#    args=@sdtunerctl@
"""Issue 23 item 4: `verify` killed (SIGKILL, nothing to catch) after every durable step of
keep, step down and undo, plain and trial, and then run again: the next run in the same
boot, and in another copy the next boot, must complete to a recorded decision.

The kill is real and lands at a known place: with SDTUNER_TEST_KILL_AT=N sdtunerctl kills
itself right after its N-th durable change to SD Tuner's files (each rename and removal of
the config writer, each save and removal of pending.json, each history entry;
sdt_file_kill_point()).  For each scenario N runs from 1 until a run is not killed, so every
step is hit, on a fresh copy of the simulated Pi 3 each time.  After each kill:

  same boot:  the rerun exits 0 with the scenario's decision, config.txt and tryboot.txt
              byte for byte as an unkilled run leaves them, the pending record as it leaves
              it, and exactly one history entry for the decision;
  next boot:  the run of the next boot exits 0, no decision is recorded twice, and any
              pending record names the block that is in its file (never an id the files
              do not have).

usage: test-verify-steps-kill.py SDTUNERCTL   (run by meson; prints TAP)"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

from sdttap import finish, ok

SDTUNERCTL = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, 'data')
BOOKWORM = os.path.join(DATA, 'config', 'rpios-bookworm.txt')
BOOT = ['0b6f8a52-2a4e-4a55-9a43-6a5f0d3b1c11', '5d0e7c1a-9f3b-4c2d-8e1f-2b3c4d5e6f70',
        '9a1c3e5f-7b2d-4f60-8a1b-3c5d7e9f0a12']
KILLED = (137, -9)
MAX_STEPS = 40


def read(path, mode='r'):
    with open(path, mode) as f:
        return f.read()


def write(path, data, mode='w'):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(data)


def oc(mhz):
    return (f'# --- SD Tuner begin: sd-overclock-{mhz} (undo: sdtunerctl revert) ---\n'
            f'[all]\n[board-type=0x08]\ndtoverlay=\ndtparam=sd_overclock={mhz}\n[all]\n'
            '# --- SD Tuner end ---\n')


CLEAN = ['6,0,0,-;Booting Linux on physical CPU 0x0000000000 [0x410fd034]',
         '6,3,1500000,-;mmc0: sdhost-bcm2835 loaded - DMA enabled (>1)',
         '6,6,1537035,-;mmc0: new high speed SDHC card at address 0001']
ERRORS = ['3,21,9100000,-;mmcblk0: error -110 transferring data, sector 1234, nr 8, cmd response 0x900, '
          'card status 0xc00']


def fig(median, spread):
    return {'median': median, 'spread': spread, 'unit': 'MB/s'}


SOAK = {'bytes_written': 67108864, 'bytes_checked': 67108864, 'mismatches': 0, 'first_bad_offset': None}
FASTER = {'soak': SOAK, 'before': {'seq-write': fig(18.0, 0.4), 'seq-read': fig(22.0, 0.3)},
          'after': {'seq-write': fig(21.5, 0.5), 'seq-read': fig(41.0, 0.6)}}
MISMATCH = dict(FASTER, soak=dict(SOAK, mismatches=4096, first_bad_offset=12582912))


class Root:
    def __init__(self, tmp, name):
        self.path = os.path.join(tmp, name)
        shutil.copytree(os.path.join(DATA, 'roots', 'pi3'), self.path)
        self.umockdev = os.path.join(DATA, 'umockdev', 'pi3.umockdev')
        self.fw = os.path.join(self.path, 'boot', 'firmware')
        self.config = os.path.join(self.fw, 'config.txt')
        self.tryboot = os.path.join(self.fw, 'tryboot.txt')
        self.state = os.path.join(self.path, 'var', 'lib', 'sd-tuner')
        self.evidence = os.path.join(self.path, 'evidence.json')
        self.old = read(BOOKWORM)
        write(self.config, self.old)
        self.boot(0, 50000000, CLEAN, False)

    def run(self, *args, kill_at=None):
        cmd = ['umockdev-run', '-d', self.umockdev, '--', SDTUNERCTL, '--root', self.path, '--json'] + list(args)
        env = dict(os.environ, LANGUAGE='C', LC_ALL='C.UTF-8')
        env.pop('SDTUNER_ROOT', None)
        env.pop('SDTUNER_TEST_KILL_AT', None)
        if kill_at is not None:
            env['SDTUNER_TEST_KILL_AT'] = str(kill_at)
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
        try:
            return p, json.loads(p.stdout)
        except ValueError:
            return p, None

    def boot(self, i, hz, log, tryboot):
        write(os.path.join(self.path, 'proc', 'sys', 'kernel', 'random', 'boot_id'), BOOT[i] + '\n')
        ios = os.path.join(self.path, 'sys', 'kernel', 'debug', 'mmc0', 'ios')
        write(ios, '\n'.join(f'actual clock:\t{hz} Hz' if x.startswith('actual clock:') else x
                             for x in read(ios).splitlines()) + '\n')
        write(os.path.join(self.path, 'dev', 'kmsg'), '\n'.join(log) + '\n')
        flag = os.path.join(self.path, 'proc', 'device-tree', 'chosen', 'bootloader', 'tryboot')
        if tryboot:
            write(flag, b'\0\0\0\1', 'wb')
        elif os.path.exists(flag):
            os.unlink(flag)

    def verify(self, evidence, kill_at=None):
        write(self.evidence, json.dumps(evidence))
        return self.run('verify', '--evidence', self.evidence, kill_at=kill_at)

    def files(self):
        return (read(self.config), read(self.tryboot) if os.path.exists(self.tryboot) else None)

    def pending(self):
        path = os.path.join(self.state, 'pending.json')
        return json.loads(read(path)) if os.path.exists(path) else None

    def verifies(self):
        return [json.loads(read(f)) for f in
                sorted(glob.glob(os.path.join(self.state, 'history', '*-verify.json')))]

    def block_id(self, trial):
        text = self.files()[1 if trial else 0] or ''
        for line in text.splitlines():
            if line.startswith('# --- SD Tuner begin: '):
                return line.split(': ')[1].split(' ')[0]
        return None

    def strays(self):
        """temporary files of a killed writer that nobody removed"""
        return [f for d in (self.fw, self.state, os.path.join(self.state, 'backups'))
                if os.path.isdir(d) for f in os.listdir(d)
                if '.sd-tuner-tmp-' in f or f.startswith('pending.json.')]


def hz(mhz):
    return {100: 100000000, 80: 80000000}[mhz]


def log_at(mhz, errors=()):
    return CLEAN[:2] + [f'6,4,1512345,-;mmc0: overclocking to {hz(mhz)}Hz'] + CLEAN[2:] + list(errors)


# name, trial, boot-1 log, evidence, decision, expected (config.txt, tryboot.txt), pending id after
SCENARIOS = [
    ('keep', False, log_at(100), FASTER, 'keep', lambda o: (o + oc(100), None), None),
    ('keep trial', True, log_at(100), FASTER, 'keep', lambda o: (o + oc(100), None), None),
    ('step down', False, log_at(100, ERRORS), FASTER, 'step-down', lambda o: (o + oc(80), None),
     'sd-overclock-80'),
    ('step down trial', True, log_at(100, ERRORS), FASTER, 'step-down', lambda o: (o, o + oc(80)),
     'sd-overclock-80'),
    ('undo', False, log_at(100), MISMATCH, 'undo', lambda o: (o, None), None),
    ('undo trial', True, log_at(100), MISMATCH, 'undo', lambda o: (o, None), None),
]


def prepare(tmp, name, trial, log):
    r = Root(tmp, name)
    p, _ = r.run('apply', 'sd-overclock-100', *(['--trial'] if trial else []))
    assert p.returncode == 0, p.stderr
    r.boot(1, 100000000, log, trial)
    return r


def check_same_boot(r, sc, n, p, res):
    name, trial, log, evidence, decision, files, pending_id = sc
    h = r.verifies()
    pend = r.pending()
    # killed after the last step, the action was complete: nothing pending, or the next
    # step waiting for its restart
    done = res is not None and ((res.get('pending') is False and pending_id is None)
                                or (res.get('decision') == 'wait' and pending_id is not None))
    good = (p.returncode == 0 and res is not None and (res.get('decision') == decision or done)
            and r.files() == files(r.old) and len(h) == 1 and h[0]['decision'] == decision
            and (pend['id'] if pend else None) == pending_id
            and (pend is None or ('decided' not in pend and pend['step'] == 1)) and r.strays() == [])
    ok(good, f'{name}: killed after step {n}, the rerun in the same boot completes to "{decision}"',
       f'rc={p.returncode}\n{p.stdout}\n{p.stderr}\nfiles ok: {r.files() == files(r.old)}\n'
       f'history: {json.dumps(h, indent=1)}\npending: {json.dumps(pend, indent=1)}\nstrays: {r.strays()}')


def check_next_boot(r, sc, n, p, res):
    name, trial, log, evidence, decision, files, pending_id = sc
    h = r.verifies()
    pend = r.pending()
    decided = [e.get('decided_at') for e in h]
    first = h[0]['decision'] if h else None
    consistent = pend is None or pend['id'] == r.block_id(pend['trial'])
    good = (p.returncode == 0 and res is not None
            and (res.get('decision') is not None or res.get('pending') is False) and len(h) >= 1
            and len(set(decided)) == len(decided) and first == decision and consistent and r.strays() == [])
    ok(good, f'{name}: killed after step {n}, the next boot completes to a recorded decision',
       f'rc={p.returncode}\n{p.stdout}\n{p.stderr}\nhistory: {json.dumps(h, indent=1)}\n'
       f'pending: {json.dumps(pend, indent=1)}')


def scenario(tmp, sc):
    name, trial, log, evidence, decision, files, pending_id = sc
    slug = name.replace(' ', '-')
    for n in range(1, MAX_STEPS + 1):
        r = prepare(tmp, f'{slug}-{n}', trial, log)
        p, res = r.verify(evidence, kill_at=n)
        if p.returncode not in KILLED:
            # not killed: every step was hit; this is the unkilled run, as it must end
            check_same_boot(r, sc, 'none (not killed)', p, res)
            print(f'# {name}: {n - 1} kill points', flush=True)
            return n - 1
        p, res = r.verify(evidence)
        check_same_boot(r, sc, n, p, res)
        # the same kill, then the next boot (the same kernel log: the same facts)
        r2 = prepare(tmp, f'{slug}-{n}-next', trial, log)
        p, res = r2.verify(evidence, kill_at=n)
        ok(p.returncode in KILLED, f'{name}: the kill after step {n} is repeatable', p.stderr)
        r2.boot(2, 100000000, log, trial)
        p, res = r2.verify(evidence)
        check_next_boot(r2, sc, n, p, res)
        shutil.rmtree(r.path)
        shutil.rmtree(r2.path)
    ok(False, f'{name}: more than {MAX_STEPS} kill points')
    return MAX_STEPS


def main_keep_kill_state(tmp):
    """the state the keep of a trial left on main when killed between its two steps (3 of 60
    random SIGKILLs in the review): tryboot.txt and its record gone, config.txt without the
    block, pending.json still the trial's.  Whatever the code, the next run must complete to
    a recorded decision, never fail on every boot with "nothing to revert"."""
    r = prepare(tmp, 'main-keep-kill', True, log_at(100))
    os.unlink(r.tryboot)
    os.unlink(os.path.join(r.state, 'trial-journal.json'))
    p, res = r.verify(FASTER)
    h = r.verifies()
    ok(p.returncode == 0 and res is not None and res.get('decision') in ('keep', 'undo') and len(h) == 1
       and r.pending() is None and r.files()[1] is None
       and r.files()[0] in (r.old, r.old + oc(100)),
       'the state a kill left in the keep of a trial on main: the next run completes to a recorded decision',
       f'rc={p.returncode}\n{p.stdout}\n{p.stderr}\nhistory: {h}')


tmp = tempfile.mkdtemp(prefix=f'sdt-verify-steps-kill-{os.getpid()}-')
figures = []
try:
    main_keep_kill_state(tmp)
    for sc in SCENARIOS:
        figures.append((sc[0], scenario(tmp, sc)))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
print('# scenario | kill points (each: a same-boot rerun and a next-boot run)', flush=True)
for name, n in figures:
    print(f'# {name} | {n}', flush=True)
ok(all(n >= 2 for _, n in figures), 'every scenario has at least two kill points', str(figures))
sys.exit(finish())
