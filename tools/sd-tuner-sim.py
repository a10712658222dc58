#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
"""sd-tuner-sim.py [--screenshot FILE] - the SD Tuner window on a simulated Raspberry Pi 3.

For machines that are not a Raspberry Pi (tools/run.sh calls it). As root, it starts
through the integration harness (tests/integration/sdtharness.py):
  - a private system bus (the machine's own bus is not touched),
  - the real polkitd on it, in a private mount namespace,
  - the BUILT sd-tuner-helper, D-Bus-activated under umockdev-run with the bundled
    simulated Raspberry Pi 3 (data/sim/rpi3.umockdev: its card and mmc host) and a scratch
    copy of its root (data/sim/rpi3: device tree, kernel log, debugfs, config.txt); the
    benchmark runs on a file in /var/tmp on this machine;
and then the app against that bus, as the user who ran sudo, on their display. Password
prompts of the simulated board are answered "yes" by a test agent: nothing on this
machine is changed. Without a display the window opens on a virtual screen (Xvfb) and a
screenshot is saved. Everything started here is stopped, and the scratch copy removed,
when the window closes or on Ctrl-C.
"""
import argparse
import os
import pwd
import signal
import subprocess
import sys
import tempfile
import time

TOP = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
sys.path.insert(0, os.path.join(TOP, 'tests', 'gui'))
from sdtgui import sim_env  # noqa: E402  (the harness on data/sim, as the GUI tests use it)


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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--builddir', default=os.path.join(TOP, '_build'))
    ap.add_argument('--screenshot', default=None, help='where to save the headless screenshot')
    a = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit('sd-tuner-sim.py: run it as root (sudo tools/run.sh)')
    os.environ['SDTUNER_BUILDDIR'] = a.builddir
    app = os.path.join(a.builddir, 'src', 'app', 'sd-tuner')
    user = os.environ.get('SUDO_USER') or 'root'

    print('This machine is not a Raspberry Pi: SD Tuner runs against a SIMULATED Raspberry Pi 3 '
          '(data/sim/rpi3), through a private system bus with its own polkitd and the built '
          'sd-tuner-helper. Nothing on this machine is changed; password prompts are '
          'answered automatically.', flush=True)
    stop = {'signal': None}

    def on_signal(signum, frame):
        stop['signal'] = signum
        raise KeyboardInterrupt

    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, on_signal)
    try:
        with sim_env(idle_timeout=60) as env:
            print(f'Scratch copy of the simulated board: {env.root}', flush=True)
            if not (os.environ.get('DISPLAY') or os.environ.get('WAYLAND_DISPLAY')):
                shot = a.screenshot or os.path.join(tempfile.gettempdir(),
                                                    'sd-tuner-window.png')
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
            try:
                return p.wait()
            except KeyboardInterrupt:
                os.killpg(p.pid, signal.SIGTERM)
                p.wait()
                return 130
    except KeyboardInterrupt:
        return 130


if __name__ == '__main__':
    sys.exit(main())
