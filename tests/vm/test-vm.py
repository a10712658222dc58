#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: vm-{case} suite=vm timeout=1800 priority=10 protocol=tap env=test cases=arm64|armhf|armhf-trixie
#    args={case},{srcdir},{testsbuilddir}/vm/{case}
"""The real-kernel tier: the closed loop on Debian's own kernel, booted by QEMU as a
Raspberry Pi whose card holds Raspberry Pi OS storage (see tests/vm/README.md).

arm64 (Pi 3, -M raspi3b), the trial path:
  boot 1  info, recommend, bench --profile quick, apply ID --trial, then the restart the apply
          asks for (`reboot '0 tryboot'`)
  boot 2  the trial boot (the test plays the firmware: /chosen/bootloader/tryboot = <1>):
          status, verify, health, check (armhf only: CHECK below), history
  boot 3  a normal boot of the normal config.txt: status, verify
armhf (Pi 2, -M raspi2b): boot 1 with a plain `apply ID` and a plain restart, boot 2 as above,
  then the 64-bit time_t check: the binary calls glibc's __*_time64 entry points, and with
  config.txt's mtime in the year 2100 `info` still finds it (a 32-bit time_t lstat() fails
  with EOVERFLOW, and SD Tuner would take /boot/config.txt's stub for the configuration).
armhf-trixie: the same on trixie (its armmp kernel 6.12, busybox and libraries: the t64 names,
  64-bit time_t throughout), sdtunerctl cross-built against them.

QEMU never reads config.txt, so the right outcome is known: verify reads both boot ids and the
real debugfs ios, and undoes because the clock stayed at 50 MHz; config.txt ends
byte-identical to the stock file; nothing is left on the card.

usage: test-vm.py ARCH SRCDIR WORKDIR   (run by meson, suite vm; prints TAP)
"""
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from sdttap import finish, ok  # noqa: E402

CASE, SRC, WORK = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
ARCH = CASE.split('-')[0]  # arm64, armhf (armhf-trixie: trixie's packages)
SUITE = CASE.split('-')[1] if '-' in CASE else 'bookworm'
HERE = os.path.dirname(os.path.abspath(__file__))
STOCK = os.path.join(HERE, f'config-{ARCH}.txt')
TRIAL = ARCH == 'arm64'
# the fake check (issue 33) reads about 12 000 blocks of the emulated card: 2 to 4 min under
# TCG. On a real kernel it runs here on the Pi 2 (armhf, the 32-bit engine, in-process) and
# through the helper under its unit on the Pi 3 in vm-systemd-trixie (arm64): the arm64
# tiers here keep the trial path, armhf-trixie the t64 libraries and 64-bit time_t.
# SDT_VM_CHECK=1 runs it in every case, SDT_VM_CHECK=0 in none.
CHECK = os.environ.get('SDT_VM_CHECK', '1' if CASE == 'armhf' else '0') == '1'
BOARD_KEY = {'arm64': '3', 'armhf': '2'}[ARCH]
SD_SIZE = os.environ.get('SDT_VM_SD_SIZE', '4G')
FAT = '@@' + str(8192 * 512)
CTL = 'sdtunerctl --root / --json'
timings = {}

# shell run in the guest (chroot on the card, busybox); `run NAME CMD...` is guest-init.sh's
SNAPSHOT = r'''
run files-{0} find / -xdev \( -type f -o -type l \) -print
run fat-{0} ls -a /boot/firmware
'''
BOOT_ID = 'run bootid cat /proc/sys/kernel/random/boot_id\n'
BOOT1 = BOOT_ID + SNAPSHOT.format('before') + f'''
run info {CTL} info
run recommend {CTL} recommend
ID=$(sed -n 's/.*"id" *: *"\\([^"]*\\)".*/\\1/p' /run/sdt/out | head -n 1)
echo "@@SDT-ID $ID"
run bench {CTL} bench --profile quick
run apply {CTL} apply "$ID" {'--trial' if TRIAL else ''}
run status {CTL} status
# the restart status asks for: trial.reboot_command "sudo reboot '0 tryboot'" (none: a plain restart)
grep -o "sudo reboot '[^']*'" /run/sdt/out | sed "s/^sudo reboot '//; s/'$//" >/run/sdt/reboot-command
'''
BOOT2 = BOOT_ID + f'''
run tryboot-flag od -An -tx1 /proc/device-tree/chosen/bootloader/tryboot
run status-before {CTL} status
run verify {CTL} verify
run status {CTL} status
run health {CTL} health
{'run health-2h sdt-vm-uptime 7200 ' + CTL + ' health' if TRIAL else ''}
{'run check ' + CTL + ' check' if CHECK else ''}
run history {CTL} history
''' + SNAPSHOT.format('after')
# 32-bit: 64-bit time_t in the binary (its glibc entry points, a stat() past 2038). Only
# trixie's busybox can date a file past 2038: bookworm's has a 32-bit time_t (its touch -d
# 2100 gave 1980-01-01), so there the binary's entry points are checked alone.
TIME64 = r'''
run time64-syms sh -c "grep -ao '__[a-z0-9_]*_time64' /opt/sdt/bin/sdtunerctl | sort -u"
'''
TIME64_2100 = r'''
touch -d '2100-01-01 00:00:00' /boot/firmware/config.txt
run mtime-2100 stat -c %Y /boot/firmware/config.txt
''' + f'run info-2100 {CTL} info\n'
if ARCH == 'armhf':
    BOOT2 += TIME64 + (TIME64_2100 if SUITE != 'bookworm' else '')
BOOT3 = BOOT_ID + f'''
run status {CTL} status
run verify {CTL} verify
''' + SNAPSHOT.format('final')


def step(*args):
    """runs a vm.sh step; exits with the plan when it cannot run here"""
    t0 = time.monotonic()
    r = subprocess.run(['bash', os.path.join(HERE, 'vm.sh'), args[0], CASE] + list(args[1:]),
                       capture_output=True, text=True)
    timings[args[0] + (' ' + args[2] if args[0] == 'boot' else '')] = time.monotonic() - t0
    sys.stderr.write(r.stderr)
    if r.returncode == 77:
        why = [ln for ln in r.stderr.splitlines() if ln.startswith('vm: SKIPPED')]
        print(f'1..0 # SKIP {why[-1] if why else "cannot run here"}', flush=True)
        sys.exit(0)
    return r


def sections(name):
    """the outputs of a boot's `run NAME ...` lines: {NAME: (text, rc)}, and the console"""
    with open(os.path.join(WORK, name + '.nonce')) as f:
        nonce = f.read().strip()
    with open(os.path.join(WORK, name + '.log'), errors='replace') as f:
        console = f.read().replace('\r', '')
    out, cur, buf = {}, None, []
    for line in console.split('\n'):
        if cur is None and line.startswith(f'@@SDT-BEGIN {nonce} '):
            cur, buf = line.split(' ', 2)[2], []
        elif cur is not None and line.startswith(f'@@SDT-END {nonce} {cur} rc='):
            m = re.search(r' rc=(\d+) secs=([0-9.]+)$', line)
            out[cur] = ('\n'.join(buf), int(m.group(1)) if m else -1)
            if not cur.endswith('.err'):
                timings[f'{name} {cur}'] = float(m.group(2)) if m else -1
            cur = None
        elif cur is not None:
            buf.append(line)
    return out, console


def boot(name, script, mode=''):
    path = os.path.join(WORK, name + '.sh')
    with open(path, 'w') as f:
        f.write(script)
    r = step('boot', WORK, name, path, *([mode] if mode else []))
    ok(r.returncode == 0, f'{name}: the guest booted and powered off or restarted',
       r.stderr[-2000:])
    out, console = sections(name)
    ok('### GUEST-DONE' in console and '### boot.sh exit status 0' in console,
       f'{name}: the commands ran to the end and the card was unmounted', console[-3000:])
    return out, console


def result(out, name, rc=0):
    """the JSON a command printed (None when it did not), checked for its exit status"""
    text, code = out.get(name, ('', None))
    err = out.get(name + '.err', ('', None))[0]
    ok(code == rc, f'{name}: exit status {rc}', f'exit status {code}\n{err}\n{text[-3000:]}')
    try:
        return json.loads(text)
    except ValueError:
        ok(False, f'{name}: prints JSON', text[-3000:] + '\n' + err)
        return None


def get(doc, path, default=None):
    for key in path.split('.'):
        if not isinstance(doc, dict) or key not in doc:
            return default
        doc = doc[key]
    return doc


def check_boot1(out, console):
    info = result(out, 'info') or {}
    ok(get(info, 'board.key') == BOARD_KEY, f'info: board.key is "{BOARD_KEY}"', get(info, 'board'))
    ok(get(info, 'board.sd_controller') == 'sdhost', 'info: the card is on the sdhost controller',
       get(info, 'board'))
    ok(get(info, 'card.present') is True and get(info, 'card.device') == 'mmcblk0',
       'info: the card is mmcblk0', get(info, 'card'))
    ok(get(info, 'bus.actual_clock_hz') == 50000000 and get(info, 'bus.source') == 'debugfs',
       'info: the real debugfs ios gives the 50 MHz actual clock', get(info, 'bus'))
    ok(get(info, 'config.path') == '/boot/firmware/config.txt' and
       get(info, 'config.error') is None, 'info: config.txt is /boot/firmware/config.txt',
       get(info, 'config'))

    rec = result(out, 'recommend') or {}
    recs = rec.get('recommendations') or [{}]
    rid = recs[0].get('id')
    ok(str(rid).startswith('sd-overclock-') and recs[0].get('expected_clock_hz', 0) > 50000000,
       'recommend: an SD overclock first', rec)
    ok(re.search(r'^@@SDT-ID ' + re.escape(str(rid)) + '$', console, re.M) is not None,
       'the guest applies the id recommend printed first', rid)
    ok(get(rec, 'core_clock.source') == 'running-system',
       'recommend: the core clock is read from the running system (debugfs clk)',
       get(rec, 'core_clock'))

    bench = result(out, 'bench') or {}
    ok(get(bench, 'target.stand_in') is False and get(bench, 'target.device') == 'mmcblk0p2',
       'bench: measured on the card (mmcblk0p2), not a stand-in', get(bench, 'target'))
    tests = bench.get('tests') or []
    ok(len(tests) >= 6 and all((t.get('mb_s') or 0) > 0 for t in tests),
       'bench: every test has a figure', tests)

    apply = result(out, 'apply') or {}
    ok(apply.get('id') == rid and apply.get('trial', False) is TRIAL and apply.get('changed') is True,
       f'apply: {rid} applied{" as a trial" if TRIAL else ""}', apply)
    ok(not apply.get('warnings'), 'apply: no warning (the fresh benchmark is a "before")',
       apply.get('warnings'))
    status = result(out, 'status') or {}
    pending = status.get('pending_verification') or {}
    ok(pending.get('id') == rid and pending.get('trial') is TRIAL,
       'status: the change is pending verification', status)
    if TRIAL:
        ok(get(status, 'trial.id') == rid and apply.get('reboot_command') ==
           "sudo reboot '0 tryboot'", 'status: the trial waits for reboot \'0 tryboot\'', status)
        ok("reboot: Restarting system with command '0 tryboot'" in console,
           'the kernel restarted with the command 0 tryboot', console[-1500:])
    return recs[0]


def check_verify(out, console, boot_ids, rec):
    rid = rec.get('id')
    flag, flag_rc = out.get('tryboot-flag', ('', None))
    if TRIAL:
        ok(flag_rc == 0 and flag.split() == ['00', '00', '00', '01'],
           'the trial boot\'s device tree has /chosen/bootloader/tryboot = <1>', flag)
    status = result(out, 'status-before') or {}
    ok(status.get('tryboot_active') is TRIAL,
       f'status: tryboot_active is {TRIAL} in {"the trial" if TRIAL else "a normal"} boot', status)
    verify = result(out, 'verify') or {}
    ev = verify.get('evidence') or {}
    ok(verify.get('pending') is True and verify.get('id') == rid, 'verify: the change was pending',
       verify)
    ok(ev.get('boot_id_then') == boot_ids[0] and ev.get('boot_id') == boot_ids[1] and
       boot_ids[0] != boot_ids[1], 'verify: the evidence holds both boot ids',
       f'evidence {ev.get("boot_id_then")} -> {ev.get("boot_id")}, guest {boot_ids}')
    ok(ev.get('tryboot_active') is TRIAL,
       f'verify: {"sees the trial boot" if TRIAL else "sees a normal boot"}', ev)
    ok(get(ev, 'clock.observed_hz') == 50000000 and
       get(ev, 'clock.expected_hz') == rec.get('expected_clock_hz'),
       'verify: the real ios says 50 MHz where the overclock was expected', ev.get('clock'))
    reason = verify.get('reason') or ''
    ok(verify.get('decision') == 'undo' and 'boot id' not in reason and
       re.search(r'the SD clock is 50(\.0)? MHz, not the expected \d+(\.\d+)? MHz', reason), 'verify: undo, because the clock stayed at 50 MHz', verify)
    ok(get(verify, 'action.what') == 'reverted' and
       get(verify, 'action.trial_cancelled') is TRIAL, 'verify: the change was reverted',
       verify.get('action'))
    status = result(out, 'status') or {}
    ok(status.get('pending_verification') is None and status.get('trial') is None and
       status.get('applied') is False and get(status, 'last_verification.decision') == 'undo',
       'status: nothing pending, the last verification is the undo', status)


def check_health_check_history(out):
    health = result(out, 'health') or {}
    up = get(health, 'since_boot.uptime_seconds') or 0
    ok(up > 0 and isinstance(get(health, 'since_boot.written_bytes'), int),
       'health: the uptime and the writes since boot', health.get('since_boot'))
    ok(up < 3600 and health.get('writes_per_day_bytes') is None,
       'health: no writes per day in the first hour after boot', health)
    rules = [f.get('rule') for f in get(health, 'registers.findings') or []]
    ok('date-future' not in rules, 'health: the card is not "made in the future" of a 1970 clock',
       get(health, 'registers'))
    if TRIAL:
        # the same health with the kernel's boot time 2 h back (a time namespace, arm64)
        health = result(out, 'health-2h') or {}
        up = get(health, 'since_boot.uptime_seconds') or 0
        written = get(health, 'since_boot.written_bytes') or 0
        per_day = health.get('writes_per_day_bytes')
        ok(up >= 7200 and written > 0 and isinstance(per_day, (int, float)) and
           abs(per_day - written / (up / 86400)) <= 1e-6 * per_day,
           'health, 2 h after boot: writes per day from the real uptime and block stat', health)
    hist = result(out, 'history') or {}
    kinds = sorted({e.get('kind') for e in hist.get('entries') or []})
    if CHECK:
        check = result(out, 'check') or {}
        ok(check.get('verdict') == 'genuine' and get(check, 'target.stand_in') is False,
           'check: the emulated card is genuine', check)
        ok(all(k in kinds for k in ('apply', 'bench', 'check', 'verify')),
           'history: the bench, apply, verify and check entries', kinds)
    else:
        ok('check' not in out and 'check' not in kinds and
           all(k in kinds for k in ('apply', 'bench', 'verify')),
           'history: the bench, apply and verify entries (no check asked for on this case)', kinds)
    ok(not hist.get('warnings'), 'history: no damaged entry', hist.get('warnings'))


def check_time64(out):
    """32-bit Raspberry Pi OS: the binary uses 64-bit time_t (glibc's time64 calls), so a
    file time past 2038 does not make its stat() fail with EOVERFLOW"""
    syms = out.get('time64-syms', ('', None))[0].split()
    ok('__lstat64_time64' in syms,
       'sdtunerctl calls glibc\'s 64-bit time_t entry points (__lstat64_time64)', syms)
    if SUITE == 'bookworm':
        return
    # busybox's stat prints %Y through a 32-bit long on armhf: 4102444800 - 2**32
    mtime = out.get('mtime-2100', ('', None))
    ok(mtime[1] == 0 and re.fullmatch(r'-?\d+', mtime[0].strip()) is not None and
       int(mtime[0]) % 2**32 == 4102444800 % 2**32,
       'config.txt\'s mtime is 2100-01-01 (4102444800) on the card', mtime)
    info = result(out, 'info-2100') or {}
    ok(get(info, 'config.path') == '/boot/firmware/config.txt' and
       get(info, 'config.error') is None,
       'info: finds config.txt whose mtime is past 2038 (64-bit time_t stat)', info.get('config'))


def lines(out, name):
    return sorted(x for x in out.get(name, ('', 0))[0].split('\n') if x)


def check_nothing_left(before, after, final_name):
    """files on the card's root and FAT: only SD Tuner's state folder may have grown"""
    new = sorted(set(lines(after, 'files-' + final_name)) - set(lines(before, 'files-before')))
    gone = sorted(set(lines(before, 'files-before')) - set(lines(after, 'files-' + final_name)))
    stray = [f for f in new if not f.startswith('/var/lib/sd-tuner/') or
             re.search(r'(pending\.json|trial-journal\.json|\.tmp|~)$|/\.sdt|sdt-test', f)]
    ok(not stray and not gone, 'nothing left behind on the card\'s root (only history and lock)',
       f'new {new}\ngone {gone}')
    ok(lines(after, 'fat-' + final_name) == lines(before, 'fat-before'),
       'nothing left behind on /boot/firmware (no tryboot.txt, no temporary file)',
       lines(after, 'fat-' + final_name))
    card = os.path.join(WORK, 'card.img')
    got = os.path.join(WORK, 'config-after.txt')
    env = dict(os.environ, MTOOLS_SKIP_CHECK='1')
    r = subprocess.run(['mcopy', '-n', '-o', '-i', card + FAT, '::/config.txt', got], env=env,
                       capture_output=True, text=True)
    with open(STOCK, 'rb') as a:
        stock = a.read()
    after_bytes = open(got, 'rb').read() if r.returncode == 0 else b''
    ok(after_bytes == stock, 'config.txt on the card is byte-identical to the stock file',
       r.stderr + after_bytes.decode(errors='replace'))


def main():
    t0 = time.monotonic()
    os.makedirs(WORK, exist_ok=True)
    r = step('prepare', SRC, WORK)
    ok(r.returncode == 0, f'the {ARCH} kernel, busybox and sdtunerctl are ready', r.stderr[-3000:])
    if r.returncode != 0:
        return
    r = step('card', WORK, STOCK, SD_SIZE)
    ok(r.returncode == 0, f'a {SD_SIZE} card with Raspberry Pi OS storage', r.stderr[-2000:])
    if r.returncode != 0:
        return
    b1, c1 = boot('boot1', BOOT1)
    rec = check_boot1(b1, c1)
    trial_boot = TRIAL and "with command '0 tryboot'" in c1
    b2, c2 = boot('boot2', BOOT2, 'tryboot' if trial_boot else '')
    ids = [b1.get('bootid', ('', 0))[0].strip(), b2.get('bootid', ('', 0))[0].strip()]
    check_verify(b2, c2, ids, rec)
    check_health_check_history(b2)
    if ARCH == 'armhf':
        check_time64(b2)
    last, name = b2, 'after'
    if TRIAL:
        b3, c3 = boot('boot3', BOOT3)
        st = result(b3, 'status') or {}
        ok(st.get('tryboot_active') is False and st.get('pending_verification') is None and
           st.get('trial') is None, 'boot 3 (normal config.txt): no trial, nothing pending', st)
        v = result(b3, 'verify') or {}
        ok(v.get('pending') is False and v.get('decision') is None,
           'boot 3: verify has nothing to decide', v)
        last, name = b3, 'final'
    check_nothing_left(b1, last, name)
    timings['total'] = time.monotonic() - t0
    for k, v in timings.items():
        print(f'# time {CASE} {k}: {v:.1f} s', flush=True)


main()
sys.exit(finish())
