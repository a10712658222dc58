#!/usr/bin/python3
# meson-test: gui-flow suite=gui timeout=480 parallel=false run=system needs=gtk,polkit
#    env=gui args={builddir} depends=sd_tuner,sd_tuner_helper
"""test-gui-flow.py BUILDDIR - the whole window against the real helper, over AT-SPI.

The app runs as user nobody on a private system bus with the BUILT sd-tuner-helper,
D-Bus-activated under umockdev-run on the simulated Raspberry Pi 3 that tools/run.sh shows
(data/sim: sdtgui.sim_env() over tests/integration/sdtharness.py), and the real polkitd,
answered by the test polkit agent. Steps:
  deny agent:  the overview shows the simulated Pi 3 and its card; Tuning -> Apply is
               refused: the info bar says permission was not given, and config.txt is
               byte-identical.
  allow agent: Speed -> Benchmark runs and a result value is shown, with suspend and
               logout inhibited meanwhile (a stand-in org.gnome.SessionManager records it); Tuning ->
               Apply Without Trial (Apply itself is a trial: test-gui-loop.py)
               writes SD Tuner's block into the fixture's config.txt; Reboot now says the
               board is simulated (and restarts nothing); a second benchmark, and
               History lists both as benchmarks of a stand-in folder (the simulated
               board's test file is on this machine, not on an SD card) and compares
               neither; Revert makes config.txt byte-identical to before.
               The Speed page marks the result as a stand-in, with no A1/A2 marks, shows
               each figure's spread and no kernel jargon ("raw-read skipped: ...").
  helper dies: the helper is killed in the middle of a benchmark; the window says the
               service stopped, and the app keeps running.
  no card:     a Pi 4 with an empty SD slot (tests/data pi4-no-card): the overview says so,
               Tuning has nothing to change, Benchmark (pressed from the keyboard: Alt+2,
               Alt+B) says what to do.
Screenshots at 1280x800 and 800x480 go to $SDTUNER_SCREENSHOT_DIR.
"""
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sdtgui  # noqa: E402
from sdtgui import check, log  # noqa: E402

def config_path(env):
    return os.path.join(env.root, 'boot', 'firmware', 'config.txt')


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def shots_both(s, name):
    s.screenshot(f'{name}-1280x800', 1280, 800)
    s.screenshot(f'{name}-800x480', 800, 480)
    s.screenshot(f'{name}-1280x800', 1280, 800)   # back to the large size for the next steps


def denied(env, app, shots):
    before = read(config_path(env))
    with sdtgui.Session(app, out_dir=shots) as s:
        s.start_app(env.address, prefix=env.agent_cmd('deny', []))
        s.steps('wait-text', r'^Raspberry Pi 3 Model B',
                'wait-text', r'^Simulated Raspberry Pi 3 Model B',
                'wait-text', r'MB/s\. No card can go faster',
                'names')
        s.steps('page', 'Tuning', 'wait-text', r'.', 'names', 'click', 'Apply',
                'wait-text', r'^The setting was not applied\. Permission was not given\.')
        check(s.app_running(), 'the app runs on after the denial')
        s.screenshot('denied-1280x800', 1280, 800)
    check(read(config_path(env)) == before, 'a denied Apply leaves config.txt byte-identical')


def allowed(env, app, shots):
    before = read(config_path(env))
    with sdtgui.Session(app, out_dir=shots) as s:
        sm_log = s.start_session_manager()
        s.start_app(env.address, prefix=env.agent_cmd('allow', []))
        s.steps('wait-text', r'^Simulated Raspberry Pi 3 Model B',
                'wait-text', r'MB/s\. No card can go faster')
        shots_both(s, 'overview')

        s.steps('page', 'Speed', 'names', 'click', 'Benchmark',
                'wait-text-long', r'^Stand-in: the test file was in /.* not on the SD card\. '
                r'These figures are that device.s, so there is no A1 or A2 verdict on the card\.',
                'no-text', r'^This card (reaches|does not reach)',
                'value', 'Sequential read, MB/s', r'^\d+\.\d$',
                'value', 'Random 4K read, one at a time, IOPS', r'^\d+$',
                'value', 'Sequential write, A1 target', r'^\u2014$',
                'value', 'Random 4K read, 32 queued, A2 target', r'^\u2014$',
                # issue 10: the spread next to each figure, the engine's notes in plain words
                'value', 'Sequential read, spread', r'^±\d+\.\d %$',
                'no-text', r'raw-read skipped|No device node',
                'names')
        shots_both(s, 'benchmark')
        with open(sm_log) as f:
            calls = f.read().splitlines()
        log('session manager calls:', calls)
        # GTK_APPLICATION_INHIBIT_LOGOUT | GTK_APPLICATION_INHIBIT_SUSPEND = 1 | 4
        check(calls[1:] == ['inhibit 5 The SD card benchmark is running', 'uninhibit 1'],
              'suspend and logout were inhibited during the benchmark, and released')

        s.steps('page', 'Tuning', 'wait-text', r'^Run the SD card at 100 MHz')
        shots_both(s, 'tuning')
        s.steps('click', 'Apply Without Trial', 'wait-text', r'^Applied to ')
        after = read(config_path(env))
        check(after != before, 'Apply changed config.txt')
        check(b'sd_overclock' in after, 'the block in config.txt sets sd_overclock')
        check(after.startswith(before.rstrip(b'\n')), 'everything before the block is kept')
        s.steps('insensitive', 'Apply', 'absent', 'Apply Without Trial',
                'wait-text', r'^sd-overclock-100 is in config\.txt\. Press Reboot Now',
                'click', 'Reboot Now',
                'wait-text', r'^This is a simulated Raspberry Pi 3 Model B Rev 1\.2, so SD Tuner '
                r'does not restart this computer', 'names')
        shots_both(s, 'applied')

        # "after the reboot": benchmark again; both runs were on a stand-in folder, so
        # History lists them, marked, and compares neither
        s.steps('page', 'Speed', 'click', 'Benchmark',
                'wait-text-long', r'^Stand-in: the test file was in ',
                'page', 'History',
                'wait-text', r'^Benchmarks of a stand-in folder are listed below but not compared',
                'no-text', r'^The last benchmark before SD Tuner',
                'wait-text', r'Benchmark of a stand-in folder, not the SD card \(/',
                'wait-text', r'Applied sd-overclock-100', 'names')
        shots_both(s, 'history')

        s.steps('page', 'Tuning', 'click', 'Revert', 'wait-text', r'^Reverted: ')
        check(read(config_path(env)) == before, 'Revert leaves config.txt byte-identical')
        s.steps('page', 'History', 'wait-text', r"Reverted SD Tuner's change")
        check(s.app_running(), 'the app is still running')


def damaged_block(env, app, shots):
    """issue 9 item 7: a block whose end marker was deleted by hand; the Tuning page shows
    the one diagnosis status, apply and revert give, and offers no Revert"""
    path = config_path(env)
    before = read(path)
    block = (b'# --- SD Tuner begin: sd-overclock-100 (undo: sdtunerctl revert) ---\n'
             b'[all]\n[board-type=0x08]\ndtoverlay=\ndtparam=sd_overclock=100\n[all]\n')
    with open(path, 'wb') as f:
        f.write(before + block)
    try:
        with sdtgui.Session(app, out_dir=shots) as s:
            s.start_app(env.address, prefix=env.agent_cmd('allow', []))
            s.steps('wait-text', r'^Simulated Raspberry Pi 3 Model B',
                    'page', 'Tuning',
                    'wait-text', r"^SD Tuner's block in /boot/firmware/config\.txt is damaged: the "
                    r'end marker .* is missing, .* Put that line back right after the block',
                    'names')
            check(s.app_running(), 'the app shows the damaged block')
    finally:
        with open(path, 'wb') as f:
            f.write(before)


def helper_dies(env, app, shots):
    with sdtgui.Session(app, out_dir=shots) as s:
        s.start_app(env.address, prefix=env.agent_cmd('allow', []))
        s.steps('wait-text', r'^Simulated Raspberry Pi 3 Model B',
                'page', 'Speed', 'click', 'Benchmark',
                'progress', 'Benchmark progress')
        pid = env.kill_helper()
        log('killed the helper, pid', pid)
        s.steps('wait-text', r'^The benchmark did not finish\. The SD Tuner system service '
                r'stopped unexpectedly\.')
        check(s.app_running(), 'the app survives the helper')
        s.steps('click', 'Retry', 'wait-text', r'^Simulated Raspberry Pi 3 Model B')


def no_card(app, shots):
    """the pi4-no-card fixture: a Pi 4 booted from USB with its SD slot empty"""
    sys.path.insert(0, os.path.join(HERE, '..', 'integration'))
    from sdtharness import TestEnv
    with TestEnv(fixture='pi4-no-card', bench_dir=False) as env, \
            sdtgui.Session(app, out_dir=shots) as s:
        s.start_app(env.address, prefix=env.agent_cmd('allow', []))
        s.steps('wait-text', r'^Raspberry Pi 4 Model B',
                'wait-text', r'^Simulated Raspberry Pi 4 Model B Rev 1\.5: this computer is not',
                'wait-text', r'^No SD card found\. Insert the card, then press Refresh\.',
                'page', 'Tuning', 'wait-text', r'^Nothing to change on this board',
                'insensitive', 'Apply')
        # from the keyboard alone: Alt+2 shows the Speed page, Alt+B presses Benchmark
        s.keys('alt+2', 'alt+b')
        s.steps('wait-text', r'^The benchmark did not finish\. No SD card was found\. Insert '
                r'the card the system runs from, then press Retry\.')
        check(s.app_running(), 'the app runs on without a card')
        s.screenshot('no-card-800x480', 800, 480)


def main():
    builddir = sys.argv[1]
    os.environ.setdefault('SDTUNER_BUILDDIR', builddir)
    app = os.path.join(builddir, 'src', 'app', 'sd-tuner')
    shots = os.environ.get('SDTUNER_SCREENSHOT_DIR') or tempfile.mkdtemp(prefix='sdt-shots-')
    with sdtgui.sim_env() as env:
        denied(env, app, shots)
        allowed(env, app, shots)
        damaged_block(env, app, shots)
        helper_dies(env, app, shots)
    no_card(app, shots)
    print(f'PASS (screenshots in {shots})')


if __name__ == '__main__':
    sdtgui.main_wrapper(main)
