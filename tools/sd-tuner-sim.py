#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
"""sd-tuner-sim.py [--loop] [--erroring-card MHZ] [--no-card] - SD Tuner on a simulated Pi 3.

For machines that are not a Raspberry Pi (tools/run.sh calls it). As root, it starts
through the integration harness (tests/integration/sdtharness.py, via tools/sdtsim.py):
  - a private system bus (the machine's own bus is not touched),
  - the real polkitd on it, in a private mount namespace,
  - the BUILT sd-tuner-helper, D-Bus-activated under umockdev-run with the bundled
    simulated Raspberry Pi 3 (data/sim/rpi3.umockdev: its card and mmc host) and a scratch
    copy of its root (data/sim/rpi3: device tree, kernel log, debugfs, config.txt);
  - the simulated card: a loop device with ext4 mounted where the board keeps its state,
    throttled (cgroup block I/O) to what its SD bus allows: about 22 MB/s at 50 MHz, 40 MB/s
    at 100 MHz.  Where that is impossible (no cgroup block-I/O throttle, no loop devices) it
    says so and the benchmark writes a file in /var/tmp on this machine, as before;
and then the app against that bus, as the user who ran sudo, on their display. Password
prompts of the simulated board are answered "yes" by a test agent: nothing on this
machine is changed.

The closed loop: after Apply, press Enter in this terminal to REBOOT the simulated board
(new boot id, the SD clock from config.txt, the throttle raised with it, a fresh kernel
log), then sd-tuner-verify's command runs (`sdtunerctl --root ROOT verify`) and prints its
decision: keep, step down or undo.  --erroring-card MHZ makes the card throw mmc errors
above MHZ (the kernel steps the clock down, verify steps down or undoes).  --loop walks the
whole loop in the terminal without a window: benchmark, apply sd-overclock-100, reboot,
verify, until nothing is pending.  --no-card: no loop-device card (the fallback).

Without a display the window opens on a virtual screen (Xvfb) and a screenshot is saved.
Everything started here is stopped, the card removed and the scratch copy deleted when the
window closes or on Ctrl-C.
"""
import argparse
import os
import pwd
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

TOP = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
sys.path.insert(0, os.path.join(TOP, 'tools'))
import sdtsim  # noqa: E402  (the simulated board and its card)


def user_env(user, env):
    """the environment for the app: the desktop session's variables, the user's HOME"""
    pw = pwd.getpwnam(user)
    keep = ('DISPLAY', 'WAYLAND_DISPLAY', 'XAUTHORITY', 'XDG_RUNTIME_DIR',
            'DBUS_SESSION_BUS_ADDRESS', 'LANG', 'LANGUAGE', 'LC_ALL', 'LC_MESSAGES', 'TERM',
            'PATH', 'SDTUNER_LOCALEDIR')
    out = {k: os.environ[k] for k in keep if k in os.environ}
    out.update(HOME=pw.pw_dir, USER=user, LOGNAME=user,
               DBUS_SYSTEM_BUS_ADDRESS=env.address)
    if user != 'root' and 'XDG_RUNTIME_DIR' not in out:
        out['XDG_RUNTIME_DIR'] = f'/run/user/{pw.pw_uid}'
    return out


def as_user(user):
    if user == 'root':
        return []
    pw = pwd.getpwnam(user)
    return ['setpriv', f'--reuid={pw.pw_uid}', f'--regid={pw.pw_gid}', '--init-groups']


def headless(env, app, screenshot):
    """no display: a virtual screen, a screenshot once the window is filled"""
    r, w = os.pipe()
    xvfb = subprocess.Popen(['Xvfb', '-displayfd', str(w), '-screen', '0', '1280x800x24',
                             '-nolisten', 'tcp', '-noreset'], pass_fds=(w,), stderr=subprocess.DEVNULL)
    os.close(w)
    with os.fdopen(r) as f:
        display = ':' + f.readline().strip()
    try:
        appenv = user_env('root', env)
        appenv.update(DISPLAY=display, GDK_BACKEND='x11', NO_AT_BRIDGE='1')
        # its own session bus (dbus-run-session), in its own process group to stop it whole
        p = subprocess.Popen(['dbus-run-session', '--', app], env=appenv,
                             start_new_session=True)
        try:
            time.sleep(4)
            xenv = dict(os.environ, DISPLAY=display)
            wid = subprocess.run(['xdotool', 'search', '--sync', '--onlyvisible', '--name', '^SD Tuner$'],
                                 env=xenv, capture_output=True, text=True,
                                 timeout=20).stdout.split()
            subprocess.run(['import', '-window', wid[0] if wid else 'root', screenshot],
                           check=True, env=xenv)
        finally:
            os.killpg(p.pid, signal.SIGTERM)
            p.wait()
    finally:
        xvfb.terminate()
        xvfb.wait()
    print(f'No display here (DISPLAY and WAYLAND_DISPLAY are not set): the window ran on a '
          f'virtual screen; this is what it showed: {screenshot}')


def say(*args):
    print(*args, flush=True)


def ctl_env(env):
    out = dict(env.environ)
    out.pop('SDTUNER_ROOT', None)
    return out


def reboot_and_verify(env, board, ctl):
    """the simulated restart, then what sd-tuner-verify.service runs after a boot"""
    say('\n== Restarting the simulated board')
    env.stop_helper()  # a real restart ends it too; the next call starts it on the new boot
    board.reboot()
    if not os.path.exists(os.path.join(board.state, 'pending.json')):
        say('No change is waiting to be verified: sd-tuner-verify.service does nothing.')
        return False
    say('== sd-tuner-verify.service: sdtunerctl --root / verify (here: --root on the simulated '
        'board, a soak test of one round instead of 2 minutes)')
    subprocess.run(board.ctl_argv(ctl, 'verify', '--soak-seconds', '0'), env=ctl_env(env))
    if os.path.exists(os.path.join(board.state, 'pending.json')):
        say('A change is still pending (a step down): restart the board again to verify it.')
    return True


def walk_loop(env, board, ctl):
    """--loop: the closed loop in the terminal, through the helper like the window"""
    steps = [('the card before the change (quick benchmark)', ['bench', '--profile', 'quick']),
             ('Apply: a 100 MHz SD clock', ['apply', 'sd-overclock-100'])]
    for what, args in steps:
        say(f'\n== {what}: sdtunerctl {" ".join(args)}')
        if subprocess.run([ctl] + args, env=ctl_env(env)).returncode != 0:
            return 1
    for _ in range(4):
        reboot_and_verify(env, board, ctl)
        if not os.path.exists(os.path.join(board.state, 'pending.json')):
            break
    say('\n== sdtunerctl status')
    subprocess.run([ctl, 'status'], env=ctl_env(env))
    say(f'\n== config.txt of the simulated board ({board.config}), its end')
    with open(board.config) as f:
        say(''.join(f.readlines()[-9:]))
    return 0


def run_window(env, board, ctl, app, user, screenshot):
    if not (os.environ.get('DISPLAY') or os.environ.get('WAYLAND_DISPLAY')):
        shot = screenshot or os.path.join(tempfile.gettempdir(), 'sd-tuner-window.png')
        headless(env, app, shot)
        return 0
    argv = as_user(user) + ['env', '-i'] + \
        [f'{k}={v}' for k, v in user_env(user, env).items()] + [app]
    if user != 'root':
        # polkitd asks the app's user for a password: the test agent says yes
        argv = env.agent_cmd('allow', argv)
    # the agent (root) must reach the private bus too; a process group of their
    # own, so that Ctrl-C stops the app as well as the agent that started it
    p = subprocess.Popen(argv, env=env.environ, start_new_session=True)
    interactive = sys.stdin.isatty()
    if interactive:
        say('After Apply in the window, press Enter here to restart the simulated board; '
            'it then verifies the change as sd-tuner-verify.service does after a boot.')
    try:
        while p.poll() is None:
            if not interactive:
                time.sleep(0.5)
                continue
            ready, _, _ = select.select([sys.stdin], [], [], 0.5)
            if ready:
                if sys.stdin.readline() == '':
                    interactive = False
                    continue
                if reboot_and_verify(env, board, ctl):
                    say('The decision is also in the history (the window\'s History page).')
                say('Press Enter to restart the simulated board again.')
        return p.returncode
    except KeyboardInterrupt:
        os.killpg(p.pid, signal.SIGTERM)
        p.wait()
        return 130


def describe_card(card):
    if card.unavailable is None:
        say(f'Its SD card: {card.dev}, a {card.size_mb} MiB loop device with ext4, throttled '
            f'(cgroup {card.kind} block I/O) to what the simulated SD bus allows.')
    else:
        say(f'No simulated card here: {card.unavailable}. The benchmark writes a file on this '
            'computer\'s disk instead, so its figures are this computer\'s, not a Pi\'s, and '
            'a verification after a simulated restart cannot show a gain (it undoes the change).')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--builddir', default=os.path.join(TOP, '_build'))
    ap.add_argument('--screenshot', default=None, help='where to save the headless screenshot')
    ap.add_argument('--loop', action='store_true',
                    help='walk the closed loop in the terminal (no window)')
    ap.add_argument('--erroring-card', type=int, metavar='MHZ', default=None,
                    help='the card throws mmc errors above MHZ (e.g. 80 or 50)')
    ap.add_argument('--no-card', action='store_true',
                    help='no throttled loop-device card: benchmark a file on this machine')
    a = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit('sd-tuner-sim.py: run it as root (sudo tools/run.sh)')
    os.environ['SDTUNER_BUILDDIR'] = a.builddir
    app = os.path.join(a.builddir, 'src', 'app', 'sd-tuner')
    ctl = os.path.join(a.builddir, 'src', 'cli', 'sdtunerctl')
    user = os.environ.get('SUDO_USER') or 'root'

    say('This machine is not a Raspberry Pi: SD Tuner runs against a SIMULATED Raspberry Pi 3 '
        '(data/sim/rpi3), through a private system bus with its own polkitd and the built '
        'sd-tuner-helper. Nothing on this machine is changed; password prompts are '
        'answered automatically.')
    stop = {'signal': None}

    def on_signal(signum, frame):
        stop['signal'] = signum
        raise KeyboardInterrupt

    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, on_signal)
    work = tempfile.mkdtemp(prefix='sd-tuner-sim.', dir='/var/tmp')
    board = None
    try:
        with sdtsim.SimCard(log=say, enabled=not a.no_card) as card:
            describe_card(card)
            card.join()  # this process and what it starts: the bus, the helper, verify
            board = sdtsim.SimBoard(work, card, errors_above_mhz=a.erroring_card, log=say)
            if a.erroring_card is not None:
                say(f'The card throws mmc errors above {a.erroring_card} MHz.')
            with sdtsim.helper_env(board, idle_timeout=60) as env:
                say(f'Scratch copy of the simulated board: {board.root}')
                if a.loop:
                    return walk_loop(env, board, ctl)
                return run_window(env, board, ctl, app, user, a.screenshot)
    except KeyboardInterrupt:
        return 130
    finally:
        if board is not None:
            board.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
