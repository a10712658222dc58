#!/usr/bin/python3
# meson-test: gui-loop suite=gui timeout=240 parallel=false run=system needs=gtk,polkit
#    env=gui args={builddir} depends=sd_tuner,sd_tuner_helper,sdtunerctl
"""test-gui-loop.py BUILDDIR - the closed loop in the window (issue 10), over AT-SPI.

As test-gui-flow.py: the app runs as user nobody on a private system bus with the BUILT
sd-tuner-helper on the simulated Raspberry Pi 3 (data/sim), the real polkitd and the test
agent. The restart and the verification are simulated in the helper's root: a new boot id,
the tryboot flag and the 100 MHz clock, then `sdtunerctl --root ROOT verify --evidence FILE`
(the verify unit's entry point, with fixed benchmark and soak evidence). Steps:
  800x480:   on the Tuning page, Apply and Apply Without Trial are on screen without
             scrolling (the app's layout report; the same in Japanese in test-gui-i18n.py).
  trial:     Apply is a one-boot trial by default: tryboot.txt gets SD Tuner's block,
             config.txt stays byte-identical; the page says the trial is ready (pending).
  verifying: after the simulated restart into the trial, the page says SD Tuner is checking it.
  decided:   after the verification kept it, the page says so with the reason, and
             config.txt now has the block; History lists the decision and charts the
             verification's before and after, each with its spread (the chart's description).
  next start: the window shows the outcome once; OK remembers it for this user (in the
             user's config dir), and the start after that shows nothing.
  undo:      Revert, a second trial that brings no real gain: the page says it was undone
             with the reason, config.txt is as before, and the next start says so.
Screenshots go to $SDTUNER_SCREENSHOT_DIR as loop-*.png.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sdtgui  # noqa: E402
from sdtgui import check, log  # noqa: E402

BOOT = ['0b6f8a52-2a4e-4a55-9a43-6a5f0d3b1c11', '5d0e7c1a-9f3b-4c2d-8e1f-2b3c4d5e6f70',
        '9a1c3e5f-7b2d-4f60-8a1b-3c5d7e9f0a12']
CLEAN_LOG = ['6,0,0,-;Booting Linux on physical CPU 0x0000000000 [0x410fd034]',
             '6,3,1500000,-;mmc0: sdhost-bcm2835 loaded - DMA enabled (>1)',
             '6,4,1512345,-;mmc0: overclocking to 100000000Hz',
             '6,6,1537035,-;mmc0: new high speed SDHC card at address 0001',
             '6,7,1549380,-;mmcblk0: mmc0:0001 SU08G 7.40 GiB ']


def fig(median, spread, unit='MB/s'):
    return {'median': median, 'spread': spread, 'unit': unit}


FASTER = {'soak': {'bytes_written': 67108864, 'bytes_checked': 67108864, 'mismatches': 0,
                   'first_bad_offset': None},
          'before': {'seq-write': fig(18.0, 0.4), 'seq-read': fig(22.0, 0.3),
                     'rand-4k-read-qd32': fig(2000, 40, 'IOPS')},
          'after': {'seq-write': fig(21.5, 0.5), 'seq-read': fig(41.0, 0.6),
                    'rand-4k-read-qd32': fig(2400, 50, 'IOPS')}}


NO_GAIN = {'soak': FASTER['soak'],
           'before': {'seq-write': fig(18.0, 1.0), 'seq-read': fig(22.0, 2.0)},
           'after': {'seq-write': fig(19.5, 1.0), 'seq-read': fig(23.0, 2.0)}}


def read(path, mode='r'):
    with open(path, mode) as f:
        return f.read()


def write(path, data, mode='w'):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(data)


class Board:
    """the helper's root: boot id, clock, kernel log, tryboot flag, and the verify unit"""

    def __init__(self, env, builddir):
        self.root = env.root
        self.fw = os.path.join(self.root, 'boot', 'firmware')
        self.config = os.path.join(self.fw, 'config.txt')
        self.tryboot = os.path.join(self.fw, 'tryboot.txt')
        self.sdtunerctl = os.path.join(builddir, 'src', 'cli', 'sdtunerctl')

    def boot(self, i, clock_hz, tryboot):
        write(os.path.join(self.root, 'proc', 'sys', 'kernel', 'random', 'boot_id'), BOOT[i] + '\n')
        ios = os.path.join(self.root, 'sys', 'kernel', 'debug', 'mmc0', 'ios')
        lines = [f'actual clock:\t{clock_hz} Hz' if line.startswith('actual clock:') else line
                 for line in read(ios).splitlines()]
        write(ios, '\n'.join(lines) + '\n')
        if i > 0:
            write(os.path.join(self.root, 'dev', 'kmsg'), '\n'.join(CLEAN_LOG) + '\n')
        flag = os.path.join(self.root, 'proc', 'device-tree', 'chosen', 'bootloader', 'tryboot')
        if tryboot:
            write(flag, b'\0\0\0\1', 'wb')
        elif os.path.exists(flag):
            os.unlink(flag)

    def verify(self, evidence):
        path = os.path.join(os.path.dirname(self.root), 'evidence.json')
        write(path, json.dumps(evidence))
        cmd = [shutil.which('umockdev-run') or '/usr/bin/umockdev-run', '-d',
               os.path.abspath(sdtgui.SIM_UMOCKDEV), '--', self.sdtunerctl, '--root', self.root,
               '--json', 'verify', '--evidence', path]
        env = dict(os.environ, LANGUAGE='C', LC_ALL='C.UTF-8')
        env.pop('SDTUNER_ROOT', None)
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
        log('verify:', p.returncode, p.stdout[:400], p.stderr[:400])
        return json.loads(p.stdout) if p.stdout.strip() else None


def session(app, shots, env, home_config=None):
    s = sdtgui.Session(app, out_dir=shots)
    s.__enter__()
    if home_config is not None:
        # the same user as before: their config dir from the last session
        dest = os.path.join(s.home, '.config')
        shutil.copytree(home_config, dest)
        for d, _, files in os.walk(dest):
            shutil.chown(d, 'nobody', 'nogroup')
            for f in files:
                shutil.chown(os.path.join(d, f), 'nobody', 'nogroup')
    s.env['SDTUNER_LAYOUT_REPORT'] = os.path.join(s.home, 'layout.json')
    s.start_app(env.address, prefix=env.agent_cmd('allow', []))
    return s


def the_loop(env, app, shots, board, before):
    board.boot(0, 50000000, False)
    s = session(app, shots, env)
    try:
        s.steps('wait-text', r'^Simulated Raspberry Pi 3 Model B',
                'page', 'Tuning', 'wait-text', r'^Run the SD card at 100 MHz')
        s.resize(800, 480)
        s.steps('in-view', r'^Apply$', 'in-view', r'^Apply Without Trial$')
        s.screenshot('loop-tuning-800x480')
        s.resize(1280, 800)

        # Apply: a trial by default
        s.steps('click', 'Apply', 'wait-text', r'^Prepared a trial in /boot/firmware/tryboot\.txt\.',
                'wait-text', r'^The trial of sd-overclock-100 is ready\. Press Reboot Now',
                'insensitive', 'Apply', 'absent', 'Apply Without Trial', 'names')
        check(read(board.config) == before, 'the trial leaves config.txt byte-identical')
        check(os.path.exists(board.tryboot) and 'dtparam=sd_overclock=100' in read(board.tryboot),
              'the trial is in tryboot.txt')
        s.resize(800, 480)
        s.steps('in-view', r'^Reboot Now$')
        s.screenshot('loop-pending-800x480')
        s.resize(1280, 800)

        # the simulated restart into the trial: verification not decided yet
        board.boot(1, 100000000, True)
        s.steps('click', 'Refresh',
                'wait-text', r'^SD Tuner is checking sd-overclock-100 since this start')
        s.screenshot('loop-verifying-1280x800', 1280, 800)

        res = board.verify(FASTER)
        check(res is not None and res.get('decision') == 'keep', 'the verification kept it')
        s.steps('click', 'Refresh',
                'wait-text', r'^SD Tuner kept sd-overclock-100 after checking it\. .+',
                'no-text', r'^SD Tuner is checking',
                'wait-text', r'^SD Tuner.s setting sd-overclock-100 is in config\.txt')
        check('dtparam=sd_overclock=100' in read(board.config), 'config.txt has the kept block')
        s.screenshot('loop-decided-1280x800', 1280, 800)

        # History: the verification's before and after, each with its spread
        s.steps('page', 'History',
                'wait-text', r'^Before and after SD Tuner.s last change, as its check',
                'wait-text', r'  SD Tuner kept sd-overclock-100 after checking it\.',
                'description', 'Before and after chart',
                r'Sequential read: Before the change 22\.0 ± 0\.3 MB/s, After the change '
                r'41\.0 ± 0\.6 MB/s\. .*Random 4K read, 32 queued: Before the change 2000 ± 40 '
                r'IOPS, After the change 2400 ± 50 IOPS\.')
        s.screenshot('loop-history-1280x800', 1280, 800)
        s.screenshot('loop-history-800x480', 800, 480)
    finally:
        s.close()


def next_start(env, app, shots):
    s = session(app, shots, env)
    try:
        s.steps('wait-text', r'^After the restart on .+: SD Tuner kept sd-overclock-100 after '
                r'checking it\. ', 'names')
        s.screenshot('loop-message-1280x800', 1280, 800)
        s.screenshot('loop-message-800x480', 800, 480)
        s.steps('click', 'OK', 'no-text', r'^After the restart on ')
        seen = os.path.join(s.home, '.config', 'sd-tuner', 'seen-verification')
        check(os.path.exists(seen) and 'T' in read(seen), 'OK remembered the outcome as seen')
        config = tempfile.mkdtemp(prefix='sdt-gui-config-')
        shutil.rmtree(config)
        shutil.copytree(os.path.join(s.home, '.config'), config)
    finally:
        s.close()
    return config


def seen_then_undo(env, app, shots, board, config, stock):
    """the same user's next start shows nothing; then a second trial that brings no real
    gain is undone, and the start after that names the undo and its reason"""
    s = session(app, shots, env, home_config=config)
    try:
        s.steps('wait-text', r'^Simulated Raspberry Pi 3 Model B', 'page', 'Tuning',
                'wait-text', r'^SD Tuner kept sd-overclock-100 after checking it\.',
                'no-text', r'^After the restart on ',
                'click', 'Revert', 'wait-text', r'^Reverted: ')
        check(read(board.config) == stock, 'Revert: config.txt as before SD Tuner')
        board.boot(1, 50000000, False)   # restarted with the old setting
        s.steps('click', 'Refresh', 'click', 'Apply',
                'wait-text', r'^The trial of sd-overclock-100 is ready\.')
        board.boot(2, 100000000, True)
        res = board.verify(NO_GAIN)
        check(res is not None and res.get('decision') == 'undo', 'no real gain: undone')
        s.steps('click', 'Refresh',
                'wait-text', r'^SD Tuner undid sd-overclock-100 after checking it\. .+')
        check(read(board.config) == stock and not os.path.exists(board.tryboot),
              'the undo leaves config.txt as before and no tryboot.txt')
        s.screenshot('loop-undone-1280x800', 1280, 800)
    finally:
        s.close()
    s = session(app, shots, env, home_config=config)
    try:
        s.steps('wait-text', r'^After the restart on .+: SD Tuner undid sd-overclock-100 after '
                r'checking it\. ', 'names')
        check(s.app_running(), 'the app runs on')
    finally:
        s.close()


def main():
    builddir = sys.argv[1]
    os.environ.setdefault('SDTUNER_BUILDDIR', builddir)
    app = os.path.join(builddir, 'src', 'app', 'sd-tuner')
    shots = os.environ.get('SDTUNER_SCREENSHOT_DIR') or tempfile.mkdtemp(prefix='sdt-shots-')
    with sdtgui.sim_env() as env:
        board = Board(env, builddir)
        stock = read(board.config)
        the_loop(env, app, shots, board, stock)
        config = next_start(env, app, shots)
        try:
            seen_then_undo(env, app, shots, board, config, stock)
        finally:
            shutil.rmtree(config, ignore_errors=True)
    print(f'PASS (screenshots in {shots})')


if __name__ == '__main__':
    sdtgui.main_wrapper(main)
