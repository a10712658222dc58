#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: pseudo-cli suite=i18n timeout=300 parallel=false protocol=tap run=gi
#    env=pseudo-cli args=@sdtunerctl@,{testsbuilddir}/i18n-pseudo-pieces,{builddir}/po
#    depends=pseudo_cli_depends
"""test-pseudo-cli.py SDTUNERCTL PSEUDO-LOCALEDIR PO-LOCALEDIR - no English left on screen
(issue 24): every sdtunerctl command in text mode under the pseudo-locale "qps"
(make-pseudo.sh --pieces: every literal piece of every msgstr in ⟦…⟧, placeholders outside), through
its normal and its error paths, in-process (--root) and over the private bus to the built
helper; each line of stdout and stderr goes through the English detector of sdti18n.py
(a run of two or more English words outside the markers and its allow-list).

  --root, the simulated Pi 3 (data/sim/rpi3 under umockdev-run): --help of each command,
      bad usage, info, recommend, status, history, health, apply, apply --trial, revert,
      an unknown id, bench (a stand-in folder; no folder; the soak profile), check without
      a card file system, check with a damaged check journal (a check interrupted on a
      card that is gone), status and revert on a damaged config journal, a malformed and
      a missing config.txt, a damaged history entry; the Pi 4 fixture without a card (info, health, bench, check);
      info, recommend, health, status of the Pi 5, Pi 4, a Pi 5 with hostile kernel
      files, a board that is no Pi, a card whose registers do not add up;
      the Pi 3 fixture through each verify outcome (nothing pending, wait, keep, step
      down, undo for no gain, for a soak mismatch, for a missing soak result) with status
      and history after them; verify's usage errors
  root only: check (quick and --full) of a FUSE fake card under a loop device
      (tests/fake-card) that fails the check, check of a folder not on a block device
  over the bus (root; a private system bus, real polkitd, the built helper whose
      --bench-dir is the fake card): info, recommend, status, history, health, apply,
      apply --trial, revert, an unknown id, bench, check (fake: the failed check),
      check with a damaged check journal, a malformed config.txt; as nobody with no
      polkit agent: apply, revert, bench, check refused; verify and check --dir refused
      without --root; the Pi 4 without a card; no helper on the bus at all
  Japanese: `sdtunerctl history` after a verify, saved as ja-history-after-verify.txt in
      $SDTUNER_SCREENSHOT_DIR (the tests' output folder) and printed

Before all that the detector's self-test: it finds planted English, passes the allowed
kinds. At the end a summary: every distinct English run found, with where and the line.
TAP. As root (the bus, FUSE, loop devices); without root only the --root part runs, and
under CI=true that is a failure."""
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import hashlib

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
SRC = os.path.dirname(TESTS)
sys.path.insert(0, TESTS)
sys.path.insert(0, HERE)
from sdttap import finish, ok, skip  # noqa: E402
import sdti18n  # noqa: E402

# a UTF-8 locale that is not C for LANGUAGE to count: glibc 2.41 ignores it under C.UTF-8
# (tests/meson.build compiles en_US.UTF-8 into LOCPATH)
TEST_LOCALE = os.environ.get('SDTUNER_TEST_LOCALE', 'C.UTF-8')

SDTUNERCTL = os.path.abspath(sys.argv[1])
PSEUDO_DIR = os.path.abspath(sys.argv[2])
PO_DIR = os.path.abspath(sys.argv[3])
os.environ.setdefault('SDTUNER_BUILDDIR', os.path.dirname(os.path.dirname(os.path.dirname(
    SDTUNERCTL))))
SIM_ROOT = os.path.join(SRC, 'data', 'sim', 'rpi3')
SIM_UMOCKDEV = os.path.join(SRC, 'data', 'sim', 'rpi3.umockdev')
DATA = os.path.join(TESTS, 'data')
FAKE_CARD = os.path.join(TESTS, 'fake-card', 'fake-card.sh')
OUT_DIR = os.environ.get('SDTUNER_SCREENSHOT_DIR') or tempfile.mkdtemp(prefix='sdt-pseudo-')
CI = os.environ.get('CI') == 'true'
QPS = {'LANG': TEST_LOCALE, 'LANGUAGE': 'qps', 'SDTUNER_LOCALEDIR': PSEUDO_DIR}
MO = os.path.join(PSEUDO_DIR, 'qps', 'LC_MESSAGES', 'sd-tuner.mo')
WORDS = sdti18n.english_words(MO)
COMMANDS = ['bench', 'check', 'health', 'info', 'recommend', 'apply', 'revert', 'status',
            'history', 'verify']

findings = []   # (where, line, run)


def clean_env(extra, base=None):
    e = {k: v for k, v in (base or os.environ).items()
         if not k.startswith('LC_') and k not in ('LANG', 'LANGUAGE', 'SDTUNER_ROOT')}
    e.update(extra)
    return e


def verbatim_lines(*roots):
    """what is shown as it is, never translated: every line of the config.txt and
    tryboot.txt files under @roots and of the backups SD Tuner made there (diffs, kept
    lines), and the kernel's messages in their dev/kmsg"""
    lines = set()
    for root in roots:
        kmsg = os.path.join(root, 'dev', 'kmsg')
        if os.path.isfile(kmsg):
            with open(kmsg, errors='replace') as fh:
                lines.update(line.split(';', 1)[-1].strip() for line in fh if line.strip())
        for dirpath, _, files in os.walk(os.path.join(root, 'boot')):
            for f in files:
                if 'config' in f or 'tryboot' in f:
                    with open(os.path.join(dirpath, f), errors='replace') as fh:
                        lines.update(line.strip() for line in fh if line.strip())
        state = os.path.join(root, 'var', 'lib', 'sd-tuner')
        for dirpath, _, files in os.walk(state):
            for f in files:
                if f.startswith('config') and not f.endswith('.json'):
                    with open(os.path.join(dirpath, f), errors='replace') as fh:
                        lines.update(line.strip() for line in fh if line.strip())
    with open(os.path.join(DATA, 'config', 'rpios-bookworm.txt')) as fh:
        lines.update(line.strip() for line in fh if line.strip())
    # the kernel lines the verify roots had at an earlier boot (history quotes them)
    lines.update(line.split(';', 1)[-1] for line in CLEAN_PI3 + ERRORS)
    return lines


def judge(where, p, expect_rc=None, roots=()):
    """the English detector over @p's stdout and stderr, one TAP line; @expect_rc: the exit
    status that proves the path was the one meant (0, or 'error' for any of 1 and 2)"""
    text = (p.stdout if isinstance(p.stdout, str) else p.stdout.decode()) + \
        (p.stderr if isinstance(p.stderr, str) else p.stderr.decode())
    allowed = verbatim_lines(*roots)
    models = []
    for root in roots:   # the device tree's model: data, shown as read
        model = os.path.join(root, 'proc', 'device-tree', 'model')
        if os.path.isfile(model):
            with open(model, 'rb') as fh:
                models.append(fh.read().split(b'\0')[0].decode(errors='replace').strip())
    bad = []
    for line in text.splitlines():
        for run in sdti18n.english_runs(line, WORDS, allowed, models):
            bad.append((line, run))
            findings.append((where, line, run))
    reached = (expect_rc is None or (expect_rc == 'error' and p.returncode in (1, 2)) or
               p.returncode == expect_rc)
    ok(reached and (sdti18n.MARK_OPEN in text), f'{where}: reached (exit {p.returncode}), '
       'shows translated text', text)
    ok(not bad, f'{where}: no English', '\n'.join(f'English {run!r} in: {line!r}'
                                                  for line, run in bad))
    return text


class RootRun:
    """sdtunerctl --root on a scratch copy of a board, under umockdev-run"""

    def __init__(self, tmp, name, template=SIM_ROOT, umockdev=SIM_UMOCKDEV):
        self.path = os.path.join(tmp, name)
        shutil.copytree(template, self.path, symlinks=True)
        self.umockdev = umockdev
        self.name = name

    def raw(self, *args, env=QPS, timeout=180):
        cmd = ['umockdev-run', '-d', self.umockdev, '--', SDTUNERCTL, '--root', self.path]
        return subprocess.run(cmd + list(args), capture_output=True, text=True,
                              env=clean_env(env), timeout=timeout, stdin=subprocess.DEVNULL)

    def ctl(self, *args, rc=0, label=None):
        p = self.raw(*args)
        judge(f'--root {self.name}: sdtunerctl {label or " ".join(args)}', p, rc, (self.path,))
        return p

    def write(self, rel, data, mode='w'):
        path = os.path.join(self.path, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, mode) as f:
            f.write(data)
        return path


def check_journal(node):
    """a whole check journal (src/check/sdt-check-journal.c's first format) of a
    check interrupted on @node, a card that is not there, with one block out (a
    journal of none out is simply removed)"""
    body = (b'SDTJRN01' + struct.pack('<QQQQQ', 1, 0xb301, 512 << 20, 42, len(node)) + node
            + struct.pack('<Q', 1 << 20) + bytes(4096))
    return body + hashlib.sha256(body).digest()


# ---- --root, the simulated Pi 3 ----------------------------------------------------------
def root_sim(tmp):
    r = RootRun(tmp, 'sim')
    r.ctl('--help')
    for c in COMMANDS:
        r.ctl(c, '--help')
    r.ctl('nonsense', rc='error')
    r.ctl('apply', rc='error', label='apply (no id)')
    r.ctl('info', '--bogus', rc='error')
    for c in ('info', 'recommend', 'status', 'history', 'health'):
        r.ctl(c)
    r.ctl('apply', 'sd-overclock-100')
    r.ctl('status', label='status (applied)')
    r.ctl('apply', 'sd-overclock-100', label='apply (again)', rc=None)
    r.ctl('revert')
    r.ctl('revert', label='revert (nothing to revert)', rc=None)
    r.ctl('apply', 'sd-overclock-100', '--trial')
    r.ctl('status', label='status (trial)')
    r.ctl('history', label='history (applied, reverted, trial)')
    r.ctl('revert', label='revert (trial)')
    r.ctl('apply', 'no-such-id', rc='error')
    bench = tempfile.mkdtemp(prefix='sdt-pseudo-bench-', dir='/var/tmp')
    try:
        r.ctl('bench', '--profile', 'quick', '--dir', bench, label='bench --dir (a stand-in)')
        r.ctl('bench', '--profile', 'soak', '--size', '8', '--seconds', '1', '--dir', bench,
              label='bench --profile soak --dir (a stand-in)', rc=None)
        r.ctl('history', label='history (benchmarks)')
    finally:
        shutil.rmtree(bench, ignore_errors=True)
    r.ctl('bench', '--profile', 'quick', label='bench (no card file system)', rc=None)
    r.ctl('check', label='check (no card file system)', rc=None)
    # a damaged config journal: status and revert diagnose it
    r.ctl('apply', 'sd-overclock-100', label='apply (before the journal is damaged)')
    r.write('var/lib/sd-tuner/config-journal.json', '{"version": 2, "id": "sd-overclock-100", "block": [')
    r.ctl('status', label='status (damaged config journal)', rc=None)
    r.ctl('revert', label='revert (damaged config journal)', rc=None)
    # a damaged history entry (a NUL byte in its JSON)
    bad = r.write('var/lib/sd-tuner/history/1700000000000000-bench.json', b'{\0}', 'wb')
    r.ctl('history', label='history (a damaged entry)', rc=None)
    os.unlink(bad)
    # a damaged check journal: a check interrupted on a card that is gone
    journal = r.write('var/lib/sd-tuner/check/check-journal',
                      check_journal(b'/dev/sdt-pseudo-gone'), 'wb')
    r.ctl('check', label='check (check journal of a card that is gone)', rc='error')
    os.unlink(journal)
    # malformed and missing config.txt
    m = RootRun(tmp, 'sim-bad-config')
    m.write('boot/firmware/config.txt', b'dtparam=audio=on\n\0\0\0garbage\n', 'wb')
    for c in (['info'], ['recommend'], ['apply', 'sd-overclock-100'], ['status']):
        m.ctl(*c, rc=None, label=' '.join(c) + ' (malformed config.txt)')
    os.unlink(os.path.join(m.path, 'boot', 'firmware', 'config.txt'))
    for c in (['info'], ['recommend'], ['apply', 'sd-overclock-100'], ['status']):
        m.ctl(*c, rc=None, label=' '.join(c) + ' (no config.txt)')


def root_boards(tmp):
    r = RootRun(tmp, 'pi4-no-card', os.path.join(DATA, 'roots', 'pi4-no-card'),
                os.path.join(DATA, 'umockdev', 'pi4-no-card.umockdev'))
    for c in ('info', 'recommend', 'health', 'status'):
        r.ctl(c, rc=None, label=f'{c} (no card)')
    r.ctl('bench', '--profile', 'quick', rc='error', label='bench (no card)')
    r.ctl('check', rc='error', label='check (no card)')
    # other boards: the Pi 5 (command queue, its quirks), hostile kernel files, not a Pi,
    # registers that do not add up
    for name, umockdev in (('pi5', 'pi5'), ('pi5-bad-input', 'pi5'),
                           ('tinker-board', 'tinker-board'), ('pi4', 'pi4')):
        b = RootRun(tmp, name, os.path.join(DATA, 'roots', name),
                    os.path.join(DATA, 'umockdev', umockdev + '.umockdev'))
        if not os.path.exists(os.path.join(b.path, 'boot', 'firmware', 'config.txt')):
            with open(os.path.join(DATA, 'config', 'rpios-bookworm.txt')) as f:
                b.write('boot/firmware/config.txt', f.read())
        for c in ('info', 'recommend', 'health', 'status'):
            b.ctl(c, rc=None)
    b = RootRun(tmp, 'pi3-bad-registers', os.path.join(DATA, 'roots', 'pi3'),
                os.path.join(DATA, 'umockdev', 'bad-registers.umockdev'))
    for c in ('info', 'health'):
        b.ctl(c, rc=None)
    # issue 32: the mount table cannot be read (a folder where mountinfo is): its
    # prefix sentence was matched by the shorter "cannot read %s: ", and "the mount
    # table" shown in English inside the translated sentence
    m = RootRun(tmp, 'pi3-unreadable-mounts')
    mountinfo = os.path.join(m.path, 'proc', 'self', 'mountinfo')
    os.remove(mountinfo)
    os.mkdir(mountinfo)
    for c in ('info', 'health'):
        m.ctl(c, rc=None, label=f'{c} (the mount table cannot be read)')


# ---- --root, each verify outcome (the way tests/test-verify-cli.py builds them) ---------
BOOT = ['0b6f8a52-2a4e-4a55-9a43-6a5f0d3b1c11', '5d0e7c1a-9f3b-4c2d-8e1f-2b3c4d5e6f70',
        '9a1c3e5f-7b2d-4f60-8a1b-3c5d7e9f0a12']
CLEAN_PI3 = ['6,0,0,-;Booting Linux on physical CPU 0x0000000000 [0x410fd034]',
             '6,3,1500000,-;mmc0: sdhost-bcm2835 loaded - DMA enabled (>1)',
             '6,6,1537035,-;mmc0: new high speed SDHC card at address 0001',
             '6,7,1549380,-;mmcblk0: mmc0:0001 SU08G 7.40 GiB ', ' mmcblk0: p1 p2']
ERRORS = ['4,20,9000000,-;mmc0: reducing overclock due to errors',
          '3,21,9100000,-;mmcblk0: error -110 transferring data, sector 1234, nr 8, '
          'cmd response 0x900, card status 0xc00']


def fig(median, spread, unit='MB/s'):
    return {'median': median, 'spread': spread, 'unit': unit}


SOAK = {'bytes_written': 67108864, 'bytes_checked': 67108864, 'mismatches': 0,
        'first_bad_offset': None}
BEFORE = {'seq-write': fig(18.0, 0.4), 'seq-read': fig(22.0, 0.3),
          'rand-4k-read-qd32': fig(2000, 40, 'IOPS')}
FASTER = {'soak': SOAK, 'before': BEFORE,
          'after': {'seq-write': fig(21.5, 0.5), 'seq-read': fig(41.0, 0.6),
                    'rand-4k-read-qd32': fig(2400, 50, 'IOPS')}}
NO_GAIN = {'soak': SOAK, 'before': {'seq-write': fig(18.0, 1.0), 'seq-read': fig(22.0, 2.0)},
           'after': {'seq-write': fig(19.5, 1.0), 'seq-read': fig(23.0, 2.0)}}
MISMATCH = dict(FASTER, soak=dict(SOAK, mismatches=4096, first_bad_offset=12582912))
NO_SOAK = {k: v for k, v in FASTER.items() if k != 'soak'}


class VerifyRoot(RootRun):
    def __init__(self, tmp, name):
        super().__init__(tmp, name, os.path.join(DATA, 'roots', 'pi3'),
                         os.path.join(DATA, 'umockdev', 'pi3.umockdev'))
        with open(os.path.join(DATA, 'config', 'rpios-bookworm.txt')) as f:
            self.write('boot/firmware/config.txt', f.read())
        self.boot(0)

    def boot(self, i, clock_hz=50000000, errors=None, tryboot=False):
        self.write('proc/sys/kernel/random/boot_id', BOOT[i] + '\n')
        ios = os.path.join(self.path, 'sys', 'kernel', 'debug', 'mmc0', 'ios')
        if os.path.exists(ios):
            with open(ios) as f:
                lines = [f'actual clock:\t{clock_hz} Hz' if line.startswith('actual clock:')
                         else line for line in f.read().splitlines()]
            self.write(ios, '\n'.join(lines) + '\n')
        if errors is not None:
            log = CLEAN_PI3[:2] + [f'6,4,1512345,-;mmc0: overclocking to {clock_hz}Hz'] + \
                CLEAN_PI3[2:] + list(errors)
            self.write('dev/kmsg', '\n'.join(log) + '\n')
        flag = os.path.join(self.path, 'proc', 'device-tree', 'chosen', 'bootloader', 'tryboot')
        if tryboot:
            self.write(flag, b'\0\0\0\1', 'wb')
        elif os.path.exists(flag):
            os.unlink(flag)

    def verify(self, evidence, label, rc=0):
        path = self.write('evidence.json', json.dumps(evidence))
        return self.ctl('verify', '--evidence', path, label=f'verify ({label})', rc=rc)


def root_verify(tmp):
    r = VerifyRoot(tmp, 'verify-keep')
    r.ctl('verify', label='verify (nothing pending)')
    r.ctl('apply', 'sd-overclock-100')
    r.verify(FASTER, 'same boot: wait')
    r.ctl('status', label='status (pending verification)')
    r.boot(1, 100000000, [])
    r.verify(FASTER, 'faster and clean: keep')
    r.ctl('status', label='status (kept)')
    r.ctl('history', label='history (kept)')
    # the verify service decides at boot in the C locale; the user reads in theirs
    r = VerifyRoot(tmp, 'verify-service-english')
    r.ctl('apply', 'sd-overclock-100')
    r.boot(1, 100000000, [])
    r.raw('verify', '--evidence', r.write('evidence.json', json.dumps(FASTER)),
          env={'LANG': 'C.UTF-8', 'LANGUAGE': 'C'})
    r.ctl('status', label='status (kept by a verify that ran in English)')
    r.ctl('history', label='history (kept by a verify that ran in English)')
    japanese_history(tmp)

    r = VerifyRoot(tmp, 'verify-step-down')
    r.ctl('apply', 'sd-overclock-100', '--trial')
    r.boot(1, 80000000, ERRORS, tryboot=True)
    r.verify(FASTER, 'errors at 100 MHz: step down')
    r.ctl('status', label='status (stepped down)')
    r.boot(2, 80000000, [], tryboot=True)
    r.verify(FASTER, 'then clean at 80 MHz: keep')
    r.ctl('history', label='history (stepped down, kept)')

    for name, evidence in (('no gain: undo', NO_GAIN), ('soak mismatch: undo', MISMATCH),
                           ('no soak result: undo', NO_SOAK)):
        r = VerifyRoot(tmp, 'verify-' + name.split(':')[0].replace(' ', '-'))
        r.ctl('apply', 'sd-overclock-100')
        r.boot(1, 100000000, [])
        r.verify(evidence, name)
        r.ctl('status', label=f'status ({name})')
        r.ctl('history', label=f'history ({name})')
    # a damaged pending state: undone, and that recorded
    r = VerifyRoot(tmp, 'verify-bad-pending')
    r.ctl('apply', 'sd-overclock-100')
    r.write('var/lib/sd-tuner/pending.json', '{"version": 1, "id": 5}')
    r.ctl('status', label='status (damaged pending state)', rc=None)
    r.boot(1, 100000000, [])
    r.verify(FASTER, 'damaged pending state: undo')
    r.ctl('history', label='history (damaged pending state undone)')
    r.ctl('verify', '--soak-seconds', 'x', rc='error', label='verify --soak-seconds x')
    r.ctl('verify', '--evidence', '/nonexistent/evidence.json', rc=None,
          label='verify --evidence (a missing file)')


def japanese_history(tmp):
    """for the lead: `sdtunerctl history` in Japanese after an apply and a verify made in
    Japanese, saved as ja-history-after-verify.txt"""
    ja = {'LANG': TEST_LOCALE, 'LANGUAGE': 'ja', 'SDTUNER_LOCALEDIR': PO_DIR}
    r = VerifyRoot(tmp, 'verify-ja')
    r.raw('apply', 'sd-overclock-100', env=ja)
    r.boot(1, 100000000, [])
    r.raw('verify', '--evidence', r.write('evidence.json', json.dumps(FASTER)), env=ja)
    p = r.raw('history', env=ja)
    text = p.stdout + p.stderr
    with open(os.path.join(OUT_DIR, 'ja-history-after-verify.txt'), 'w') as f:
        f.write(text)
    print('# sdtunerctl history under LANGUAGE=ja after a verify (kept):')
    for line in text.splitlines():
        print(f'#   {line}')
    ok(p.returncode == 0 and any('\u3040' <= ch <= '\u30ff' for ch in p.stdout),
       'ja: history after a verify is Japanese (saved as ja-history-after-verify.txt)', text)
    # the record is the same for every reader: the user who reads it in another language
    # sees no word of the language the verify ran in
    p = r.ctl('history', label='history (read in qps after a verify made in Japanese)')
    kana = [line for line in (p.stdout + p.stderr).splitlines()
            if re.search('[\u3040-\u30ff\u4e00-\u9fff]', line)]
    ok(not kana, 'history after a verify made in Japanese, read in qps: no Japanese',
       '\n'.join(kana))
    for line in kana:
        findings.append(('--root verify-ja: sdtunerctl history (read in qps)', line,
                         'Japanese: ' + ''.join(re.findall('[\u3040-\u30ff\u4e00-\u9fff]+', line))[:40]))


# ---- as root: a fake card that fails the check -------------------------------------------
class FakeCard:
    def __init__(self, kind='wrap', claim='512', real='333'):
        self.dir = tempfile.mkdtemp(prefix='sdt-pseudo-card-', dir='/var/tmp')
        self.mnt = os.path.join(self.dir, 'mnt')
        r = subprocess.run([FAKE_CARD, 'up', self.dir, kind, claim, real],
                           capture_output=True, text=True, timeout=180)
        if r.returncode != 0:
            raise RuntimeError(f'fake-card.sh up: {r.stdout}{r.stderr}')

    def down(self):
        subprocess.run([FAKE_CARD, 'down', self.dir], capture_output=True, timeout=120)


def ctl_host(where, *args, rc=0):
    p = subprocess.run([SDTUNERCTL, '--root', '/'] + list(args), capture_output=True, text=True,
                       env=clean_env(QPS), timeout=300, stdin=subprocess.DEVNULL)
    judge(f'--root /: sdtunerctl {where}', p, rc)


def root_fake_card(card):
    ctl_host('check --dir FAKE (fails the check)', 'check', '--dir', card.mnt)
    ctl_host('check --full --dir FAKE (fails the check)', 'check', '--full', '--dir', card.mnt)
    shm = tempfile.mkdtemp(dir='/dev/shm')
    try:
        ctl_host('check --dir /dev/shm/… (not a block device)', 'check', '--dir', shm, rc='error')
    finally:
        os.rmdir(shm)


# ---- over the bus ------------------------------------------------------------------------
def bus_env(**kw):
    sys.path.insert(0, os.path.join(TESTS, 'integration'))
    from sdtharness import TestEnv

    class SimEnv(TestEnv):
        def helper_argv(self):
            return [shutil.which('umockdev-run') or '/usr/bin/umockdev-run', '-d',
                    self.umockdev, '--'] + TestEnv.helper_argv(self)

    root, umockdev = kw.pop('template', (SIM_ROOT, SIM_UMOCKDEV))
    env = SimEnv(root=root, **kw)
    env.umockdev = umockdev
    return env


def bus_ctl(env, where, *args, user=None, rc=0, extra=None):
    e = clean_env(dict(QPS, **(extra or {})), env.environ)
    prefix = env.as_user_argv(user) if user else []
    p = subprocess.run(prefix + [SDTUNERCTL] + list(args), capture_output=True, text=True,
                       env=e, timeout=300, stdin=subprocess.DEVNULL)
    judge(f'bus{" as " + user if user else ""}: sdtunerctl {where}', p, rc, (env.root,))
    return p


def bus_sim(card):
    with bus_env(bench_dir=False, extra_helper_args=('--bench-dir', card.mnt)) as env:
        for c in ('info', 'recommend', 'status', 'history', 'health'):
            bus_ctl(env, c, c)
        bus_ctl(env, 'apply sd-overclock-100', 'apply', 'sd-overclock-100')
        bus_ctl(env, 'status (applied)', 'status')
        bus_ctl(env, 'revert', 'revert')
        bus_ctl(env, 'apply sd-overclock-100 --trial', 'apply', 'sd-overclock-100', '--trial')
        bus_ctl(env, 'status (trial)', 'status')
        bus_ctl(env, 'revert (trial)', 'revert')
        bus_ctl(env, 'apply no-such-id', 'apply', 'no-such-id', rc='error')
        bus_ctl(env, 'bench --profile quick', 'bench', '--profile', 'quick')
        bus_ctl(env, 'check (fails the check)', 'check')
        bus_ctl(env, 'check --full (fails the check)', 'check', '--full')
        bus_ctl(env, 'bench --profile soak', 'bench', '--profile', 'soak', '--size', '8',
                '--seconds', '1')
        bus_ctl(env, 'history (bench, check)', 'history')
        bus_ctl(env, 'health (after a check)', 'health')
        # refused authorization: nobody, no polkit agent
        for c in (['apply', 'sd-overclock-100'], ['revert'], ['bench', '--profile', 'quick'],
                  ['check'], ['verify'], ['bench', '--profile', 'soak', '--size', '8'],
                  ['check', '--dir', '/var/tmp']):
            bus_ctl(env, ' '.join(c) + ' (refused)', *c, user='nobody', rc='error')
        bus_ctl(env, 'verify (nothing pending)', 'verify')
        bus_ctl(env, 'check --dir (writable by others)', 'check', '--dir', '/var/tmp',
                rc='error')
        # a damaged check journal: a check interrupted on a card that is gone
        jdir = os.path.join(env.root, 'var', 'lib', 'sd-tuner', 'check')
        os.makedirs(jdir, exist_ok=True)
        with open(os.path.join(jdir, 'check-journal'), 'wb') as f:
            f.write(check_journal(b'/dev/sdt-pseudo-gone'))
        bus_ctl(env, 'check (check journal of a card that is gone)', 'check', rc='error')
        os.unlink(os.path.join(jdir, 'check-journal'))
        # a malformed config.txt
        with open(os.path.join(env.root, 'boot', 'firmware', 'config.txt'), 'wb') as f:
            f.write(b'dtparam=audio=on\n\0\0\0garbage\n')
        for c in (['info'], ['recommend'], ['apply', 'sd-overclock-100'], ['status']):
            bus_ctl(env, ' '.join(c) + ' (malformed config.txt)', *c, rc=None)
    for c in (['apply', 'sd-overclock-100'], ['bench', '--profile', 'quick'], ['check']):
        bus_ctl(env, ' '.join(c) + ' (no helper on the bus)', *c, rc='error',
                extra={'DBUS_SYSTEM_BUS_ADDRESS': 'unix:path=/nonexistent/sdt-pseudo-bus'})


def bus_no_card():
    nocard = (os.path.join(DATA, 'roots', 'pi4-no-card'),
              os.path.join(DATA, 'umockdev', 'pi4-no-card.umockdev'))
    with bus_env(template=nocard, bench_dir=False) as env:
        for c in ('info', 'health', 'status'):
            bus_ctl(env, f'{c} (no card)', c, rc=None)
        bus_ctl(env, 'bench (no card)', 'bench', '--profile', 'quick', rc='error')
        bus_ctl(env, 'check (no card)', 'check', rc='error')


def summary():
    """every distinct run, and every distinct line (the message; its numbers and scratch
    paths masked) that holds one"""
    runs, lines = {}, {}
    for where, line, run in findings:
        runs.setdefault(run, (where, line))
        key = re.sub(r'/(?:tmp|var/tmp)/[^\s⟦⟧,;:]*', '…', line.strip())
        key = re.sub(r'\d+(?:\.\d+)?', 'N', key)
        lines.setdefault(key, (where, line.strip(), []))[2].append(run)
    print(f'# Not in the user\'s language: {len(findings)} runs, {len(runs)} distinct runs '
          f'in {len(lines)} distinct messages')
    with open(os.path.join(OUT_DIR, 'pseudo-cli-english.txt'), 'w') as f:
        for key, (where, line, rs) in sorted(lines.items()):
            print(f'#   {where}:\n#     {line!r}\n#     English: {sorted(set(rs))!r}')
            f.write(f'{where}\t{line}\t{" | ".join(sorted(set(rs)))}\n')


def main():
    # a timeout's SIGTERM unwinds like an exception: the fake card and the bus go down
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda signum, frame: sys.exit(128 + signum))
    os.makedirs(OUT_DIR, exist_ok=True)
    for name, passed, detail in sdti18n.self_test(WORDS):
        ok(passed, name, detail)
    if not sdti18n.have_dictionary():
        if CI:
            ok(False, 'the word list /usr/share/dict/words is installed',
               'install wamerican (tools/deps.sh test)')
        else:
            print('# no /usr/share/dict/words (wamerican): only the msgids\' words are known')
    tmp = tempfile.mkdtemp(prefix=f'sdt-pseudo-cli-{os.getpid()}-')
    try:
        root_sim(tmp)
        root_boards(tmp)
        root_verify(tmp)
        if os.geteuid() != 0 or shutil.which('dbus-daemon') is None:
            why = 'needs root, dbus-daemon and polkitd (FUSE, loop devices, a private bus)'
            if CI:
                ok(False, 'the fake-card and bus parts run', why)
            else:
                skip('the fake-card and bus parts', why)
        else:
            card = FakeCard()
            try:
                root_fake_card(card)
                bus_sim(card)
            finally:
                card.down()
            bus_no_card()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        summary()
    return finish()


if __name__ == '__main__':
    sys.exit(main())
