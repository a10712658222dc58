#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: wayback suite=integration timeout=300 parallel=false protocol=tap env=test
#    args=@sdtunerctl@
"""Issue 23, the way back, round 2: no success without the safety net, no undo that
silently fails.  Through `sdtunerctl --root DIR` under umockdev-run, with real files:

  1. apply on a nearly-full state file system (a loop-mounted ext4 with 1 KiB blocks,
     filled to leave 4-6 KiB): an error and config.txt untouched, never "Reboot to use it"
     without pending.json;
  2. verify whose undo meets a damaged journal, a tampered journal filter or a read-only
     /boot/firmware: the decision in history and status, what to do, and the next boot
     finishes it; status gives revert's own diagnosis;
  3. a begin marker edited against its journal: revert changes nothing and says so;
  5. a FIFO or a 300 MB tryboot.txt SD Tuner did not write: revert of config.txt goes on;
  6. the package's prerm on `apt remove` with a change applied but not yet verified;
  7. an id in pending.json that is not the block's: undone, never a higher clock;
  8. hand edits of tryboot.txt during a trial: named on keep, a copy kept;
  9. the soak test's progress shows its rate; bench and check take --dir by one rule.

usage: test-wayback.py SDTUNERCTL   (run by meson; items 1 and 2's read-only case need root)"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

from sdttap import finish, ok, skip

SDTUNERCTL = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, 'data')
SRC = os.path.dirname(HERE)
BOOKWORM = os.path.join(DATA, 'config', 'rpios-bookworm.txt')
BOOT = ['0b6f8a52-2a4e-4a55-9a43-6a5f0d3b1c11', '5d0e7c1a-9f3b-4c2d-8e1f-2b3c4d5e6f70',
        '9a1c3e5f-7b2d-4f60-8a1b-3c5d7e9f0a12', 'c4e6a8b0-1d3f-4a5c-9e7b-2d4f6a8c0e13']
CI = os.environ.get('CI') == 'true'
ROOT_USER = os.geteuid() == 0


def read(path, mode='r'):
    with open(path, mode) as f:
        return f.read()


def write(path, data, mode='w'):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(data)


def need_root(name):
    """False (and a TAP line) when the case cannot run: a failure under CI=true"""
    if ROOT_USER:
        return True
    if CI:
        ok(False, name, 'needs root (loop devices, mounts); CI=true forbids a skip')
    else:
        skip(name, 'needs root')
    return False


def block(id_, setting, filt='[board-type=0x08]'):
    return (f'# --- SD Tuner begin: {id_} (undo: sdtunerctl revert) ---\n'
            f'[all]\n{filt}\ndtoverlay=\n{setting}\n[all]\n'
            '# --- SD Tuner end ---\n')


def oc(mhz):
    return block(f'sd-overclock-{mhz}', f'dtparam=sd_overclock={mhz}')


CLEAN_PI3 = ['6,0,0,-;Booting Linux on physical CPU 0x0000000000 [0x410fd034]',
             '6,3,1500000,-;mmc0: sdhost-bcm2835 loaded - DMA enabled (>1)',
             '6,6,1537035,-;mmc0: new high speed SDHC card at address 0001',
             '6,7,1549380,-;mmcblk0: mmc0:0001 SU08G 7.40 GiB ']
ERRORS = ['3,21,9100000,-;mmcblk0: error -110 transferring data, sector 1234, nr 8, cmd response 0x900, '
          'card status 0xc00']


def fig(median, spread, unit='MB/s'):
    return {'median': median, 'spread': spread, 'unit': unit}


SOAK_CLEAN = {'bytes_written': 67108864, 'bytes_checked': 67108864, 'mismatches': 0, 'first_bad_offset': None}
BEFORE = {'seq-write': fig(18.0, 0.4), 'seq-read': fig(22.0, 0.3)}
FASTER = {'soak': SOAK_CLEAN, 'before': BEFORE,
          'after': {'seq-write': fig(21.5, 0.5), 'seq-read': fig(41.0, 0.6)}}
MISMATCH = dict(FASTER, soak={'bytes_written': 67108864, 'bytes_checked': 67108864, 'mismatches': 4096,
                              'first_bad_offset': 12582912})


class Root:
    """a copy of the pi3 fixture with the stock bookworm config.txt, at boot BOOT[0]"""

    def __init__(self, tmp, name):
        self.path = os.path.join(tmp, name)
        shutil.copytree(os.path.join(DATA, 'roots', 'pi3'), self.path)
        self.umockdev = os.path.join(DATA, 'umockdev', 'pi3.umockdev')
        self.fw = os.path.join(self.path, 'boot', 'firmware')
        self.config = os.path.join(self.fw, 'config.txt')
        self.tryboot = os.path.join(self.fw, 'tryboot.txt')
        self.state = os.path.join(self.path, 'var', 'lib', 'sd-tuner')
        self.journal = os.path.join(self.state, 'config-journal.json')
        self.pending_path = os.path.join(self.state, 'pending.json')
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
        write(os.path.join(self.path, 'proc', 'sys', 'kernel', 'random', 'boot_id'), BOOT[i] + '\n')
        ios = os.path.join(self.path, 'sys', 'kernel', 'debug', 'mmc0', 'ios')
        lines = [f'actual clock:\t{clock_hz} Hz' if x.startswith('actual clock:') else x
                 for x in read(ios).splitlines()]
        write(ios, '\n'.join(lines) + '\n')
        if log is not None:
            write(os.path.join(self.path, 'dev', 'kmsg'), '\n'.join(log) + '\n')
        flag = os.path.join(self.path, 'proc', 'device-tree', 'chosen', 'bootloader', 'tryboot')
        if tryboot:
            write(flag, b'\0\0\0\1', 'wb')
        elif os.path.exists(flag):
            os.unlink(flag)

    def log(self, hz, errors=()):
        return CLEAN_PI3[:2] + [f'6,4,1512345,-;mmc0: overclocking to {hz}Hz'] + CLEAN_PI3[2:] + list(errors)

    def verify(self, evidence):
        write(self.evidence, json.dumps(evidence))
        return self.json('verify', '--evidence', self.evidence)

    def files(self):
        return (read(self.config), read(self.tryboot) if os.path.lexists(self.tryboot) else None)

    def pending(self):
        return json.loads(read(self.pending_path)) if os.path.exists(self.pending_path) else None

    def verifies(self):
        d = os.path.join(self.state, 'history')
        return [json.loads(read(f)) for f in sorted(glob.glob(os.path.join(d, '*-verify.json')))]


# ---- item 1: a nearly-full state file system ------------------------------------------------


class SmallFs:
    """an ext4 image (1 KiB blocks, no journal, no reserve) loop-mounted on @where"""

    def __init__(self, tmp, where, kib=1024):
        self.image = os.path.join(tmp, f'state-{os.getpid()}-{len(os.listdir(tmp))}.img')
        with open(self.image, 'wb') as f:
            f.truncate(kib * 1024)
        subprocess.run(['mkfs.ext4', '-q', '-F', '-b', '1024', '-m', '0', '-O', '^has_journal',
                        '-N', '64', self.image], check=True, capture_output=True)
        os.makedirs(where, exist_ok=True)
        subprocess.run(['mount', '-o', 'loop', self.image, where], check=True)
        self.where = where

    def free(self):
        st = os.statvfs(self.where)
        return st.f_bavail * st.f_frsize

    def fill(self, leave):
        """a filler file so that exactly @leave bytes stay free"""
        filler = os.path.join(self.where, 'filler')
        size = self.free() - leave
        with open(filler, 'ab') as f:
            f.write(b'\0' * max(size, 0))
            f.flush()
            os.fsync(f.fileno())
        # the filler's own metadata blocks (indirect blocks) count too: trim to the figure
        while self.free() < leave and os.path.getsize(filler) > 0:
            os.truncate(filler, max(os.path.getsize(filler) - 1024, 0))
        return self.free()

    def close(self):
        subprocess.run(['umount', self.where], check=True)
        os.unlink(self.image)


def kib(n):
    return (n + 1023) // 1024


def apply_sizes(tmp):
    """what a plain apply of sd-overclock-100 writes into the state folder, in 1 KiB blocks"""
    r = Root(tmp, 'sizes')
    p = r.run('apply', 'sd-overclock-100')
    backup = glob.glob(os.path.join(r.state, 'backups', 'config.txt.*'))
    assert p.returncode == 0 and len(backup) == 1, p.stderr
    return (kib(os.path.getsize(backup[0])), kib(os.path.getsize(r.journal)),
            kib(os.path.getsize(r.pending_path)))


def item1_full_state(tmp):
    """every free space from 0 to 6 KiB (the review's 4-6 KiB and each boundary below):
    an apply that reports success has its pending record; one that fails changed nothing"""
    name = 'item 1: apply on a nearly-full state file system'
    if not need_root(name):
        return
    b, j, pend = apply_sizes(tmp)
    print(f'# a plain apply writes: backup {b} KiB, journal {j} KiB, pending.json {pend} KiB '
          '(1 KiB blocks), and an apply history entry', flush=True)
    outcomes = []
    for leave_kib in range(0, 7):
        r = Root(tmp, f'full-{leave_kib}')
        fs = SmallFs(tmp, r.state)
        try:
            for d in ('backups', 'history'):  # an installed system has them
                os.makedirs(os.path.join(r.state, d), exist_ok=True)
            free = fs.fill(leave_kib * 1024)
            p = r.run('apply', 'sd-overclock-100')
            said = ' '.join(p.stderr.split())
            pending = r.pending()
            applies = glob.glob(os.path.join(r.state, 'history', '*-apply.json'))
            if p.returncode == 0:
                # issue 33: and its history entry, or the change is not told as made
                good = (pending is not None and pending['id'] == 'sd-overclock-100'
                        and pending['config_sha256'] is not None and r.files() == (r.old + oc(100), None)
                        and 'Reboot' in p.stderr and len(applies) == 1)
                outcomes.append((free, 'applied, pending record and history entry saved' if good
                                 else 'APPLIED WITHOUT THEM'))
            else:
                good = (r.files() == (r.old, None) and pending is None and 'Reboot' not in p.stderr
                        and applies == []
                        and ('changed nothing' in said or 'nothing was changed' in said
                             or 'cannot save a backup' in said))
                outcomes.append((free, 'refused, nothing changed' if good else 'FAILED HALF-WAY'))
            ok(good and free == leave_kib * 1024,
               f'item 1, {free} bytes free: {outcomes[-1][1]}', f'rc={p.returncode}\n{p.stdout}{p.stderr}')
            if p.returncode != 0:
                p, st = r.json('status')
                ok(st is not None and st['applied'] is False and st['pending_verification'] is None,
                   f'item 1, {free} bytes free: status shows no change', p.stdout + p.stderr)
                os.unlink(os.path.join(r.state, 'filler'))
                p = r.run('apply', 'sd-overclock-100')
                ok(p.returncode == 0 and r.files() == (r.old + oc(100), None) and r.pending() is not None,
                   f'item 1, {free} bytes free: with space again the apply works, with its pending record',
                   p.stderr)
        finally:
            fs.close()
    kinds = {o for _, o in outcomes}
    ok({'applied, pending record and history entry saved', 'refused, nothing changed'} <= kinds,
       'item 1: the sweep has both outcomes (the boundary is inside it)', str(outcomes))
    print('# free bytes | apply', flush=True)
    for free, what in outcomes:
        print(f'# {free} | {what}', flush=True)


def issue33_history_read_only(tmp):
    """issue 33: revert and verify are never refused for their history entry (they are the
    way back), and one whose entry could not be saved says so, in the JSON and the text
    (the history folder a read-only bind mount: EROFS, as a full or failing card gives)"""
    name = 'issue 33: a history entry that cannot be saved'
    if not need_root(name):
        return
    for what in ('revert', 'verify'):
        for as_json in (True, False):
            r = Root(tmp, f'history-ro-{what}-{as_json}')
            p = r.run('apply', 'sd-overclock-100')
            assert p.returncode == 0, p.stderr
            hist = os.path.join(r.state, 'history')
            before = sorted(os.listdir(hist))
            if what == 'verify':
                r.boot(1, 100000000, r.log(100000000))
                write(r.evidence, json.dumps(FASTER))
            subprocess.run(['mount', '--bind', hist, hist], check=True)
            try:
                subprocess.run(['mount', '-o', 'remount,ro,bind', hist], check=True)
                args = ['revert'] if what == 'revert' else ['verify', '--evidence', r.evidence]
                p = r.run(*(['--json'] if as_json else []), *args)
            finally:
                subprocess.run(['umount', hist], check=True)
            try:
                res = json.loads(p.stdout) if as_json else {}
            except ValueError:
                res = {}
            warnings = res.get('warnings', []) if what == 'revert' else res.get('action', {}).get('warnings', [])
            said = ' '.join(warnings) if as_json else ' '.join(p.stderr.split())
            done = r.files() == ((r.old, None) if what == 'revert' else (r.old + oc(100), None))
            ok(p.returncode == 0 and done and sorted(os.listdir(hist)) == before
               and 'history could not record it' in said and 'Read-only file system' in said,
               f'{name}: {what} is done and its {"JSON" if as_json else "text"} says the entry is lost',
               f'rc={p.returncode}\n{p.stdout}{p.stderr}')


# ---- item 2: verify finishes even when its undo fails ---------------------------------------


def undo_with(tmp, name, damage, expect_warning):
    r = Root(tmp, name)
    p = r.run('apply', 'sd-overclock-100')
    damage(r)
    r.boot(1, 100000000, r.log(100000000))
    p, res = r.verify(MISMATCH)
    h = r.verifies()
    warnings = ' '.join((res or {}).get('action', {}).get('warnings', []))
    ok(p.returncode == 0 and res is not None and res['decision'] == 'undo'
       and res['action']['what'] == 'reverted' and r.files() == (r.old, None) and r.pending() is None
       and len(h) == 1 and h[0]['decision'] == 'undo' and expect_warning in warnings,
       f'item 2, {name}: verify undoes from the markers and the template, recorded',
       f'rc={p.returncode}\n{p.stdout}{p.stderr}\nwarnings: {warnings}')


def damaged_journal(r):
    write(r.journal, '{"version": 2, "id": "sd-overclock-100", "block": [')


def tampered_filter(r):
    j = json.loads(read(r.journal))
    j['filter'] = 'gpu_mem=64'
    write(r.journal, json.dumps(j))


def item2_status_diagnosis(tmp):
    r = Root(tmp, 'status-diagnosis')
    r.run('apply', 'sd-overclock-100')
    damaged_journal(r)
    p = r.run('revert')
    revert_error = p.stderr.strip()
    p, st = r.json('status')
    text = r.run('status').stdout
    flat = ' '.join(text.split())
    ok(p.returncode == 0 and revert_error != '' and st is not None and st['error'] is not None
       and st['error'] in revert_error and st['failed'] is True and st['reboot_pending'] is False
       and ' '.join(st['error'].split()) in flat,
       'item 2: status gives the same diagnosis as revert (damaged journal)',
       f'revert: {revert_error}\nstatus: {json.dumps(st, indent=1)}\ntext: {text}')


def item2_read_only_boot(tmp):
    name = 'item 2: undo on a read-only /boot/firmware'
    if not need_root(name):
        return
    r = Root(tmp, 'ro-boot')
    r.run('apply', 'sd-overclock-100')
    applied = r.files()
    subprocess.run(['mount', '--bind', r.fw, r.fw], check=True)
    try:
        subprocess.run(['mount', '-o', 'remount,ro,bind', r.fw], check=True)
        r.boot(1, 100000000, r.log(100000000))
        p, res = r.verify(MISMATCH)
        h = r.verifies()
        pend = r.pending()
        ok(p.returncode == 1 and 'decided “undo”' in p.stderr and 'sdtunerctl revert' in p.stderr
           and r.files() == applied and len(h) == 1 and h[0]['decision'] == 'undo'
           and h[0]['action']['what'] == 'failed' and pend is not None
           and pend['decided']['decision'] == 'undo' and pend['decided']['error'],
           'item 2, read-only /boot/firmware: the undo fails, the decision is recorded with what to do',
           f'rc={p.returncode}\n{p.stdout}{p.stderr}\n{json.dumps(h, indent=1)}')
        p, st = r.json('status')
        text = r.run('status').stdout
        pv = (st or {}).get('pending_verification') or {}
        ok(pv.get('decision') == 'undo' and 'read-only' in (pv.get('error') or '').lower()
           and 'Undo needed' in text and 'could not be carried out' in text
           and 'will be verified after the next restart' not in text,
           'item 2, read-only: status says undo needed, why it failed and what to do', text)
        r.boot(2, 100000000, r.log(100000000))
        p, res = r.verify(MISMATCH)
        ok(p.returncode == 1 and len(r.verifies()) == 1 and r.pending()['attempts'] == 1,
           'item 2, read-only: the next boot tries again, no new history entry for the same failure, '
           'no try counted', p.stderr)
    finally:
        subprocess.run(['umount', r.fw], check=True)
    r.boot(3, 100000000, r.log(100000000))
    p, res = r.verify(MISMATCH)
    h = r.verifies()
    ok(p.returncode == 0 and res['decision'] == 'undo' and res['action']['what'] == 'reverted'
       and r.files() == (r.old, None) and r.pending() is None and len(h) == 2
       and h[1]['action']['what'] == 'reverted' and h[1]['decided_at'] == h[0]['decided_at'],
       'item 2, read-only: once writable, the next boot carries the recorded undo out', p.stdout + p.stderr)


def issue33_failed_step_down(tmp):
    """issue 33: a step-down that could not be written is told as failed in `history`
    and status's "Last verification", with the setting still in place and what to do"""
    name = 'issue 33: a step-down that failed'
    if not need_root(name):
        return
    r = Root(tmp, 'failed-step-down')
    r.run('apply', 'sd-overclock-100')
    applied = r.files()
    subprocess.run(['mount', '--bind', r.fw, r.fw], check=True)
    try:
        subprocess.run(['mount', '-o', 'remount,ro,bind', r.fw], check=True)
        r.boot(1, 100000000, r.log(100000000, ERRORS))
        p, res = r.verify(FASTER)
    finally:
        subprocess.run(['umount', r.fw], check=True)
    h = r.verifies()
    ok(p.returncode == 1 and r.files() == applied and len(h) == 1 and h[0]['decision'] == 'step-down'
       and h[0]['action']['what'] == 'failed',
       f'{name}: the step-down fails on a read-only /boot/firmware, config.txt keeps 100 MHz',
       f'rc={p.returncode}\n{p.stdout}{p.stderr}\n{json.dumps(h, indent=1)}')
    hist = ' '.join(r.run('history').stdout.split())
    stat = ' '.join(r.run('status').stdout.split())
    p, st = r.json('status')
    last = (st or {}).get('last_verification') or {}
    for what, text in (('history', hist), ('status', stat)):
        ok('stepped sd-overclock-100 down' not in text
           and 'could not step sd-overclock-100 down' in text and 'still in place' in text
           and 'sdtunerctl revert' in text,
           f'{name}: {what} says it failed, that the setting is still in place and what to do', text)
    ok(last.get('action', {}).get('what') == 'failed' and last['action'].get('error'),
       f'{name}: status --json carries the failed action in last_verification', json.dumps(last))


def issue33_damaged_record_ro_boot(tmp):
    """a damaged pending record whose undo meets a read-only /boot/firmware: verify says so
    and exits 1 (it hit a GLib-CRITICAL, fatal under the tests' G_DEBUG, before)"""
    name = 'issue 33: a damaged record whose undo fails'
    if not need_root(name):
        return
    r = Root(tmp, 'damaged-record-ro')
    r.run('apply', 'sd-overclock-100')
    applied = r.files()
    write(r.pending_path, '{"version": 1, "id": ')
    subprocess.run(['mount', '--bind', r.fw, r.fw], check=True)
    try:
        subprocess.run(['mount', '-o', 'remount,ro,bind', r.fw], check=True)
        r.boot(1, 100000000, r.log(100000000))
        p, res = r.verify(FASTER)
    finally:
        subprocess.run(['umount', r.fw], check=True)
    said = ' '.join(p.stderr.split())
    ok(p.returncode == 1 and 'CRITICAL' not in p.stderr and 'could not carry it out' in said
       and 'Read-only file system' in said and r.files() == applied,
       f'{name}: exit 1 with the reason and what to do, no GLib-CRITICAL, config.txt as it was',
       f'rc={p.returncode}\n{p.stderr}')


def tree(path):
    """(owner, mode) of every folder and file under @path, and their contents"""
    out = {}
    for d, dirs, files in os.walk(path):
        for n in [''] + dirs + files:
            p = os.path.join(d, n) if n else d
            st = os.lstat(p)
            out[os.path.relpath(p, path)] = (st.st_uid, st.st_mode, read(p, 'rb') if os.path.isfile(p) else None)
    return out


def issue33_state_owner(tmp):
    """issue 33: a state folder (or a folder above it) of another user, or one others may
    write, is refused with a clear error and nothing changed; a missing one is made 0700"""
    name = 'issue 33: the state folder\'s owner'
    if not need_root(name):
        return
    import pwd
    nobody = pwd.getpwnam('nobody')
    cases = [('state folder of nobody', 'state', nobody.pw_uid, 0o755, 'belongs to another user'),
             ('state folder others may write', 'state', 0, 0o777, 'may be written by other users'),
             ('state folder group-writable', 'state', 0, 0o770, 'may be written by other users'),
             ('var/lib of nobody', 'varlib', nobody.pw_uid, 0o755, 'belongs to another user')]
    for what, which, uid, mode, word in cases:
        r = Root(tmp, 'owner-' + what.replace(' ', '-').replace('/', '-'))
        os.makedirs(os.path.join(r.state, 'history'))
        write(os.path.join(r.state, 'history', '1700000000000000-bench.json'), '{"kind": "bench"}')
        target = r.state if which == 'state' else os.path.dirname(r.state)
        os.chown(target, uid, -1)
        os.chmod(target, mode)
        before = tree(os.path.join(r.path, 'var'))
        outs = {cmd: r.run(*cmd.split()) for cmd in ('apply sd-overclock-100', 'history', 'verify')}
        said = {cmd: ' '.join(p.stderr.split()) for cmd, p in outs.items()}
        ok(all(p.returncode != 0 and word in said[cmd] and target in said[cmd] and 'changed nothing' in said[cmd]
               for cmd, p in outs.items())
           and r.files() == (r.old, None) and tree(os.path.join(r.path, 'var')) == before,
           f'{name}: {what} ({mode:o}): apply, history and verify refuse, say why and what to do, '
           'change nothing', '\n'.join(f'{c}: rc={p.returncode} {said[c]}' for c, p in outs.items()))
        p, st = r.json('status')
        text = ' '.join(r.run('status').stdout.split())
        ok(st is not None and word in (st.get('state_error') or '') and st['pending_verification'] is None
           and 'cannot use its state folder' in text and word in text and 'undoes the change' not in text,
           f'{name}: {what}: status says the folder is refused (never "the next verification undoes")',
           f'{json.dumps(st)}\n{text}')
    r = Root(tmp, 'owner-missing')
    old = os.umask(0o022)
    try:
        p = r.run('apply', 'sd-overclock-100')
    finally:
        os.umask(old)
    modes = {d: os.stat(os.path.join(r.path, d)).st_mode & 0o7777
             for d in ('var/lib/sd-tuner', 'var/lib/sd-tuner/history', 'var/lib/sd-tuner/backups')}
    ok(p.returncode == 0 and set(modes.values()) == {0o700},
       f'{name}: a missing state folder is made 0700 (umask 022), its history and backups too',
       f'{modes} {p.stderr}')


# ---- item 3: a marker that disagrees with the journal ---------------------------------------


def item3_marker(tmp):
    r = Root(tmp, 'marker')
    r.run('apply', 'sd-overclock-100')
    write(r.config, read(r.config).replace('SD Tuner begin: sd-overclock-100', 'SD Tuner begin: sd-overclock-80'))
    edited = r.files()
    journal = read(r.journal)
    pending = read(r.pending_path)
    p = r.run('revert')
    ok(p.returncode == 1 and 'marker was edited' in p.stderr and 'changes nothing' in p.stderr
       and r.files() == edited and read(r.journal) == journal and read(r.pending_path) == pending,
       'item 3: an edited begin marker: revert refuses and changes nothing', p.stdout + p.stderr)
    p, st = r.json('status')
    ok(st is not None and st['error'] is not None and 'marker was edited' in st['error'],
       'item 3: status says the same', p.stdout)
    write(r.config, read(r.config).replace('SD Tuner begin: sd-overclock-80', 'SD Tuner begin: sd-overclock-100'))
    p = r.run('revert')
    ok(p.returncode == 0 and r.files() == (r.old, None) and r.pending() is None,
       'item 3: the way out the message gives works', p.stderr)


# ---- item 5: a tryboot.txt SD Tuner did not write -------------------------------------------


def item5_tryboot(tmp):
    for name, make in (('FIFO', lambda path: os.mkfifo(path)),
                       ('300 MB file', lambda path: os.truncate(open(path, 'wb').name, 300 << 20))):
        r = Root(tmp, 'tryboot-' + name.replace(' ', '-'))
        r.run('apply', 'sd-overclock-100')
        make(r.tryboot)
        p, res = r.json('revert')
        ok(p.returncode == 0 and res is not None and read(r.config) == r.old and os.path.lexists(r.tryboot)
           and any('tryboot.txt' in w and 'no record' in w for w in res['warnings']) and r.pending() is None,
           f'item 5: a {name} as tryboot.txt: config.txt reverted, the file left, a warning',
           p.stdout + p.stderr)


# ---- item 6: apt remove with a change not yet verified --------------------------------------


def item6_prerm(tmp):
    root = os.path.join(tmp, 'dpkg-root')
    write(os.path.join(root, 'boot', 'firmware', 'config.txt'), read(BOOKWORM) + oc(100))
    env = dict(os.environ, DPKG_ROOT=root, LC_ALL='C.UTF-8')
    p = subprocess.run(['sh', os.path.join(SRC, 'debian', 'sd-tuner-cli.prerm'), 'remove'], capture_output=True,
                       text=True, env=env)
    ok(p.returncode == 0 and 'keeps working' in p.stderr and 'never verified' not in p.stderr,
       'item 6: prerm remove, a verified change: it keeps working', p.stderr)
    write(os.path.join(root, 'var', 'lib', 'sd-tuner', 'pending.json'),
          json.dumps({'version': 1, 'id': 'sd-overclock-100', 'trial': False}))
    p = subprocess.run(['sh', os.path.join(SRC, 'debian', 'sd-tuner-cli.prerm'), 'remove'], capture_output=True,
                       text=True, env=env)
    ok(p.returncode == 0 and 'sd-overclock-100' in p.stderr and 'never verified' in p.stderr
       and 'sudo sdtunerctl revert' in p.stderr and 'keeps working' not in p.stderr,
       'item 6: prerm remove, a change not yet verified: says so, and how to revert it', p.stderr)
    p = subprocess.run(['sh', os.path.join(SRC, 'debian', 'sd-tuner-cli.postrm'), 'purge'], capture_output=True,
                       text=True, env=env)
    ok(p.returncode == 0 and 'never verified' in p.stderr and 'keeps working' not in p.stderr
       and not os.path.exists(os.path.join(root, 'var', 'lib', 'sd-tuner')),
       'item 6: postrm purge, a change not yet verified: says so', p.stderr)


# ---- item 7: pending.json's id is not the block's -------------------------------------------


def item7_pending_id(tmp):
    for fake in ('sd-overclock-200', 'sd-overclock-80'):
        r = Root(tmp, 'pending-id-' + fake)
        r.run('apply', 'sd-overclock-100')
        pend = r.pending()
        pend['id'] = fake
        write(r.pending_path, json.dumps(pend))
        r.boot(1, 100000000, r.log(100000000, ERRORS))
        p, res = r.verify(FASTER)
        ok(p.returncode == 0 and res is not None and res['decision'] == 'undo' and res['stop'] is True
           and res['next_id'] is None and 'inconsistent' in res['reason'] and r.files() == (r.old, None)
           and r.pending() is None,
           f'item 7: pending.json says {fake}, the block is sd-overclock-100: undone, no step',
           p.stdout + p.stderr)


# ---- item 8: tryboot.txt edited by hand during a trial --------------------------------------


def item8_tryboot_edit(tmp):
    r = Root(tmp, 'tryboot-edit')
    r.run('apply', 'sd-overclock-100', '--trial')
    write(r.tryboot, read(r.tryboot) + 'dtparam=audio=off\n')
    r.boot(1, 100000000, r.log(100000000), tryboot=True)
    p, res = r.verify(FASTER)
    warnings = (res or {}).get('action', {}).get('warnings', [])
    named = [w for w in warnings if 'dtparam=audio=off' in w and 'edited by hand' in w]
    copies = [f for f in glob.glob(os.path.join(r.state, 'backups', 'tryboot.txt.*'))
              if 'dtparam=audio=off' in read(f)]
    ok(res is not None and res['decision'] == 'keep' and r.files() == (r.old + oc(100), None)
       and len(named) == 1 and len(copies) == 1 and copies[0] in named[0],
       'item 8: a hand edit of tryboot.txt during the trial is named on keep, with the copy kept',
       json.dumps(res, indent=1))
    h = r.verifies()
    ok(len(h) == 1 and any('dtparam=audio=off' in w for w in h[0]['action'].get('warnings', [])),
       'item 8: the history entry names it too')


# ---- item 9: soak progress, and one --dir rule for bench and check --------------------------


def item9_soak_rate(tmp):
    name = 'item 9: soak progress'
    if not need_root(name):
        return
    r = Root(tmp, 'soak-rate')
    d = os.path.join(tmp, 'soak-dir')
    fs = SmallFs(tmp, d, kib=96 * 1024)
    try:
        p = r.run('bench', '--profile', 'soak', '--dir', d, '--size', '16', '--seconds', '4')
    finally:
        fs.close()
    rates = [float(x.split()[-2]) for x in p.stderr.splitlines()
             if x.startswith('soak ') and x.endswith(' MB/s')]
    ok(p.returncode == 0 and len(rates) >= 2 and max(rates) > 0,
       f'item 9: bench --profile soak shows its rate ({", ".join(f"{x:.1f}" for x in rates)} MB/s)',
       p.stdout + p.stderr)


def item9_dir_rule(tmp):
    name = 'item 9: --dir with --root /'
    if not need_root(name):
        return
    d = os.path.join(tmp, 'dir-rule')
    os.makedirs(d)
    out = {}
    for cmd in (['bench', '--profile', 'soak', '--size', '8', '--seconds', '0'], ['check']):
        # the real root, with SD Tuner's state on a scratch tmpfs in a private mount namespace
        script = 'mount -t tmpfs tmpfs /var/lib && exec "$@"'
        p = subprocess.run(['unshare', '-m', '--propagation', 'private', 'sh', '-c', script, 'sh',
                            SDTUNERCTL, '--root', '/'] + cmd + ['--dir', d], capture_output=True, text=True,
                           env=dict(os.environ, LANGUAGE='C', LC_ALL='C.UTF-8'), timeout=300)
        out[cmd[0]] = p
    refused = {k: 'only with --root' in p.stderr or '--dir is only' in p.stderr for k, p in out.items()}
    ok(refused == {'bench': False, 'check': False} and out['bench'].returncode == 0
       and 'stand-in' in out['bench'].stdout,
       'item 9: bench and check follow one rule: --dir is accepted with --root / (a stand-in)',
       '\n'.join(f'{k}: rc={p.returncode} {p.stdout}{p.stderr}' for k, p in out.items()))


def nothing_pending_without_config(tmp):
    # the unit runs on every boot: with nothing pending and no config.txt it has nothing to do
    r = Root(tmp, 'no-config')
    os.unlink(r.config)
    p, res = r.json('verify')
    ok(p.returncode == 0 and res is not None and res['pending'] is False,
       'nothing pending and no config.txt: verify has nothing to do', p.stdout + p.stderr)


tmp = tempfile.mkdtemp(prefix=f'sdt-wayback-{os.getpid()}-')
try:
    item1_full_state(tmp)
    issue33_history_read_only(tmp)
    undo_with(tmp, 'damaged journal', damaged_journal, 'set its damaged record')
    undo_with(tmp, 'tampered journal filter', tampered_filter, 'set its damaged record')
    item2_status_diagnosis(tmp)
    item2_read_only_boot(tmp)
    issue33_failed_step_down(tmp)
    issue33_state_owner(tmp)
    issue33_damaged_record_ro_boot(tmp)
    item3_marker(tmp)
    item5_tryboot(tmp)
    item6_prerm(tmp)
    item7_pending_id(tmp)
    item8_tryboot_edit(tmp)
    item9_soak_rate(tmp)
    item9_dir_rule(tmp)
    nothing_pending_without_config(tmp)
finally:
    shutil.rmtree(tmp, ignore_errors=True)
sys.exit(finish())
