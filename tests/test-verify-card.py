#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: verify-card suite=integration timeout=600 parallel=false protocol=tap env=test
#    args=@sdtunerctl@,{srcdir}/bench/card.sh
"""`sdtunerctl --root DIR verify` WITHOUT --evidence: verify gathers the evidence itself on a
real "card", a throttled loop device with ext4 (bench/card.sh).  The fixture root is the
simulated Pi 3 (tests/data/roots/pi3 under umockdev-run) whose card partition mmcblk0p2 has
the loop device's MAJ:MIN, and whose root file system, as /proc/self/mountinfo says, is that
partition: the state folder <root>/var/lib/sd-tuner is a bind mount of the loop device's
ext4, so the benchmark and the soak test write there and are the card's own
(target.stand_in false).  The card's whole-disk node is left out of the testbed (umockdev
would make it an empty file), so the raw read is skipped.

  1. apply without a benchmark of the card: apply says so; verify undoes with that reason
     and runs nothing.
  2. benchmark at 20 MB/s (1000 IOPS), apply sd-overclock-100: the figures are kept with the
     pending change.
  3. "reboot" (new boot id, debugfs ios at 100 MHz, the kernel's overclocking line) with the
     throttle raised to 40 MB/s (2000 IOPS), as the simulated bus allows at 100 MHz.
  4. verify, stopped by SIGTERM during the benchmark: an interrupted try, no decision, no
     test file, nothing else changed.  The signal goes when the benchmark is seen writing
     (its progress line, its unnamed test file open in the card's state folder, 16 MiB more
     written to the card since), not after a fixed time that load shifts.
  5. another boot, verify (soak 0 s: one full round): keep, with the standard benchmark's
     figures against the ones from before and the soak test's bytes in the history entry.

usage: test-verify-card.py SDTUNERCTL CARD_SH   (run by meson as root; prints TAP)"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

import sdttap
from sdttap import finish, ok

# a failure's detail is a long log: its end says most
sdttap.detail_lines = -40
CTL = os.path.abspath(sys.argv[1])
CARD_SH = os.path.abspath(sys.argv[2])
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, 'data')
BOOKWORM = os.path.join(DATA, 'config', 'rpios-bookworm.txt')
BOOT = ['0b6f8a52-2a4e-4a55-9a43-6a5f0d3b1c11', '5d0e7c1a-9f3b-4c2d-8e1f-2b3c4d5e6f70',
        '9a1c3e5f-7b2d-4f60-8a1b-3c5d7e9f0a12', 'c4e6a8b0-1d3f-4a5c-9e7b-2d4f6a8c0e13',
        'e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a15', '7f3a9c2e-4b1d-4e8f-9a6c-5d2e7b1f3a16',
        '2c8e4a6f-0b3d-4f5a-8c7e-9d1f3b5a7c17']
MIB = 1024 * 1024
SLOW = (20000000, 1000)   # the card at 50 MHz: bytes/s, IOPS
FAST = (40000000, 2000)   # at 100 MHz

if 'CARD_DEV' not in os.environ:
    if os.geteuid() != 0 or shutil.which('losetup') is None:
        print('1..0 # SKIP needs root and losetup (a loop device, mounts, a cgroup throttle)')
        sys.exit(0)
    # the card: 400 MiB, room for the standard profile's 256 MiB file and its 10% margin
    os.execv(CARD_SH, [CARD_SH, '--size', '400', '--bps', str(SLOW[0]), '--iops', str(SLOW[1]),
                       '--', sys.executable] + sys.argv)


def read(path, mode='r'):
    with open(path, mode) as f:
        return f.read()


def write(path, data, mode='w'):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(data)


# this process and everything it starts are the card's throttled users
write(os.path.join(os.environ['CARD_CGROUP'], 'cgroup.procs'), f'{os.getpid()}\n')

def throttle(bps, iops):
    """the card's speed: cgroup v2 io.max or v1 blkio.throttle of the group card.sh made"""
    cg, mm = os.environ['CARD_CGROUP'], os.environ['CARD_MAJMIN']
    if os.path.exists(os.path.join(cg, 'io.max')):
        write(os.path.join(cg, 'io.max'), f'{mm} rbps={bps} wbps={bps} riops={iops} wiops={iops}\n')
    else:
        for what, v in (('read_bps', bps), ('write_bps', bps), ('read_iops', iops), ('write_iops', iops)):
            write(os.path.join(cg, f'blkio.throttle.{what}_device'), f'{mm} {v}\n')


def oc(mhz):
    return (f'# --- SD Tuner begin: sd-overclock-{mhz} (undo: sdtunerctl revert) ---\n'
            f'[all]\n[board-type=0x08]\ndtoverlay=\ndtparam=sd_overclock={mhz}\n[all]\n'
            '# --- SD Tuner end ---\n')


CLEAN_PI3 = ['6,0,0,-;Booting Linux on physical CPU 0x0000000000 [0x410fd034]',
             '6,3,1500000,-;mmc0: sdhost-bcm2835 loaded - DMA enabled (>1)',
             '6,6,1537035,-;mmc0: new high speed SDHC card at address 0001',
             '6,7,1549380,-;mmcblk0: mmc0:0001 SU08G 7.40 GiB ',
             ' mmcblk0: p1 p2']


class Root:
    def __init__(self, tmp):
        mm = os.environ['CARD_MAJMIN']
        major, minor = mm.split(':')
        self.path = os.path.join(tmp, 'root')
        shutil.copytree(os.path.join(DATA, 'roots', 'pi3'), self.path)
        self.config = os.path.join(self.path, 'boot', 'firmware', 'config.txt')
        self.state = os.path.join(self.path, 'var', 'lib', 'sd-tuner')
        self.old = read(BOOKWORM)
        write(self.config, self.old)
        # the card's root partition is the loop device
        mi = os.path.join(self.path, 'proc', 'self', 'mountinfo')
        write(mi, read(mi).replace('22 1 179:2 / / ', f'22 1 {mm} / / ', 1))
        dev = read(os.path.join(DATA, 'umockdev', 'pi3.umockdev'))
        part = dev.index('N: mmcblk0p2\n')
        end = dev.index('\n\n', part)
        dev = dev[:part] + (dev[part:end].replace('E: MAJOR=179', f'E: MAJOR={major}')
                            .replace('E: MINOR=2', f'E: MINOR={minor}')
                            .replace('A: dev=179:2', f'A: dev={mm}')) + dev[end:]
        # no node for the whole disk: umockdev would make /dev/mmcblk0 an empty file
        dev = dev.replace('N: mmcblk0\nE: DEVNAME=/dev/mmcblk0\n', '', 1)
        self.umockdev = os.path.join(tmp, 'pi3-loop.umockdev')
        write(self.umockdev, dev)
        os.makedirs(self.state)
        subprocess.run(['mount', '--bind', os.environ['CARD_MNT'], self.state], check=True)
        self.mounted = True

    def close(self):
        if self.mounted:
            subprocess.run(['umount', self.state])
            self.mounted = False

    def cmd(self, *args):
        return ['umockdev-run', '-d', self.umockdev, '--', CTL, '--root', self.path] + list(args)

    def env(self):
        env = dict(os.environ, LANGUAGE='C', LC_ALL='C.UTF-8')
        env.pop('SDTUNER_ROOT', None)
        return env

    def run(self, *args, timeout=600):
        return subprocess.run(self.cmd(*args), capture_output=True, text=True, env=self.env(),
                              timeout=timeout)

    def json(self, *args):
        p = self.run('--json', *args)
        try:
            return p, json.loads(p.stdout)
        except ValueError:
            return p, None

    def boot(self, i, clock_hz):
        write(os.path.join(self.path, 'proc', 'sys', 'kernel', 'random', 'boot_id'), BOOT[i] + '\n')
        ios = os.path.join(self.path, 'sys', 'kernel', 'debug', 'mmc0', 'ios')
        lines = [f'actual clock:\t{clock_hz} Hz' if l.startswith('actual clock:') else l
                 for l in read(ios).splitlines()]
        write(ios, '\n'.join(lines) + '\n')
        log = CLEAN_PI3[:2] + [f'6,4,1512345,-;mmc0: overclocking to {clock_hz}Hz'] + CLEAN_PI3[2:]
        write(os.path.join(self.path, 'dev', 'kmsg'), '\n'.join(log) + '\n')

    def pending(self):
        path = os.path.join(self.state, 'pending.json')
        return json.loads(read(path)) if os.path.exists(path) else None

    def history(self, kind=None):
        p, hist = self.json('history')
        entries = hist['entries'] if hist else []
        return [e for e in entries if kind is None or e['kind'] == kind]

    def listing(self):
        """the files on the card's file system that are not SD Tuner's state: none expected"""
        out = []
        for d, dirs, files in os.walk(self.state):
            rel = os.path.relpath(d, self.state)
            if rel.startswith('history') or rel.startswith('backups'):
                continue
            # SD Tuner's own state (pending.json, the writer's journal, the lock) is not a test file
            out += [os.path.join(rel, f) for f in files if not f.endswith('.json') and f != 'lock']
        return sorted(out)

    def free(self):
        st = os.statvfs(self.state)
        return st.f_bfree * st.f_frsize


def children(pid):
    try:
        return [int(x) for x in read(f'/proc/{pid}/task/{pid}/children').split()]
    except OSError:
        return []


def comm(pid):
    try:
        return read(f'/proc/{pid}/comm').strip()
    except OSError:
        return None


def card_written():
    """bytes written to the card by this test's cgroup: the throttle's own count (cgroup v2
    io.stat wbytes, v1 blkio.throttle.io_service_bytes)"""
    cg, mm = os.environ['CARD_CGROUP'], os.environ['CARD_MAJMIN']
    if os.path.exists(os.path.join(cg, 'io.stat')):
        for line in read(os.path.join(cg, 'io.stat')).splitlines():
            f = line.split()
            if f and f[0] == mm:
                return int(dict(kv.split('=', 1) for kv in f[1:] if '=' in kv).get('wbytes', 0))
        return 0
    for line in read(os.path.join(cg, 'blkio.throttle.io_service_bytes')).splitlines():
        f = line.split()
        if len(f) == 3 and f[0] == mm and f[1] == 'Write':
            return int(f[2])
    return 0


def test_file(pid, folder):
    """the unnamed test file (O_TMPFILE: "#inode (deleted)") pid has open in folder, or None"""
    try:
        fds = os.listdir(f'/proc/{pid}/fd')
    except OSError:
        return None
    for fd in fds:
        try:
            target = os.readlink(f'/proc/{pid}/fd/{fd}')
        except OSError:
            continue
        if target.startswith(folder + '/') and target.endswith(' (deleted)'):
            return target
    return None


class Lines:
    """a pipe read line by line in a thread, so that the test sees verify's progress as it comes"""

    def __init__(self, pipe):
        self.lines = []
        self.thread = threading.Thread(target=self._read, args=(pipe,), daemon=True)
        self.thread.start()

    def _read(self, pipe):
        for line in pipe:
            self.lines.append(line)

    def stages(self):
        return [l for l in self.lines if l.startswith(('Checking the kernel log', 'Benchmark: ',
                                                        'Soak test: '))]

    def text(self):
        self.thread.join(60)
        return ''.join(self.lines)


def wait_in_benchmark(proc, r, err, timeout=180):
    """waits until verify (umockdev-run's sdtunerctl child) is in its benchmark's writes:
    the last stage line is "Benchmark: ", the test file is open on the card and 16 MiB more
    have been written to the card since it was opened; (sdtunerctl pids, a description)"""
    end = time.monotonic() + timeout
    t0 = time.monotonic()
    ctl, opened_at = [], None
    while time.monotonic() < end and proc.poll() is None:
        if not ctl:
            ctl = [c for c in children(proc.pid) if comm(c) == 'sdtunerctl']
        stages = err.stages()
        target = test_file(ctl[0], r.state) if ctl else None
        in_bench = bool(stages) and stages[-1].startswith('Benchmark: ') and target is not None
        if in_bench and opened_at is None:
            opened_at = card_written()
        if in_bench and card_written() - opened_at >= 16 * MIB:
            return ctl, (f'{time.monotonic() - t0:.1f} s after the start, '
                         f'{(card_written() - opened_at) // MIB} MiB into the test file')
        time.sleep(0.05)
    return ctl, None


def main(tmp):
    r = Root(tmp)
    try:
        # 1. no benchmark of the card yet: apply says so, verify undoes without running anything
        r.boot(0, 50000000)
        p = r.run('apply', 'sd-overclock-100')
        ok(p.returncode == 0 and 'There is no benchmark of the SD card from before this change' in p.stderr
           and r.pending() is not None and r.pending()['before'] is None,
           'apply without a card benchmark: says so up front', p.stderr)
        r.boot(1, 100000000)
        t0 = time.monotonic()
        p, res = r.json('verify')
        ok(p.returncode == 0 and res is not None and res['decision'] == 'undo'
           and 'no benchmark of the SD card from before the change' in res['reason']
           and read(r.config) == r.old and r.pending() is None and r.history('bench') == []
           and r.history('soak') == [],
           f'no "before": undone with the reason, nothing run ({time.monotonic() - t0:.1f} s)',
           p.stdout + p.stderr)

        # 2. the card's benchmark before the change, then the change
        r.boot(2, 50000000)
        p, before = r.json('bench', '--profile', 'quick')
        ok(p.returncode == 0 and before['target']['stand_in'] is False
           and before['target']['device'] == 'mmcblk0p2',
           'benchmark at 20 MB/s on the loop card: the card itself, not a stand-in', p.stdout + p.stderr)
        figs = {t['name']: t for t in before['tests']} if before else {}
        print(f'# before (quick, 20 MB/s, 1000 IOPS): '
              + ', '.join(f'{k} {v["mb_s"]} MB/s {v["iops"]} IOPS ±{v["ci_percent"]}%'
                          for k, v in figs.items()))
        p = r.run('apply', 'sd-overclock-100')
        pend = r.pending()
        ok(p.returncode == 0 and 'no benchmark' not in p.stderr and pend is not None
           and pend['before'] is not None
           and pend['before']['seq-write']['median'] == figs['seq-write']['mb_s']
           and abs(pend['before']['seq-write']['spread']
                   - figs['seq-write']['mb_s'] * figs['seq-write']['ci_percent'] / 100) < 1e-6
           and pend['before']['rand-4k-read-qd32']['unit'] == 'IOPS',
           'apply after the benchmark: its figures and spreads are kept with the pending change',
           p.stderr + json.dumps(pend))
        listing = r.listing()
        free = r.free()
        ok(listing == [], 'the card holds nothing but SD Tuner\'s state', listing)

        # 3. the reboot: 100 MHz, and the card as fast as the bus then allows
        throttle(*FAST)
        r.boot(3, 100000000)

        # 4. SIGTERM during the benchmark: an interrupted try, nothing decided, nothing left
        proc = subprocess.Popen(r.cmd('--json', 'verify', '--soak-seconds', '0'), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=r.env())
        out, err = Lines(proc.stdout), Lines(proc.stderr)
        # in the benchmark's sequential write (256 MiB at 40 MB/s: 6.4 s), however long the start took
        ctl, where = wait_in_benchmark(proc, r, err)
        t0 = time.monotonic()
        if where is not None:
            for c in ctl:
                os.kill(c, signal.SIGTERM)
        else:   # never seen in its benchmark: stopped, so that nothing runs on behind the test
            for c in ctl:
                os.kill(c, signal.SIGKILL)
            proc.kill()
        proc.wait(timeout=60)
        took = time.monotonic() - t0
        out, err = out.text(), err.text()
        pend = r.pending()
        ok(where is not None and proc.returncode == 1 and 'interrupted try' in err and pend is not None
           and pend['attempts'] == 1 and pend['tries'] == [BOOT[3]]
           and read(r.config) == r.old + oc(100) and r.listing() == listing and r.free() > free - 4 * MIB
           and r.history('verify')[-1]['decision'] == 'undo' and len(r.history('verify')) == 1
           and len(r.history('bench')) == 1,
           f'SIGTERM in the benchmark ({where or "never seen writing"}): stopped in {took:.2f} s, '
           'counted as an interrupted try, no decision, no test file',
           f'rc {proc.returncode}\n' + err + json.dumps(pend))

        # 5. the next boot: verify gathers the evidence and keeps the change
        r.boot(4, 100000000)
        t0 = time.monotonic()
        p, res = r.json('verify', '--soak-seconds', '0')
        took = time.monotonic() - t0
        ev = res['evidence'] if res else {}
        fig = {f['name']: f for f in ev.get('figures', [])}
        soak = ev.get('soak', {})
        for name, f in fig.items():
            print(f'# {name}: {f["before"]} ±{f["before_spread"]:.3g} -> {f["after"]} ±{f["after_spread"]:.3g} '
                  f'{f["unit"]}')
        print(f'# soak: {json.dumps(soak)}; verify took {took:.1f} s')
        ok(p.returncode == 0 and res['decision'] == 'keep' and read(r.config) == r.old + oc(100)
           and r.pending() is None, 'faster card, clean soak: kept', p.stdout + p.stderr)
        # issue 10: not silent for minutes; stderr is not a terminal here (the boot service's
        # journal), so one line per stage, in order
        stages = [l for l in p.stderr.splitlines()
                  if l.startswith(('Checking the kernel log', 'Benchmark: ', 'Soak test: '))]
        ok([l.split(':')[0].split(' the')[0] for l in stages] == ['Checking', 'Benchmark', 'Soak test']
           and stages[1].endswith('% done') and stages[2].endswith('% done'),
           'progress on stderr: a line for the log check, the benchmark and the soak test', p.stderr)
        sw = fig.get('seq-write', {})
        ok(set(fig) >= {'seq-write', 'seq-read', 'rand-4k-read-qd32', 'rand-4k-write-qd32'}
           and 0.8 * SLOW[0] / 1e6 < sw.get('before', 0) < 1.1 * SLOW[0] / 1e6
           and 0.8 * FAST[0] / 1e6 < sw.get('after', 0) < 1.1 * FAST[0] / 1e6
           and sw['before'] == figs['seq-write']['mb_s']
           # a spread for each figure; on a throttled card it can round to 0.0
           and all(isinstance(f.get('after_spread'), (int, float)) and f['after_spread'] >= 0
                   and isinstance(f.get('before_spread'), (int, float)) for f in fig.values())
           and any(i.startswith('seq-write: ') for i in res['improved']),
           'evidence: the standard benchmark now against the card benchmark before, with spreads',
           json.dumps(ev.get('figures'), indent=1) + '\nseq-write: ' + json.dumps(sw)
           + '\nbefore benchmark seq-write: ' + json.dumps(figs.get('seq-write'))
           + '\nimproved: ' + json.dumps(res.get('improved')))
        ok(soak.get('ran') is True and soak.get('bytes_written') == 256 * MIB
           and soak.get('bytes_checked') == 256 * MIB and soak.get('mismatches') == 0
           and soak.get('first_bad_offset') is None,
           'evidence: the soak test wrote and checked 256 MiB on the card, clean', json.dumps(soak))
        verify = r.history('verify')[-1]
        benches = r.history('bench')
        ok(verify['decision'] == 'keep' and verify['evidence']['figures'] == ev['figures']
           and verify['evidence']['soak'] == soak and len(benches) == 2
           and benches[-1]['profile'] == 'standard' and benches[-1]['target']['stand_in'] is False
           and benches[-1]['tests'][0]['mb_s'] == sw['after'] and len(r.history('soak')) == 1
           and r.history('soak')[0]['target']['stand_in'] is False,
           'history: the verify entry with its evidence, the standard benchmark and the soak test '
           'recorded as the card\'s', json.dumps(verify, indent=1)[:3000])

        # 6. the time bound: the benchmark and the soak test cut short are "could not run"
        p = r.run('revert')
        r.boot(5, 50000000)
        p2 = r.run('apply', 'sd-overclock-100')
        ok(p.returncode == 0 and p2.returncode == 0 and r.pending() is not None,
           'revert, reboot, the same change again: pending', p.stderr + p2.stdout + p2.stderr)
        r.boot(6, 100000000)
        env = dict(r.env(), SDTUNER_VERIFY_MAX_SECONDS='3')
        t0 = time.monotonic()
        p = subprocess.run(r.cmd('--json', 'verify', '--soak-seconds', '0'), capture_output=True, text=True,
                           env=env, timeout=600)
        took = time.monotonic() - t0
        res = json.loads(p.stdout) if p.returncode == 0 else None
        ok(res is not None and res['decision'] == 'undo' and 'took longer than' in res['reason']
           and read(r.config) == r.old and r.pending() is None and len(r.history('bench')) == 2,
           f'time bound (3 s here): stopped after {took:.1f} s, undone, nothing recorded as a benchmark',
           p.stdout + p.stderr)
        ok(r.listing() == listing and r.free() > free - 4 * MIB,
           f'no test file left on the card (free space {free // MIB} -> {r.free() // MIB} MiB)',
           r.listing())
    finally:
        r.close()


tmp = tempfile.mkdtemp(prefix=f'sdt-verify-card-{os.getpid()}-', dir='/var/tmp')
try:
    main(tmp)
finally:
    shutil.rmtree(tmp, ignore_errors=True)
sys.exit(finish())
