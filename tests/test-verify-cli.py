#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: verify-cli suite=integration timeout=180 protocol=tap env=test args=@sdtunerctl@
"""The issue's simulated matrix through `sdtunerctl --root DIR verify` (the entry point
sd-tuner-verify.service runs) under umockdev-run: each outcome is made of fixture kernel
logs, `ios` files, boot ids, the tryboot flag and a soak/benchmark evidence file; each
asserts the decision, the history entry and the exact config.txt and tryboot.txt bytes.

usage: test-verify-cli.py SDTUNERCTL   (run by meson; prints TAP)"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from sdttap import finish, ok

SDTUNERCTL = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, 'data')
BOOKWORM = os.path.join(DATA, 'config', 'rpios-bookworm.txt')
BOOT = ['0b6f8a52-2a4e-4a55-9a43-6a5f0d3b1c11', '5d0e7c1a-9f3b-4c2d-8e1f-2b3c4d5e6f70',
        '9a1c3e5f-7b2d-4f60-8a1b-3c5d7e9f0a12', 'c4e6a8b0-1d3f-4a5c-9e7b-2d4f6a8c0e13',
        'e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a15']


def read(path, mode='r'):
    with open(path, mode) as f:
        return f.read()


def write(path, data, mode='w'):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(data)


def block(id_, setting, filt='[board-type=0x08]'):
    return (f'# --- SD Tuner begin: {id_} (undo: sdtunerctl revert) ---\n'
            f'[all]\n{filt}\ndtoverlay=\n{setting}\n[all]\n'
            '# --- SD Tuner end ---\n')


def oc(mhz):
    return block(f'sd-overclock-{mhz}', f'dtparam=sd_overclock={mhz}')


CLEAN_PI3 = ['6,0,0,-;Booting Linux on physical CPU 0x0000000000 [0x410fd034]',
             '6,3,1500000,-;mmc0: sdhost-bcm2835 loaded - DMA enabled (>1)',
             '6,6,1537035,-;mmc0: new high speed SDHC card at address 0001',
             '6,7,1549380,-;mmcblk0: mmc0:0001 SU08G 7.40 GiB ',
             ' mmcblk0: p1 p2']
ERRORS = ['4,20,9000000,-;mmc0: reducing overclock due to errors',
          '3,21,9100000,-;mmcblk0: error -110 transferring data, sector 1234, nr 8, cmd response 0x900, '
          'card status 0xc00',
          '3,22,9200000,-;I/O error, dev mmcblk0, sector 123456 op 0x0:(READ) flags 0x80700']


def fig(median, spread, unit='MB/s'):
    return {'median': median, 'spread': spread, 'unit': unit}


SOAK_CLEAN = {'bytes_written': 67108864, 'bytes_checked': 67108864, 'mismatches': 0, 'first_bad_offset': None}
BEFORE = {'seq-write': fig(18.0, 0.4), 'seq-read': fig(22.0, 0.3), 'rand-4k-read-qd32': fig(2000, 40, 'IOPS')}
FASTER = {'soak': SOAK_CLEAN, 'before': BEFORE,
          'after': {'seq-write': fig(21.5, 0.5), 'seq-read': fig(41.0, 0.6),
                    'rand-4k-read-qd32': fig(2400, 50, 'IOPS')}}
NO_GAIN = {'soak': SOAK_CLEAN, 'before': {'seq-write': fig(18.0, 1.0), 'seq-read': fig(22.0, 2.0)},
           'after': {'seq-write': fig(19.5, 1.0), 'seq-read': fig(23.0, 2.0)}}
KINGSTON = {'soak': SOAK_CLEAN, 'before': {'seq-write': fig(9.24, 0.1), 'seq-read': fig(22.0, 0.3)},
            'after': {'seq-write': fig(8.17, 0.1), 'seq-read': fig(41.0, 0.6)}}
MISMATCH = dict(FASTER, soak={'bytes_written': 67108864, 'bytes_checked': 67108864, 'mismatches': 4096,
                              'first_bad_offset': 12582912})


class Root:
    """a copy of a board fixture with the stock bookworm config.txt, at boot BOOT[0]"""

    def __init__(self, tmp, name, fixture='pi3', umockdev='pi3.umockdev'):
        self.path = os.path.join(tmp, name)
        shutil.copytree(os.path.join(DATA, 'roots', fixture), self.path)
        self.umockdev = os.path.join(DATA, 'umockdev', umockdev)
        self.fw = os.path.join(self.path, 'boot', 'firmware')
        self.config = os.path.join(self.fw, 'config.txt')
        self.tryboot = os.path.join(self.fw, 'tryboot.txt')
        self.state = os.path.join(self.path, 'var', 'lib', 'sd-tuner')
        self.evidence = os.path.join(self.path, 'evidence.json')
        write(self.config, read(BOOKWORM))
        self.old = read(BOOKWORM)
        self.boot(0)

    def run(self, *args, timeout=60):
        cmd = ['umockdev-run', '-d', self.umockdev, '--', SDTUNERCTL, '--root', self.path] + list(args)
        env = dict(os.environ, LANGUAGE='C', LC_ALL='C.UTF-8')
        env.pop('SDTUNER_ROOT', None)
        return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)

    def json(self, *args):
        p = self.run('--json', *args)
        try:
            return p, json.loads(p.stdout)
        except ValueError:
            return p, None

    def boot(self, i, clock_hz=50000000, log=None, tryboot=False):
        """a (simulated) boot: boot id, debugfs clock, kernel log, tryboot flag"""
        write(os.path.join(self.path, 'proc', 'sys', 'kernel', 'random', 'boot_id'), BOOT[i] + '\n')
        ios = os.path.join(self.path, 'sys', 'kernel', 'debug', 'mmc0', 'ios')
        if os.path.exists(ios) and clock_hz is not None:
            lines = [f'actual clock:\t{clock_hz} Hz' if l.startswith('actual clock:') else l
                     for l in read(ios).splitlines()]
            write(ios, '\n'.join(lines) + '\n')
        if log is not None:
            write(os.path.join(self.path, 'dev', 'kmsg'), '\n'.join(log) + '\n')
        flag = os.path.join(self.path, 'proc', 'device-tree', 'chosen', 'bootloader', 'tryboot')
        if tryboot:
            write(flag, b'\0\0\0\1', 'wb')
        elif os.path.exists(flag):
            os.unlink(flag)

    def pi3_log(self, clock_hz, errors=()):
        return CLEAN_PI3[:2] + [f'6,4,1512345,-;mmc0: overclocking to {clock_hz}Hz'] + CLEAN_PI3[2:] + list(errors)

    def verify(self, evidence):
        if evidence is not None:
            write(self.evidence, json.dumps(evidence))
            return self.json('verify', '--evidence', self.evidence)
        return self.json('verify')

    def files(self):
        return (read(self.config),
                read(self.tryboot) if os.path.exists(self.tryboot) else None)

    def pending(self):
        path = os.path.join(self.state, 'pending.json')
        return json.loads(read(path)) if os.path.exists(path) else None

    def last_verify(self):
        p, hist = self.json('history')
        entries = [e for e in hist['entries'] if e['kind'] == 'verify'] if hist else []
        return entries[-1] if entries else None


table = []


def outcome(name, r, res, decision, config, tryboot, extra=True, detail=''):
    got = r.files()
    h = r.last_verify()
    good = (res is not None and res.get('decision') == decision and got == (config, tryboot)
            and h is not None and h['decision'] == decision and h['reason'] == res['reason'] and extra)
    ok(good, f'{name}: {decision}, history entry, exact config.txt and tryboot.txt',
       f'{json.dumps(res, indent=1)}\nconfig==expected: {got[0] == config}\ntryboot: {got[1]!r}\n{detail}')
    def desc(b, base):
        if b is None:
            return 'absent'
        if b == base:
            return 'stock'
        if not b.startswith(base):
            return 'edited'
        ids = [l.split(': ')[1].split(' ')[0] for l in b[len(base):].splitlines()
               if l.startswith('# --- SD Tuner begin')]
        return 'stock + ' + (', '.join(ids) if ids else 'the hand-edited lines only')
    table.append((name, res.get('decision') if res else None,
                  f'config.txt {desc(got[0], r.old)}; tryboot.txt {desc(got[1], r.old)}'))


def apply(r, id_, trial=False):
    args = ['apply', id_] + (['--trial'] if trial else [])
    p = r.run(*args)
    ok(p.returncode == 0 and r.pending() is not None and r.pending()['id'] == id_
       and r.pending()['boot_id'] == BOOT[0] and r.pending()['trial'] is trial,
       f'apply {id_}{" --trial" if trial else ""}: pending change recorded with the boot id', p.stderr)


def keep_plain(tmp):
    r = Root(tmp, 'keep')
    apply(r, 'sd-overclock-100')
    # not restarted yet: waits, counts nothing, changes nothing
    p, res = r.verify(FASTER)
    ok(p.returncode == 0 and res['decision'] == 'wait' and r.pending()['attempts'] == 0
       and r.files() == (r.old + oc(100), None) and r.last_verify() is None,
       'same boot: wait, nothing counted, nothing written', p.stdout + p.stderr)
    r.boot(1, 100000000, r.pi3_log(100000000))
    p, res = r.verify(FASTER)
    outcome('faster and clean', r, res, 'keep', r.old + oc(100), None,
            r.pending() is None and res['evidence']['clock'] == {'expected_hz': 100000000, 'observed_hz': 100000000}
            and len(res['improved']) == 3 and res['evidence']['soak']['bytes_checked'] == 67108864)
    p, st = r.json('status')
    ok(st['pending_verification'] is None and st['last_verification']['decision'] == 'keep'
       and 'faster' in st['last_verification']['reason'], 'status shows the outcome', p.stdout)
    p = r.run('status')
    ok('Last verification' in p.stdout and 'kept sd-overclock-100 after verification.' in p.stdout
       and 'faster' in p.stdout, 'status text shows the outcome in one sentence', p.stdout)
    p = r.run('history')
    ok('kept sd-overclock-100 after verification.' in p.stdout, 'history text shows the outcome',
       p.stdout)
    p, res = r.verify(FASTER)
    ok(p.returncode == 0 and res['pending'] is False and res['decision'] is None, 'nothing pending: nothing done',
       p.stdout)


def keep_trial(tmp):
    r = Root(tmp, 'keep-trial')
    apply(r, 'sd-overclock-100', trial=True)
    ok(r.files() == (r.old, r.old + oc(100)), 'trial: config.txt stock, tryboot.txt has the block')
    r.boot(1, 100000000, r.pi3_log(100000000), tryboot=True)
    p, res = r.verify(FASTER)
    outcome('trial, faster and clean', r, res, 'keep', r.old + oc(100), None,
            r.pending() is None and res['action']['what'] == 'kept')


def step_down_keep(tmp):
    r = Root(tmp, 'step-down', )
    apply(r, 'sd-overclock-100', trial=True)
    r.boot(1, 80000000, r.pi3_log(100000000, ERRORS), tryboot=True)
    p, res = r.verify(FASTER)
    pend = r.pending()
    outcome('errors at 100 MHz', r, res, 'step-down', r.old, r.old + oc(80),
            res is not None and res['next_id'] == 'sd-overclock-80' and pend['id'] == 'sd-overclock-80'
            and pend['step'] == 1 and pend['boot_id'] == BOOT[1] and pend['attempts'] == 0
            and 'reducing overclock' in res['reason']
            and res['evidence']['log'][0] == 'mmc0: reducing overclock due to errors', pend)
    r.boot(2, 80000000, r.pi3_log(80000000), tryboot=True)
    p, res = r.verify(FASTER)
    outcome('then 80 MHz clean and faster', r, res, 'keep', r.old + oc(80), None,
            res is not None and res['id'] == 'sd-overclock-80' and res['original_id'] == 'sd-overclock-100'
            and r.pending() is None)


def errors_every_step(tmp):
    r = Root(tmp, 'errors-every-step')
    apply(r, 'sd-overclock-100')
    steps = [(100, 100000000, 80), (80, 80000000, 66), (66, 66666666, None)]
    for i, (mhz, hz, nxt) in enumerate(steps):
        r.boot(i + 1, hz, r.pi3_log(hz, ERRORS[1:]))
        p, res = r.verify(FASTER)
        if nxt is not None:
            outcome(f'errors at {mhz} MHz (step {i})', r, res, 'step-down', r.old + oc(nxt), None,
                    res is not None and res['next_id'] == f'sd-overclock-{nxt}')
        else:
            outcome('errors at the lowest step', r, res, 'undo', r.old, None,
                    res is not None and 'lowest step' in res.get('reason', '') and r.pending() is None,
                    p.stderr)


def simple_undo(tmp, name, evidence, clock_hz=100000000, errors=(), check=lambda res: True):
    r = Root(tmp, name.replace(' ', '-').replace(',', ''))
    apply(r, 'sd-overclock-100')
    r.boot(1, clock_hz, r.pi3_log(clock_hz, errors))
    p, res = r.verify(evidence)
    outcome(name, r, res, 'undo', r.old, None, res is not None and check(res) and r.pending() is None,
            p.stderr)


def pi5_cqe(tmp):
    r = Root(tmp, 'pi5-cqe', 'pi5', 'pi5.umockdev')
    kmsg = os.path.join(r.path, 'dev', 'kmsg')
    base = read(kmsg).splitlines()
    write(kmsg, '\n'.join(l.replace('Command Queue Engine enabled, 31 tags', 'Host Software Queue enabled')
                          for l in base) + '\n')
    apply(r, 'sd-cqe-2', trial=True)
    r.old = read(BOOKWORM)
    r.boot(1, None, base + ['4,20,9000000,-;mmc0: running CQE recovery'], tryboot=True)
    p, res = r.verify(FASTER)
    outcome('Pi 5 trial with CQE recovery', r, res, 'undo', r.old, None,
            res is not None and 'running CQE recovery' in res['reason']
            and res['evidence']['cqe'] == {'expected': 'enabled', 'observed': 'enabled'})


def pi5_cqe_keep(tmp):
    r = Root(tmp, 'pi5-cqe-keep', 'pi5', 'pi5.umockdev')
    kmsg = os.path.join(r.path, 'dev', 'kmsg')
    base = read(kmsg).splitlines()
    write(kmsg, '\n'.join(l.replace('Command Queue Engine enabled, 31 tags', 'Host Software Queue enabled')
                          for l in base) + '\n')
    apply(r, 'sd-cqe-2', trial=True)
    r.boot(1, None, base, tryboot=True)
    p, res = r.verify(FASTER)
    outcome('Pi 5 trial, CQE on, soak clean, faster', r, res, 'keep',
            r.old + block('sd-cqe-2', 'dtparam=sd_cqe=2', '[board-type=0x17]'), None,
            res is not None and res['evidence']['cqe'] == {'expected': 'enabled', 'observed': 'enabled'})


def fell_back(tmp):
    r = Root(tmp, 'fell-back')
    apply(r, 'sd-overclock-100', trial=True)
    # the trial boot hung; the power cycle booted config.txt as it was: 50 MHz, no tryboot flag
    r.boot(1, 50000000, CLEAN_PI3)
    p, res = r.verify(FASTER)
    outcome('tryboot boot failed, firmware fell back', r, res, 'undo', r.old, None,
            res is not None and 'did not use the trial' in res['reason'] and res['action']['trial_cancelled'])


def killed_twice(tmp):
    r = Root(tmp, 'killed')
    apply(r, 'sd-overclock-100')
    # two boots whose verification never finished (a crash or power loss while the soak
    # test ran): stood in for by a soak result that cannot be read (a FIFO), so each run
    # stops after counting its try; a real SIGKILL lands at the same place
    fifo = os.path.join(r.path, 'soak-fifo')
    os.mkfifo(fifo)
    for i in (1, 2):
        r.boot(i, 100000000, r.pi3_log(100000000))
        p = r.run('verify', '--evidence', fifo)
        ok(p.returncode == 1 and 'soak-fifo' in p.stderr and r.pending()['attempts'] == i
           and r.pending()['tries'] == BOOT[1:i + 1] and r.files() == (r.old + oc(100), None),
           f'interrupted try {i}: counted durably before the soak result, nothing else changed', p.stderr)
    r.boot(3, 100000000, r.pi3_log(100000000))
    p, res = r.verify(FASTER)
    outcome('verification killed twice', r, res, 'undo', r.old, None,
            res is not None and res['stop'] is True and 'interrupted 2 times' in res['reason']
            and r.pending() is None)
    p, res = r.verify(FASTER)
    ok(res['pending'] is False, 'stopped: the next boot does nothing', p.stdout)


HSQ = 'Host Software Queue enabled'
CQE_ON = 'Command Queue Engine enabled, 31 tags'
CQE_RECOVERY = '4,20,9000000,-;mmc0: running CQE recovery'


def bad_evidence(tmp):
    r = Root(tmp, 'bad-evidence')
    apply(r, 'sd-overclock-100')
    r.boot(1, 100000000, r.pi3_log(100000000))
    # a member of the wrong type (read as "no soak test" before): refused by name with the
    # file's path, the try counted as an interrupted one, nothing else changed
    p, res = r.verify(dict(FASTER, soak=dict(SOAK_CLEAN, mismatches='0')))
    ok(p.returncode == 1 and r.evidence in p.stderr and '“soak.mismatches”' in p.stderr
       and r.pending()['attempts'] == 1 and r.files() == (r.old + oc(100), None),
       'an evidence file with "mismatches" a string: refused by name, nothing changed', p.stderr)


def pi5_cqe_not_in_effect(tmp):
    # issue 10: the reason is one whole sentence for the state found, never an English
    # state word ("off", "enabled") put into a translated sentence
    r = Root(tmp, 'pi5-cqe-not-on', 'pi5', 'pi5.umockdev')
    kmsg = os.path.join(r.path, 'dev', 'kmsg')
    hsq = [l.replace(CQE_ON, HSQ) for l in read(kmsg).splitlines()]
    write(kmsg, '\n'.join(hsq) + '\n')
    apply(r, 'sd-cqe-2', trial=True)
    r.boot(1, None, hsq, tryboot=True)
    p, res = r.verify(FASTER)
    outcome('Pi 5 trial, queueing not on after the restart', r, res, 'undo', r.old, None,
            res is not None and res['reason'] == 'The change did not take effect: the card runs with '
            "the host's software queue, not as asked; the change was undone." and '“' not in res['reason'])


def pi5_cqe_off_safety(tmp):
    # issue 10: sd-cqe-0 is for safety (a card that mishandles command queueing), not speed:
    # kept when clean even when slower, and it asks for no benchmark from before
    slower = {'soak': SOAK_CLEAN, 'before': BEFORE,
              'after': {'seq-write': fig(18.1, 0.4), 'seq-read': fig(21.9, 0.3),
                        'rand-4k-read-qd32': fig(1500, 40, 'IOPS')}}
    # after the restart the kernel log shows no command queue at all, or the host's software queue
    for name, evidence, queue in (('slower', slower, None), ('no benchmark', {'soak': SOAK_CLEAN}, HSQ)):
        r = Root(tmp, f'pi5-cqe-off-{name.replace(" ", "-")}', 'pi5', 'pi5.umockdev')
        kmsg = os.path.join(r.path, 'dev', 'kmsg')
        base = read(kmsg).splitlines()
        write(kmsg, '\n'.join(base + [CQE_RECOVERY]) + '\n')
        p = r.run('apply', 'sd-cqe-0')
        ok(p.returncode == 0 and r.pending() is not None and r.pending()['id'] == 'sd-cqe-0'
           and 'benchmark of the SD card' not in p.stderr,
           f'sd-cqe-0 ({name}): applied, no warning about a missing benchmark', p.stderr)
        r.boot(1, None, [l.replace(CQE_ON, queue) for l in base] if queue else
               [l for l in base if CQE_ON not in l])
        p, res = r.verify(evidence)
        outcome(f'Pi 5 sd-cqe-0, clean, {name}', r, res, 'keep',
                r.old + block('sd-cqe-0', 'dtparam=sd_cqe=0', '[board-type=0x17]'), None,
                res is not None and 'safer' in res['reason'] and r.pending() is None
                and res['worse'] == (['rand-4k-read-qd32: 2000.0 → 1500.0 IOPS (-25%, ±40.0/±40.0)']
                                     if name == 'slower' else []), p.stderr)
    # still undone on errors: clean means clean
    r = Root(tmp, 'pi5-cqe-off-errors', 'pi5', 'pi5.umockdev')
    kmsg = os.path.join(r.path, 'dev', 'kmsg')
    base = read(kmsg).splitlines()
    write(kmsg, '\n'.join(base + [CQE_RECOVERY]) + '\n')
    r.run('apply', 'sd-cqe-0')
    r.boot(1, None, [l.replace(CQE_ON, HSQ) for l in base] + ERRORS[1:])
    p, res = r.verify({'soak': SOAK_CLEAN})
    outcome('Pi 5 sd-cqe-0 with I/O errors', r, res, 'undo', r.old, None, res is not None, p.stderr)


def bench_entry(r, usec, seq_write, config_sha256):
    """a benchmark of the card in the history, as sdt_ops_bench records it"""
    t = time.strftime('%Y-%m-%dT%H:%M:%S', time.gmtime(usec // 1000000)) + '.000000Z'
    write(os.path.join(r.state, 'history', f'{usec}-bench.json'), json.dumps(
        {'kind': 'bench', 'time': t, 'profile': 'quick', 'config_sha256': config_sha256,
         'target': {'path': r.state, 'device': 'mmcblk0p2', 'filesystem': 'ext4', 'stand_in': False},
         'tests': [{'name': 'seq-write', 'mb_s': seq_write, 'ci_percent': 2.0}]}))


def stale_before(tmp):
    # issue 10: after an undo, a later apply must not take as its "before" a benchmark
    # measured under another config (here the verification's own, run with the change)
    r = Root(tmp, 'stale-before')
    sha = lambda text: hashlib.sha256(text.encode()).hexdigest()
    bench_entry(r, 1767225600000000, 18.0, sha(r.old))
    apply(r, 'sd-overclock-100')
    ok(r.pending()['before'] == {'seq-write': fig(18.0, 0.36)}, 'first apply: the benchmark under the stock config',
       r.pending())
    r.boot(1, 100000000, r.pi3_log(100000000))
    p, res = r.verify({'soak': SOAK_CLEAN, 'after': {'seq-write': fig(18.1, 0.4)}})
    ok(res is not None and res['decision'] == 'undo' and r.files() == (r.old, None), 'no gain: undone', p.stdout)
    # the verification's benchmark, measured at 100 MHz with the change in config.txt
    bench_entry(r, 1767229200000000, 30.0, sha(r.old + oc(100)))
    # the same boot (the clock as the stock config would have it, so that 100 MHz is offered)
    r.boot(1, 50000000, CLEAN_PI3)
    p = r.run('apply', 'sd-overclock-100')
    ok(p.returncode == 0 and r.pending()['before'] is None and 'another config.txt' in p.stderr,
       'apply again in the same boot (still at 100 MHz): no "before", and it says why', p.stderr)
    r.run('revert')
    r.boot(2, 50000000, CLEAN_PI3)
    p = r.run('apply', 'sd-overclock-100')
    ok(p.returncode == 0 and r.pending()['before'] == {'seq-write': fig(18.0, 0.36)},
       'after a restart: the "before" is the benchmark under the config in effect, not the later one',
       json.dumps(r.pending()))


def hand_edit(tmp):
    r = Root(tmp, 'hand-edit-trial')
    apply(r, 'sd-overclock-100', trial=True)
    write(r.config, r.old + '# my own line\ndtparam=audio=off\n')
    r.boot(1, 100000000, r.pi3_log(100000000), tryboot=True)
    p, res = r.verify(FASTER)
    outcome('config edited by hand during the trial', r, res, 'undo',
            r.old + '# my own line\ndtparam=audio=off\n', None,
            res is not None and res['foreign_change'] is True and 'edited by hand' in res['reason'])

    r = Root(tmp, 'hand-edit')
    apply(r, 'sd-overclock-100')
    write(r.config, r.old + oc(100) + 'dtparam=audio=off\n')
    r.boot(1, 100000000, r.pi3_log(100000000))
    p, res = r.verify(FASTER)
    outcome('config edited by hand while pending', r, res, 'undo', r.old + 'dtparam=audio=off\n', None,
            res is not None and res['foreign_change'] is True)


def bad_pending(tmp):
    # issue 23 item 2: a damaged pending state no longer stops every boot with exit 1 and
    # no decision: nothing in it can be trusted, so the change is undone and that recorded
    r = Root(tmp, 'bad-pending')
    apply(r, 'sd-overclock-100')
    path = os.path.join(r.state, 'pending.json')
    write(path, '{"version": 1, "id": 5}')
    r.boot(1, 100000000, r.pi3_log(100000000))
    p, res = r.verify(FASTER)
    h = r.last_verify()
    ok(p.returncode == 0 and res is not None and res['decision'] == 'undo' and '“id”' in res['reason']
       and r.files() == (r.old, None) and not os.path.exists(path)
       and h is not None and h['decision'] == 'undo' and h['reason'] == res['reason'],
       'damaged pending state: undone, the decision in the history', p.stdout + p.stderr)
    p, res = r.verify(FASTER)
    ok(p.returncode == 0 and res['pending'] is False, 'damaged pending state: the next boot has nothing to do',
       p.stdout + p.stderr)
    # regression (found by pseudo-cli): in text mode the undo of a record that names no
    # change printed "Undid (null)" after a Json-CRITICAL, an abort under fatal criticals
    r = Root(tmp, 'bad-pending-text')
    apply(r, 'sd-overclock-100')
    write(os.path.join(r.state, 'pending.json'), '{"version": 1, "id": 5}')
    r.boot(1, 100000000, r.pi3_log(100000000))
    write(r.evidence, json.dumps(FASTER))
    p = r.run('verify', '--evidence', r.evidence)
    ok(p.returncode == 0 and 'CRITICAL' not in p.stderr and '(null)' not in p.stdout
       and 'Undid the pending change' in p.stdout and '“id”' in p.stdout
       and r.files() == (r.old, None),
       'damaged pending state, text mode: says what was undone and why, no critical',
       p.stdout + p.stderr)


def replaced_block_revert(tmp):
    # regression: an apply that replaces SD Tuner's own block (here a card moved from a 3B to
    # a 3B+; the step down does the same) left a journal whose backup was the file with the
    # first block, so revert refused the file as corrupt state
    r = Root(tmp, 'replaced-block')
    apply(r, 'sd-overclock-100')
    write(os.path.join(r.path, 'proc', 'device-tree', 'system', 'linux,revision'), b'\x00\xa0\x20\xd3', 'wb')
    cpuinfo = os.path.join(r.path, 'proc', 'cpuinfo')
    write(cpuinfo, read(cpuinfo).replace('a02082', 'a020d3'))
    p = r.run('apply', 'sd-overclock-100')
    ok(p.returncode == 0 and r.files() == (r.old + oc(100).replace('0x08', '0x0d'), None),
       'replaced block: the 3B+ block replaces the 3B one', p.stdout + p.stderr)
    p = r.run('revert')
    ok(p.returncode == 0 and r.files() == (r.old, None), 'replaced block: revert gives the stock file back',
       p.stdout + p.stderr)


tmp = tempfile.mkdtemp(prefix=f'sdt-verify-cli-{os.getpid()}-')
try:
    keep_plain(tmp)
    keep_trial(tmp)
    step_down_keep(tmp)
    errors_every_step(tmp)
    simple_undo(tmp, 'no gain within the spread', NO_GAIN, check=lambda res: 'combined spread' in res['reason'])
    simple_undo(tmp, 'writes worse (Kingston)', KINGSTON,
                check=lambda res: res['worse'] == ['seq-write: 9.2 → 8.2 MB/s (-12%, ±0.1/±0.1)'])
    pi5_cqe(tmp)
    pi5_cqe_keep(tmp)
    pi5_cqe_not_in_effect(tmp)
    pi5_cqe_off_safety(tmp)
    stale_before(tmp)
    simple_undo(tmp, 'soak mismatch, clean log', MISMATCH,
                check=lambda res: 'offset 12582912' in res['reason']
                and res['evidence']['soak']['first_bad_offset'] == 12582912)
    fell_back(tmp)
    killed_twice(tmp)
    bad_evidence(tmp)
    hand_edit(tmp)
    simple_undo(tmp, 'no soak result', {k: v for k, v in FASTER.items() if k != 'soak'},
                check=lambda res: 'could not run' in res['reason'])
    bad_pending(tmp)
    replaced_block_revert(tmp)
finally:
    shutil.rmtree(tmp, ignore_errors=True)
print('# outcome | decision | resulting files')
for row in table:
    print('# ' + ' | '.join(str(x) for x in row))
sys.exit(finish())
