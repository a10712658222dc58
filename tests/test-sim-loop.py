#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: sim-loop suite=integration timeout=900 parallel=false protocol=tap run=system
#    needs=polkit env=sim-loop args=@sdtunerctl@ depends=sd_tuner_helper,polkit_policy
"""The closed loop on the simulated Raspberry Pi 3 as a newcomer sees it (tools/sdtsim.py, what
tools/run.sh runs off a Pi): the board's card is a loop device with ext4 throttled with the
cgroup block-I/O controller to what its SD bus allows (22 MB/s at 50 MHz); the BUILT helper runs
on a private system bus with the real polkitd, D-Bus-activated under umockdev-run inside the
card's cgroup.  Benchmark and apply go through the helper (sdtunerctl in bus mode); the
simulated reboot gives a new boot id, the clock config.txt asks for and a matching throttle;
the verification is what sd-tuner-verify.service runs (`sdtunerctl --root R verify`).

  1. a good card: 50 MHz ~22 MB/s, apply sd-overclock-100, reboot (100 MHz, ~40 MB/s),
     verify: keep, every compared figure better by more than the two spreads together;
  2. a card that errs above 80 MHz: at 100 the kernel logs mmc errors and steps down; verify
     steps down to sd-overclock-80; reboot; verify: keep 80 (faster than at 50);
  3. a card that errs above 50 MHz: step down to 80, then 66, then undo: config.txt restored
     to its exact bytes;
  4. the fallback without a card (SimCard(enabled=False), as where no throttle exists): the
     benchmark is a stand-in on this machine's disk, verify undoes for want of a card
     benchmark from before.
Each step asserts the decision, the history entry and the config.txt bytes; none asserts
an exact MB/s (2 busy cores).

usage: test-sim-loop.py SDTUNERCTL   (run by meson as root; prints TAP)"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

CTL = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'tools'))
import sdtsim  # noqa: E402
import sdttap  # noqa: E402
from sdttap import ok  # noqa: E402

sdttap.detail_lines = -40


def note(*a):
    print('#', *a, flush=True)


def read(path):
    with open(path) as f:
        return f.read()


def oc(mhz):
    return (f'# --- SD Tuner begin: sd-overclock-{mhz} (undo: sdtunerctl revert) ---\n'
            f'[all]\n[board-type=0x08]\ndtoverlay=\ndtparam=sd_overclock={mhz}\n[all]\n'
            '# --- SD Tuner end ---\n')


ORIGINAL = read(os.path.join(sdtsim.SIM_ROOT, 'boot', 'firmware', 'config.txt'))


class Loop:
    """one scenario: a fresh card, board and private bus"""

    def __init__(self, tmp, card, errors_above_mhz=None):
        self.board = sdtsim.SimBoard(tmp, card, errors_above_mhz=errors_above_mhz, log=note)
        try:
            self.env = sdtsim.helper_env(self.board, idle_timeout=60)
            self.env.__enter__()  # stops what it started when it fails
        except BaseException:
            self.board.close()
            raise

    def close(self):
        self.env.stop()
        self.board.close()

    def environ(self):
        env = dict(self.env.environ, LANGUAGE='C', LC_ALL='C.UTF-8')
        env.pop('SDTUNER_ROOT', None)
        return env

    def bus(self, *args, timeout=600):
        """sdtunerctl through the helper on the private bus"""
        p = subprocess.run([CTL, '--json'] + list(args), capture_output=True, text=True,
                           env=self.environ(), timeout=timeout)
        try:
            return p, json.loads(p.stdout)
        except ValueError:
            return p, None

    def reboot(self):
        self.env.stop_helper()
        return self.board.reboot()

    def verify(self):
        """the unit's entry point, in-process under the root prefix"""
        p = subprocess.run(self.board.ctl_argv(CTL, '--json', 'verify', '--soak-seconds', '0'),
                           capture_output=True, text=True, env=self.environ(), timeout=900)
        try:
            return p, json.loads(p.stdout)
        except ValueError:
            return p, None

    def config(self):
        return read(self.board.config)

    def pending(self):
        path = os.path.join(self.board.state, 'pending.json')
        return json.loads(read(path)) if os.path.exists(path) else None

    def history(self, kind):
        p, h = self.bus('history')
        return [e for e in (h or {}).get('entries', []) if e.get('kind') == kind]

    def before(self, label):
        p, res = self.bus('bench', '--profile', 'quick')
        figs = {t['name']: t for t in (res or {}).get('tests', [])}
        note(f'{label}: before (quick) ' + ', '.join(
            f'{k} {v.get("mb_s")} MB/s {v.get("iops")} IOPS ±{v.get("ci_percent")}%'
            for k, v in figs.items()))
        ok(p.returncode == 0 and res['target']['stand_in'] is False
           and res['target']['device'] == 'mmcblk0p2' and 'seq-write' in figs,
           f'{label}: the benchmark through the helper ran on the simulated card itself',
           p.stdout + p.stderr)
        return figs

    def apply(self, label, mhz):
        p, res = self.bus('apply', f'sd-overclock-{mhz}')
        ok(p.returncode == 0 and res is not None and res['changed'] and self.pending() is not None
           and self.config() == ORIGINAL + oc(mhz),
           f'{label}: apply sd-overclock-{mhz} through the helper: the block, a pending change',
           p.stdout + p.stderr)


def gains_beyond_spread(res):
    """the bus-bound figures (sequential) better by more than the two spreads together, and
    none worse by more than that (the random ones are the card's IOPS limit, scaled too)"""
    figs = res['evidence']['figures'] if res else []
    for f in figs:
        note(f'  {f["name"]}: {f["before"]:.4g} ±{f["before_spread"]:.2g} -> '
             f'{f["after"]:.4g} ±{f["after_spread"]:.2g} {f["unit"]}')
    margin = {f['name']: (f['after'] - f['before'], f['before_spread'] + f['after_spread'])
              for f in figs}
    return (len(figs) >= 4 and all(margin[t][0] > margin[t][1] for t in ('seq-read', 'seq-write')
                                   if t in margin) and 'seq-write' in margin
            and not any(d < -m for d, m in margin.values()))


def good_card(tmp, card):
    label = 'good card'
    s = Loop(tmp, card)
    try:
        ok(s.board.clock_hz == 50000000 and card.speed == sdtsim.bus_speed(50e6),
           f'{label}: boots at 50 MHz, throttled to {card.speed[0] / 1e6:.0f} MB/s')
        figs = s.before(label)
        pid = s.env.helper_pid()
        cg = read(f'/proc/{pid}/cgroup') if pid else ''
        ok(pid is not None and os.path.basename(card.cgroup) in cg,
           f'{label}: the helper (pid {pid}) runs in the card\'s cgroup, where the throttle is',
           cg)
        sw = figs.get('seq-write', {}).get('mb_s') or 0
        ok(10 < sw < 30, f'{label}: before, seq-write {sw} MB/s: the simulated bus, not this '
           'machine\'s disk', json.dumps(figs))
        s.apply(label, 100)
        clock = s.reboot()
        ok(clock == 100000000 and card.speed == sdtsim.bus_speed(100e6),
           f'{label}: the reboot reads sd_overclock=100 from config.txt: 100 MHz, '
           f'{card.speed[0] / 1e6:.0f} MB/s')
        p, res = s.verify()
        ok(p.returncode == 0 and res is not None and res['decision'] == 'keep'
           and res['evidence']['soak']['mismatches'] == 0,
           f'{label}: verify keeps sd-overclock-100', p.stdout + p.stderr)
        ok(gains_beyond_spread(res), f'{label}: after > before beyond the spreads (sequential), '
           'nothing worse beyond them',
           json.dumps(res and res['evidence']['figures']))
        hist = s.history('verify')
        ok(len(hist) == 1 and hist[0]['decision'] == 'keep' and hist[0]['id'] == 'sd-overclock-100'
           and hist[0]['evidence']['clock']['observed_hz'] == 100000000
           and s.config() == ORIGINAL + oc(100) and s.pending() is None,
           f'{label}: history says keep at 100 MHz; config.txt keeps the block; nothing pending',
           json.dumps(hist)[:2000])
        p, st = s.bus('status')
        ok(p.returncode == 0 and st['last_verification']['decision'] == 'keep'
           and st['pending_verification'] is None,
           f'{label}: status (through the helper, after the reboot) shows the decision',
           p.stdout + p.stderr)
    finally:
        s.close()


def card_errs_above_80(tmp, card):
    label = 'card erring above 80 MHz'
    s = Loop(tmp, card, errors_above_mhz=80)
    try:
        s.before(label)
        s.apply(label, 100)
        clock = s.reboot()
        log = s.board.kernel_log()
        ok(clock == 80000000 and 'mmc0: reducing overclock due to errors' in log
           and 'timeout waiting for hardware interrupt' in log,
           f'{label}: at 100 MHz the kernel logs errors and steps down to 80 MHz', log)
        p, res = s.verify()
        ok(p.returncode == 0 and res is not None and res['decision'] == 'step-down'
           and res['next_id'] == 'sd-overclock-80' and s.config() == ORIGINAL + oc(80)
           and s.pending()['id'] == 'sd-overclock-80',
           f'{label}: verify steps down to sd-overclock-80 (config.txt has its block)',
           p.stdout + p.stderr)
        clock = s.reboot()
        ok(clock == 80000000 and 'reducing overclock' not in s.board.kernel_log(),
           f'{label}: the next boot runs cleanly at 80 MHz, {card.speed[0] / 1e6:.1f} MB/s')
        p, res = s.verify()
        ok(p.returncode == 0 and res is not None and res['decision'] == 'keep'
           and res['id'] == 'sd-overclock-80' and gains_beyond_spread(res),
           f'{label}: verify keeps sd-overclock-80, faster than at 50 MHz beyond the spreads',
           p.stdout + p.stderr)
        hist = s.history('verify')
        ok([h['decision'] for h in hist] == ['step-down', 'keep']
           and hist[0]['id'] == 'sd-overclock-100' and hist[0]['next_id'] == 'sd-overclock-80'
           and hist[1]['id'] == 'sd-overclock-80' and s.config() == ORIGINAL + oc(80)
           and s.pending() is None,
           f'{label}: history: step-down from 100, keep 80; config.txt keeps the 80 block',
           json.dumps(hist)[:2000])
    finally:
        s.close()


def card_errs_above_50(tmp, card):
    label = 'card erring above 50 MHz'
    s = Loop(tmp, card, errors_above_mhz=50)
    try:
        s.apply(label, 100)
        decisions = []
        for _ in range(3):
            s.reboot()
            p, res = s.verify()
            decisions.append((res or {}).get('decision'))
            if p.returncode != 0 or res is None or res['decision'] != 'step-down':
                break
        hist = s.history('verify')
        ok(decisions == ['step-down', 'step-down', 'undo']
           and [h['id'] for h in hist] == ['sd-overclock-100', 'sd-overclock-80',
                                           'sd-overclock-66']
           and [h['decision'] for h in hist] == decisions
           and 'lowest step' in hist[-1]['reason'],
           f'{label}: 100 -> 80 -> 66, errors at each: undo at the lowest step',
           f'{decisions} {p.stdout}{p.stderr}' + json.dumps(hist)[:2000])
        ok(s.config() == ORIGINAL and s.pending() is None,
           f'{label}: config.txt is byte for byte as before the first apply; nothing pending')
        s.reboot()
        ok(s.board.clock_hz == 50000000 and card.speed == sdtsim.bus_speed(50e6),
           f'{label}: the next boot is back at 50 MHz')
    finally:
        s.close()


def no_card(tmp):
    """the fallback where no card can be throttled: the board still restarts with the clock
    config.txt asks for, the benchmark says it is a stand-in, verify undoes for want of a card
    benchmark from before"""
    label = 'no card (fallback)'
    with sdtsim.SimCard(log=note, enabled=False) as card:
        ok(card.unavailable is not None and card.cgroup is None and card.dev is None,
           f'{label}: the card says why not: {card.unavailable}')
        s = Loop(tmp, card)
    try:
        p, res = s.bus('bench', '--profile', 'quick')
        ok(p.returncode == 0 and res['target']['stand_in'] is True,
           f'{label}: the benchmark is marked as a stand-in, not the card', p.stdout + p.stderr)
        s.apply(label, 100)
        ok(s.reboot() == 100000000, f'{label}: the reboot still follows config.txt: 100 MHz')
        p, res = s.verify()
        ok(p.returncode == 0 and res['decision'] == 'undo'
           and 'no benchmark of the SD card from before' in res['reason']
           and s.config() == ORIGINAL and s.pending() is None,
           f'{label}: verify undoes, saying why; config.txt as before', p.stdout + p.stderr)
    finally:
        s.close()


def main():
    why = sdtsim.SimCard.why_not()
    if why is not None or shutil.which('umockdev-run') is None:
        print(f'1..0 # SKIP {why or "umockdev-run is not installed"}')
        return 0
    for scenario in (good_card, card_errs_above_80, card_errs_above_50):
        tmp = tempfile.mkdtemp(prefix=f'sdt-sim-loop-{os.getpid()}-', dir='/var/tmp')
        try:
            with sdtsim.SimCard(log=note) as card:
                ok(card.unavailable is None, f'{scenario.__name__}: a throttled loop card',
                   card.unavailable)
                if card.unavailable is not None:
                    continue
                card.join()  # this process and all it starts: the bus, the helper, verify
                try:
                    scenario(tmp, card)
                finally:
                    # back out of the card's group, so that it can be removed
                    with open(os.path.join(os.path.dirname(card.cgroup), 'cgroup.procs'),
                              'w') as f:
                        f.write(f'{os.getpid()}\n')
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    tmp = tempfile.mkdtemp(prefix=f'sdt-sim-loop-{os.getpid()}-', dir='/var/tmp')
    try:
        no_card(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return sdttap.finish()


if __name__ == '__main__':
    sys.exit(main())
