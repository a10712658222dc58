#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: host-kernel suite=host-kernel timeout=900 parallel=false protocol=tap env=test
#    args=@sdtunerctl@
"""Every command that reads kernel files, on THIS machine's kernel files (docs/KERNEL-INTERFACES.md).

The fixture roots hold kernel files as ordinary files; a real kernel serves them otherwise:
procfs and debugfs report st_size 0, sysfs 4096, a seq_file hands out a page per read(), a boot id
changes with the boot.  Here the simulated Pi 3 (tools/sdtsim.py: data/sim/rpi3 copied, its card
a loop device with ext4) gets the build machine's own files bind-mounted over its fixture copies,
in a private mount namespace (and a private network namespace, for one sysctl) that vanishes with
this process:

  1. /proc/sys/kernel/random/boot_id: bench (a card benchmark records the running config.txt's
     fingerprint, which needs the boot id), apply right after it (no "another config.txt"
     warning, the pending change holds the real boot id); then /proc/sys/kernel/random/uuid over
     it (a new boot: a new id at every read) and verify: not undone for an unreadable boot id,
     both boot ids in the evidence, undone because the clock stayed at 50 MHz (nothing here
     reads config.txt), config.txt byte-identical; status and history show it.
  2. /proc/uptime (in a time namespace 1 day ahead, as a Pi up for a day) and the card's loop
     device's /sys/block/loopN/stat: health gives uptime, written bytes and writes per day.
  3. /proc/PID/mountinfo made 3+ pages long with extra mounts, and /proc/cpuinfo: info finds the
     card's real mount point past the first page, the board, no warning.
  4. The running core clock: no clock tree on this (x86) kernel, so a real procfs file of size 0
     holding a clock rate stands in for debugfs clk/fw-clk-core/clk_rate: the network
     namespace's own /proc/sys/net/core/somaxconn set to 250000000; recommend uses it.
  5. A real debugfs mounted over the fixture's /sys/kernel/debug: info falls back to the kernel
     log with a warning when the host has no mmc0 (or reads its ios when it has).
  6. Hostile copies (item 7 of issue 21): proc/device-tree/model a link to /dev/zero or a FIFO,
     debugfs mmc0/ios a FIFO, cpuinfo a link to /dev/zero, mountinfo a FIFO: info, recommend, status, health, history, apply, verify each end
     within 20 s, exit 0 or 1, stay under 100 MiB of RSS (wait4's ru_maxrss) with a 1 GiB
     address-space limit, and info names the file.

The VM tier (tests/vm, suite vm) reads a Pi's own files (mmc0/ios, the device tree) on a real
arm kernel; this suite reads what the build machine's kernel has.  Needs root (mounts, loop
device); without it the suite skips, and under CI=true it fails.

usage: test-host-kernel.py SDTUNERCTL   (run by meson, suite host-kernel; prints TAP)"""
import json
import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
import uuid

CTL = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
sys.path.insert(0, TESTS)
sys.path.insert(0, os.path.join(TESTS, '..', 'tools'))
import sdtsim  # noqa: E402
import sdttap  # noqa: E402
from sdttap import ok, skip  # noqa: E402

sdttap.detail_lines = -60
CI = os.environ.get('CI') == 'true'
NS_MARK = 'SDT_HOST_KERNEL_NAMESPACE'
BOOT_ID = '/proc/sys/kernel/random/boot_id'
ORIGINAL = open(os.path.join(sdtsim.SIM_ROOT, 'boot', 'firmware', 'config.txt')).read()
RSS_MAX_KB = 100 * 1024
AS_LIMIT = 1024 * 1024 * 1024
CORE_HZ = 250000000


def cannot(why):
    """this machine cannot run the suite: a failure under CI=true, else one skip"""
    if CI:
        ok(False, 'the host-kernel suite runs (CI=true: no skipping)', why)
    else:
        skip('the host-kernel suite', why)
    sys.exit(sdttap.finish())


def note(*a):
    print('#', *a, flush=True)


def read(path, mode='r'):
    with open(path, mode) as f:
        return f.read()


# ---- a private mount and network namespace: every bind mount below vanishes with us ----------
if os.environ.get(NS_MARK) != '1':
    if os.geteuid() != 0:
        cannot('needs root (bind mounts, a loop device)')
    if shutil.which('unshare') is None:
        cannot('needs unshare (util-linux)')
    os.environ[NS_MARK] = '1'
    os.execvp('unshare', ['unshare', '--mount', '--net', '--propagation', 'private',
                          sys.executable, os.path.abspath(__file__)] + sys.argv[1:])


def mount(*args):
    subprocess.run(['mount'] + list(args), check=True, capture_output=True)


def bind(src, dst):
    """src (a real kernel file) over dst (the fixture's copy, made if missing)"""
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    if os.path.lexists(dst) and not os.path.isfile(dst):
        os.unlink(dst)
    if not os.path.exists(dst):
        open(dst, 'w').close()
    mount('--bind', src, dst)


def umount(dst):
    subprocess.run(['umount', dst], check=True, capture_output=True)


class Run:
    def __init__(self, rc, out, err, seconds, rss_kb, timed_out):
        self.rc, self.out, self.err = rc, out, err
        self.seconds, self.rss_kb, self.timed_out = seconds, rss_kb, timed_out

    def json(self):
        try:
            return json.loads(self.out)
        except ValueError:
            return None

    def __str__(self):
        return (f'rc {self.rc}, {self.seconds:.1f} s, max RSS {self.rss_kb} KiB'
                f'{", TIMED OUT" if self.timed_out else ""}\n--- stdout\n{self.out[-3000:]}\n'
                f'--- stderr\n{self.err[-3000:]}')


def run(root, umockdev, args, timeout=60, prefix=()):
    """sdtunerctl --root ROOT ARGS under umockdev-run; a 1 GiB address-space limit; killed after
    timeout; the maximum RSS of the process tree from wait4()"""
    argv = list(prefix) + ['umockdev-run', '-d', umockdev, '--', CTL, '--root', root] + list(args)
    env = dict(os.environ, LANGUAGE='C', LC_ALL='C.UTF-8')
    env.pop('SDTUNER_ROOT', None)
    out = tempfile.TemporaryFile()
    err = tempfile.TemporaryFile()

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (AS_LIMIT, AS_LIMIT))

    start = time.monotonic()
    p = subprocess.Popen(argv, stdout=out, stderr=err, env=env, preexec_fn=limit,
                         start_new_session=True)
    timed_out = False
    while True:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid == p.pid:
            break
        if time.monotonic() - start > timeout:
            timed_out = True
            os.killpg(p.pid, signal.SIGKILL)
            pid, status, usage = os.wait4(p.pid, 0)
            break
        time.sleep(0.05)
    p.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.monotonic() - start
    out.seek(0)
    err.seek(0)
    return Run(p.returncode, out.read().decode(errors='replace'),
               err.read().decode(errors='replace'), seconds, usage.ru_maxrss, timed_out)


def uptime():
    return float(read('/proc/uptime').split()[0])


def block_stat(dev):
    f = read(f'/sys/block/{dev}/stat').split()
    return int(f[6]) * 512, int(f[2]) * 512


def pending(board):
    path = os.path.join(board.state, 'pending.json')
    return json.loads(read(path)) if os.path.exists(path) else None


def history(board):
    d = os.path.join(board.state, 'history')
    return [json.loads(read(os.path.join(d, n))) for n in sorted(os.listdir(d))
            if n.endswith('.json')] if os.path.isdir(d) else []


# ---- 1. the boot id: bench, apply, a new boot, verify -----------------------------------------
def case_boot_ids(board):
    root, umd = board.root, board.umockdev
    real = read(BOOT_ID).strip()
    fixture = os.path.join(root, BOOT_ID.lstrip('/'))
    bind(BOOT_ID, fixture)
    ok(os.stat(fixture).st_size == 0 and read(fixture).strip() == real,
       "the fixture's boot_id is the kernel's own (procfs: st_size 0)")

    r = run(root, umd, ['--json', 'bench', '--profile', 'quick'], timeout=600)
    benches = [e for e in history(board) if e.get('kind') == 'bench']
    last = benches[-1] if benches else {}
    ok(r.rc == 0 and not last.get('target', {}).get('stand_in', True)
       and last.get('config_sha256') is not None,
       'bench on the card records the running config.txt (needs the boot id)',
       f'{r}\nentry: {json.dumps(last)[:2000]}')

    r = run(root, umd, ['--json', 'apply', 'sd-overclock-100'])
    res = r.json() or {}
    warnings = ' '.join(res.get('warnings', []))
    pend = pending(board) or {}
    ok(r.rc == 0 and 'another config.txt' not in warnings and 'no benchmark' not in warnings
       and pend.get('before') is not None,
       'apply right after the benchmark: its figures are the "before", no warning', r)
    ok(pend.get('boot_id') == real, 'apply: the pending change holds the real boot id',
       f'pending boot_id {pend.get("boot_id")!r}, kernel {real!r}')
    applies = [e for e in history(board) if e.get('kind') == 'apply']
    ok(applies and applies[-1].get('boot_id') == real,
       'apply: its history entry holds the real boot id',
       json.dumps(applies[-1] if applies else None))

    # a new boot: the kernel's uuid file gives a new random id at every read
    umount(fixture)
    bind('/proc/sys/kernel/random/uuid', fixture)
    r = run(root, umd, ['--json', 'verify'], timeout=600)
    res = r.json() or {}
    note('verify: ' + json.dumps(res)[:1500])
    ev = res.get('evidence') or {}
    reason = res.get('reason', '')
    ok(res.get('decision') is not None and 'boot id' not in reason,
       'verify after the new boot: not undone for an unreadable boot id', r)
    then, now = ev.get('boot_id_then'), ev.get('boot_id')
    good_now = False
    try:
        good_now = now is not None and str(uuid.UUID(now)) == now.lower() and now != real
    except ValueError:
        pass
    ok(then == real and good_now, 'verify: both boot ids in the evidence, different',
       f'boot_id_then {then!r} (kernel {real!r}), boot_id {now!r}')
    ok(res.get('decision') == 'undo' and 'did not take effect' in reason
       and (ev.get('clock') or {}).get('observed_hz') == 50000000
       and read(board.config) == ORIGINAL and pending(board) is None,
       'verify: undone (the clock stayed at 50 MHz), config.txt byte-identical, nothing pending',
       f'{r}\nconfig.txt == original: {read(board.config) == ORIGINAL}')

    r = run(root, umd, ['--json', 'status'])
    st = r.json() or {}
    lv = st.get('last_verification') or {}
    ok(r.rc == 0 and st.get('pending_verification') is None and lv.get('decision') == 'undo'
       and 'did not take effect' in lv.get('reason', ''),
       'status: the verification\'s outcome on the new boot', r)
    r = run(root, umd, ['--json', 'history'])
    h = r.json() or {}
    entries = h.get('entries', [])
    kinds = [e.get('kind') for e in entries]
    verifies = [e for e in entries if e.get('kind') == 'verify']
    ok(r.rc == 0 and 'apply' in kinds and 'bench' in kinds and verifies
       and 'did not take effect' in verifies[-1].get('reason', ''),
       'history: bench, apply and the verification for the clock listed', r)
    umount(fixture)
    bind(BOOT_ID, fixture)


# ---- 2. health: uptime and the block device's counters -----------------------------------------
def case_health(board):
    root, umd = board.root, board.umockdev
    loop = os.path.basename(board.card.dev)
    bind('/proc/uptime', os.path.join(root, 'proc', 'uptime'))
    bind(f'/sys/block/{loop}/stat', os.path.join(root, 'sys', 'block', 'mmcblk0', 'stat'))
    # a day ahead (health gives writes per day after an hour of uptime); without time
    # namespaces (CONFIG_TIME_NS, Linux 5.6) the machine's own uptime
    day, prefix = 86400, ['unshare', '--time', '--boottime', '86400']
    if subprocess.run(prefix + ['true'], capture_output=True).returncode != 0:
        day, prefix = 0, []
        note('no time namespace on this kernel: the uptime is the machine\'s own')
    up0, (w0, r0) = uptime() + day, block_stat(loop)
    r = run(root, umd, ['--json', 'health'], prefix=prefix)
    up1, (w1, r1) = uptime() + day, block_stat(loop)
    h = r.json() or {}
    sb = h.get('since_boot') or {}
    ok(r.rc == 0 and sb.get('uptime_seconds') is not None
       and up0 - 1 <= sb['uptime_seconds'] <= up1 + 1,
       'health: the real uptime (procfs, st_size 0)', f'{r}\nexpected {up0:.0f}..{up1:.0f} s')
    ok(sb.get('written_bytes') is not None and w0 <= sb['written_bytes'] <= w1 and w1 > 0,
       f'health: the written bytes of the card ({loop}) from sysfs (st_size 4096)',
       f'{json.dumps(sb)}\nexpected {w0}..{w1}')
    if up0 >= 3600:
        ok(h.get('writes_per_day_bytes') is not None and h['writes_per_day_bytes'] > 0,
           'health: writes per day from the two', json.dumps(h)[:2000])
    elif CI:
        ok(False, 'health: writes per day from the two',
           f'no time namespace and up only {up0:.0f} s: writes per day need an hour')
    else:
        skip('health: writes per day from the two',
             f'no time namespace and up only {up0:.0f} s: writes per day need an hour')

    # ext4's own counter of the card's file system (sysfs, st_size 4096)
    counter = f'/sys/fs/ext4/{loop}/lifetime_write_kbytes'
    bind(counter, os.path.join(root, 'sys', 'fs', 'ext4', 'mmcblk0p2', 'lifetime_write_kbytes'))
    kb0 = int(read(counter))
    r = run(root, umd, ['--json', 'health'])
    kb1 = int(read(counter))
    parts = {p.get('device'): p for p in (r.json() or {}).get('partitions', [])}
    got = (parts.get('mmcblk0p2') or {}).get('lifetime_write_bytes')
    ok(r.rc == 0 and got is not None and kb0 * 1024 <= got <= kb1 * 1024,
       "health: the card's ext4 lifetime writes from the kernel's counter",
       f'{r}\nexpected {kb0 * 1024}..{kb1 * 1024}')


# ---- 3. info: a mount table of several pages, the real cpuinfo ---------------------------------
def case_info(board, mount_point):
    root, umd = board.root, board.umockdev
    table = f'/proc/{os.getpid()}/mountinfo'
    bind(table, os.path.join(root, 'proc', 'self', 'mountinfo'))
    bind('/proc/cpuinfo', os.path.join(root, 'proc', 'cpuinfo'))
    text = read(table)
    first = len(os.read(os.open(table, os.O_RDONLY), 1 << 20))
    note(f'mountinfo: {len(text)} bytes, {text.count(chr(10))} lines, first read() {first} bytes')
    r = run(root, umd, ['--json', 'info'])
    info = r.json() or {}
    card = info.get('card') or {}
    ok(r.rc == 0 and len(text) > 3 * 4096 and first < len(text)
       and text.find(mount_point) > 4096 and mount_point in card.get('mount_points', []),
       "info: the card's real mount point, past the mount table's first page", r)
    # the machine's own "/" (a line of its table), and nothing unreadable
    real_root = next(l.split(' - ')[1].split()[1] for l in text.splitlines()
                     if l.split()[4] == '/')
    warnings = info.get('warnings', [])
    ok(info.get('board', {}).get('key') == '3'
       and any(f'/ is on {os.path.basename(real_root)}' in w for w in warnings)
       and not any(k in w for w in warnings for k in ('cpuinfo', 'mount table', 'annot')),
       'info: the board from the device tree, the real cpuinfo and "/" of the real mount table',
       f'{r}\nreal / on {real_root}')
    r = run(root, umd, ['--json', 'status'])
    ok(r.rc == 0 and r.json() is not None, 'status with the real mount table and cpuinfo', r)

    # the kernel's own log device (character device 1:11): read to its end, never blocking
    kmsg = os.path.join(root, 'dev', 'kmsg')
    bind('/dev/kmsg', kmsg)
    r = run(root, umd, ['--json', 'info'], timeout=20)
    log = (r.json() or {}).get('kernel_log') or {}
    ok(stat.S_ISCHR(os.stat(kmsg).st_mode) and not r.timed_out and r.rc == 0
       and log.get('read') is True,
       'info: the real /dev/kmsg read to its end without blocking', r)
    umount(kmsg)
    # the machine's own table has "/" on its disk, not on the simulated card: the cases
    # after this one want the card to be the system disk again (recommend tunes nothing
    # for a card the system does not run from, issue 27)
    umount(os.path.join(root, 'proc', 'self', 'mountinfo'))


# ---- 4. the running core clock: a real size-0 procfs file in place of debugfs clk_rate ---------
def case_core_clock(board):
    root, umd = board.root, board.umockdev
    knob = '/proc/sys/net/core/somaxconn'  # this network namespace's own: the host keeps its value
    with open(knob, 'w') as f:
        f.write(f'{CORE_HZ}\n')
    dst = os.path.join(root, 'sys', 'kernel', 'debug', 'clk', 'fw-clk-core', 'clk_rate')
    bind(knob, dst)
    r = run(root, umd, ['--json', 'recommend'])
    core = (r.json() or {}).get('core_clock') or {}
    ok(os.stat(dst).st_size == 0 and r.rc == 0 and core.get('hz') == CORE_HZ
       and core.get('source') == 'running-system',
       'recommend: the running core clock read from a size-0 kernel file',
       f'{r}\ncore_clock {core}')
    umount(dst)


# ---- 5. a real debugfs over the fixture's -------------------------------------------------------
def case_debugfs(board):
    root, umd = board.root, board.umockdev
    debug = os.path.join(root, 'sys', 'kernel', 'debug')
    mount('-t', 'debugfs', 'debugfs', debug)
    try:
        has_ios = os.path.exists(os.path.join(debug, 'mmc0', 'ios'))
        r = run(root, umd, ['--json', 'info'])
        info = r.json() or {}
        source = (info.get('bus') or {}).get('source')
        warned = any('mmc0/ios' in w for w in info.get('warnings', []))
        ok(r.rc == 0 and (source == 'debugfs' if has_ios else source == 'kernel-log' and warned),
           f'info on a real debugfs ({"with" if has_ios else "without"} mmc0/ios)', r)
    finally:
        umount(debug)


# ---- 6. hostile copies: a link to /dev/zero, FIFOs ----------------------------------------------
HOSTILE_COMMANDS = [['info'], ['recommend'], ['status'], ['health'], ['history'],
                    ['apply', 'sd-overclock-100'], ['verify']]


def hostile(tmp, name, path, make, names):
    root = os.path.join(tmp, f'hostile-{name}')
    shutil.copytree(sdtsim.SIM_ROOT, root, symlinks=True)
    os.makedirs(os.path.dirname(os.path.join(root, BOOT_ID.lstrip('/'))))
    with open(os.path.join(root, BOOT_ID.lstrip('/')), 'w') as f:
        f.write(str(uuid.uuid4()) + '\n')
    target = os.path.join(root, path.lstrip('/'))
    os.unlink(target)
    make(target)
    bad = []
    for args in HOSTILE_COMMANDS:
        r = run(root, sdtsim.SIM_UMOCKDEV, ['--json'] + args, timeout=20)
        good = not r.timed_out and r.rc in (0, 1) and r.rss_kb < RSS_MAX_KB
        if args == ['info']:
            said = r.out + r.err
            good = good and path in said and any(n in said for n in names)
        note(f'{name}: {" ".join(args)}: rc {r.rc}, {r.seconds:.2f} s, max RSS {r.rss_kb} KiB')
        if not good:
            bad.append(f'{" ".join(args)}: {r}')
    ok(not bad, f'{name}: every command ends within 20 s, exit 0/1, RSS < 100 MiB, info names it',
       '\n'.join(bad))
    shutil.rmtree(root, ignore_errors=True)


def case_hostile(tmp):
    hostile(tmp, 'model-dev-zero', '/proc/device-tree/model',
            lambda t: os.symlink('/dev/zero', t), ['symbolic link'])
    hostile(tmp, 'model-fifo', '/proc/device-tree/model', os.mkfifo, ['FIFO'])
    hostile(tmp, 'ios-fifo', '/sys/kernel/debug/mmc0/ios', os.mkfifo, ['FIFO'])
    hostile(tmp, 'cpuinfo-dev-zero', '/proc/cpuinfo', lambda t: os.symlink('/dev/zero', t),
            ['symbolic link'])
    hostile(tmp, 'mountinfo-fifo', '/proc/self/mountinfo', os.mkfifo, ['FIFO'])


def extra_mounts(tmp, n=60):
    """n bind mounts of a scratch folder: a mount table several pages long"""
    src = os.path.join(tmp, 'bind-src')
    os.makedirs(src)
    for i in range(n):
        d = os.path.join(tmp, 'binds', f'a-rather-long-mount-point-name-to-fill-the-table-{i:03d}')
        os.makedirs(d)
        mount('--bind', src, d)


def umount_under(top):
    """every mount under top, the deepest first: nothing left mounted, nothing left behind"""
    points = []
    for line in read('/proc/self/mountinfo').splitlines():
        mp = line.split()[4].replace('\\040', ' ')
        if mp == top or mp.startswith(top + '/'):
            points.append(mp)
    for mp in sorted(points, key=len, reverse=True):
        subprocess.run(['umount', '--lazy', mp], capture_output=True)


def main():
    why = sdtsim.SimCard.why_not()
    if why:
        cannot(f'no simulated card: {why}')
    tmp = tempfile.mkdtemp(prefix='sdt-host-kernel-', dir='/var/tmp')
    try:
        extra_mounts(tmp)
        with sdtsim.SimCard(size_mb=160, img_dir=tmp, log=note) as card:
            if card.unavailable:
                cannot(card.unavailable)
            board = sdtsim.SimBoard(os.path.join(tmp, 'board'), card, log=note)
            try:
                case_boot_ids(board)
                case_health(board)
                case_info(board, board.state)
                case_core_clock(board)
                case_debugfs(board)
            finally:
                board.close()
                umount_under(board.root)
        case_hostile(tmp)
    finally:
        umount_under(tmp)
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(sdttap.finish())


main()
