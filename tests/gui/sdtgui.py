"""sdtgui.py - drive the real sd-tuner window under Xvfb over AT-SPI, for the 'gui' tests.

The app runs as user nobody, like a desktop user: polkitd authorizes root without asking,
so only a non-root app meets a real password prompt (answered by the test agent). The
AT-SPI steps (sdt-gui-steps.py) run as nobody too: the app's accessibility bridge serves
its tree only to clients of its own user. The test itself runs as root, to start the
infrastructure, answer polkit and compare files. This module starts, and always stops:
  - Xvfb on a free display (-displayfd), 1280x800;
  - a private session bus owned by nobody, which D-Bus-activates the AT-SPI bus and
    registry; a developer's session is never touched, and a running SD Tuner cannot
    swallow the test's activation (GtkApplication is single-instance per session bus);
  - the app, optionally behind a command prefix (the polkit test agent).
Everything else (the private system bus, polkitd, the helper) is the caller's.
Run with /usr/bin/python3 (python3-pyatspi).
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
NOBODY = ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups']

SESSION_CONF = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir={dir}</listen>
  <auth>EXTERNAL</auth>
  <standard_session_servicedirs/>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


SIM_ROOT = os.path.join(HERE, '..', '..', 'data', 'sim', 'rpi3')
SIM_UMOCKDEV = os.path.join(HERE, '..', '..', 'data', 'sim', 'rpi3.umockdev')


def sim_env(**kwargs):
    """The integration harness (tests/integration/sdtharness.py) running the helper on the
    bundled simulated Raspberry Pi 3 that tools/run.sh shows: a scratch copy of
    data/sim/rpi3 as its root, data/sim/rpi3.umockdev as its device data."""
    sys.path.insert(0, os.path.join(HERE, '..', 'integration'))
    from sdtharness import TestEnv

    class SimEnv(TestEnv):
        def helper_argv(self):
            return [shutil.which('umockdev-run') or '/usr/bin/umockdev-run', '-d',
                    os.path.abspath(SIM_UMOCKDEV), '--'] + super().helper_argv()

    return SimEnv(root=os.path.abspath(SIM_ROOT), **kwargs)


def log(*args):
    print('gui:', *args, flush=True)


class Session:
    """Xvfb + nobody's session bus + the app; a context manager that cleans up."""

    def __init__(self, app_path, width=1280, height=800, out_dir=None):
        self.app_path = app_path
        self.width, self.height = width, height
        self.tmp = tempfile.mkdtemp(prefix=f'sdt-gui-{os.getpid()}-')
        os.chmod(self.tmp, 0o755)
        self.home = os.path.join(self.tmp, 'home')
        os.mkdir(self.home, 0o700)
        shutil.chown(self.home, 'nobody', 'nogroup')
        self.out_dir = out_dir or self.tmp
        os.makedirs(self.out_dir, exist_ok=True)
        self.procs = []   # (name, Popen) we started, stopped in reverse order
        self.app = None
        self.app_log = os.path.join(self.tmp, 'app.log')
        self.env = {}

    # --- setup -------------------------------------------------------------
    def __enter__(self):
        try:
            self._start_xvfb()
            self._start_session_bus()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc):
        self.close()

    def _spawn(self, name, argv, **kw):
        p = subprocess.Popen(argv, **kw)
        self.procs.append((name, p))
        return p

    def _start_xvfb(self):
        r, w = os.pipe()
        self._spawn('Xvfb', ['Xvfb', '-displayfd', str(w), '-screen', '0',
                             f'{self.width}x{self.height}x24', '-nolisten', 'tcp', '-noreset'],
                    pass_fds=(w,), stdout=subprocess.DEVNULL,
                    stderr=open(os.path.join(self.tmp, 'xvfb.log'), 'w'))
        os.close(w)
        with os.fdopen(r) as f:
            display = f.readline().strip()
        if not display:
            raise RuntimeError('Xvfb did not start')
        self.env['DISPLAY'] = ':' + display
        # it said it was ready; make sure a client (as nobody, like the app) gets in
        for _ in range(50):
            if subprocess.run(NOBODY + ['env', f'DISPLAY=:{display}', 'xdotool',
                                        'getdisplaygeometry'],
                              capture_output=True).returncode == 0:
                break
            time.sleep(0.1)
        else:
            raise RuntimeError(f'Xvfb on :{display} does not accept clients')
        log('Xvfb on', self.env['DISPLAY'])

    def _start_session_bus(self):
        busdir = os.path.join(self.tmp, 'session')
        os.mkdir(busdir)
        shutil.chown(busdir, 'nobody', 'nogroup')
        conf = os.path.join(self.tmp, 'session.conf')
        with open(conf, 'w') as f:
            f.write(SESSION_CONF.format(dir=busdir))
        r, w = os.pipe()
        env = dict(os.environ, HOME=self.home, XDG_RUNTIME_DIR=self.home,
                   DISPLAY=self.env['DISPLAY'])
        self._spawn('session-bus', NOBODY + ['dbus-daemon', f'--config-file={conf}', '--nofork',
                                             f'--print-address={w}'],
                    pass_fds=(w,), env=env, stderr=subprocess.DEVNULL)
        os.close(w)
        with os.fdopen(r) as f:
            address = f.readline().strip()
        if not address:
            raise RuntimeError('session bus did not start')
        self.env['DBUS_SESSION_BUS_ADDRESS'] = address
        log('session bus', address)

    def start_session_manager(self):
        """tests/gui/fake-session-manager.py on the session bus (as nobody); returns the
        path of its call log once it owns org.gnome.SessionManager"""
        path = os.path.join(self.home, 'session-manager.log')
        env = dict(self.env, HOME=self.home, PATH=os.environ.get('PATH', '/usr/bin:/bin'))
        self._spawn('session-manager', NOBODY + ['env', '-i'] +
                    [f'{k}={v}' for k, v in env.items()] +
                    ['/usr/bin/python3', os.path.join(HERE, 'fake-session-manager.py'), path],
                    stderr=subprocess.DEVNULL)
        for _ in range(100):
            if os.path.exists(path) and 'ready' in open(path).read():
                return path
            time.sleep(0.05)
        raise RuntimeError('the stand-in session manager did not start')

    def app_env(self, system_bus_address, extra=None):
        env = {
            'PATH': os.environ.get('PATH', '/usr/bin:/bin'),
            'HOME': self.home,
            'XDG_RUNTIME_DIR': self.home,
            'LANG': 'C.UTF-8',
            'LANGUAGE': os.environ.get('SDTUNER_TEST_LANGUAGE', 'C'),
            'GDK_BACKEND': 'x11',
            'GTK_A11Y': 'atk',
            'NO_AT_BRIDGE': '0',
            'GSETTINGS_BACKEND': 'memory',
            'SDTUNER_DEBUG_MESSAGES': '1',
            'DBUS_SYSTEM_BUS_ADDRESS': system_bus_address,
        }
        env.update(self.env)
        env.update(extra or {})
        return env

    def start_app(self, system_bus_address, prefix=(), extra_env=None):
        """Starts the app as nobody; @prefix runs first as root (e.g. the polkit agent)."""
        env = self.app_env(system_bus_address, extra_env)
        argv = list(prefix) + NOBODY + ['env', '-i'] + [f'{k}={v}' for k, v in env.items()] + \
            [self.app_path]
        # the prefix (a polkit agent) talks to the same system bus as the app
        self.app = self._spawn('app', argv, stdout=open(self.app_log, 'w'),
                               stderr=subprocess.STDOUT, start_new_session=True,
                               env=dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=system_bus_address))
        return self.app

    def steps(self, *steps, timeout=120):
        """Runs AT-SPI steps (see sdt-gui-steps.py) as nobody; fails the test if one fails.
        With a wait-text-long step (a benchmark or a check: 240 s under CI's load, the real-
        kernel tier running beside) at least 300 s."""
        if 'wait-text-long' in steps:
            timeout = max(timeout, 300)
        env = {
            'PATH': os.environ.get('PATH', '/usr/bin:/bin'),
            'HOME': self.home,
            'XDG_RUNTIME_DIR': self.home,
            'LANG': 'C.UTF-8',
        }
        env.update(self.env)
        argv = NOBODY + ['env', '-i'] + [f'{k}={v}' for k, v in env.items()] + \
            ['/usr/bin/python3', os.path.join(HERE, 'sdt-gui-steps.py')] + list(steps)
        r = subprocess.run(argv, timeout=timeout)
        if r.returncode != 0:
            print(self.app_output(), file=sys.stderr)
            raise AssertionError(f'AT-SPI steps failed: {list(steps)}')

    def app_output(self):
        with open(self.app_log, errors='replace') as f:
            return f.read()

    def app_running(self):
        return self.app is not None and self.app.poll() is None

    # --- screenshots ---------------------------------------------------------
    def window_id(self):
        out = subprocess.run(['xdotool', 'search', '--sync', '--onlyvisible', '--name',
                              '^(SD Tuner|⟦SD Tuner⟧)$'],
                             env=dict(os.environ, DISPLAY=self.env['DISPLAY']),
                             capture_output=True, text=True, timeout=20).stdout.split()
        if not out:
            raise RuntimeError('no SD Tuner window')
        return out[0]

    def keys(self, *keys):
        """Types key combinations (xdotool syntax, e.g. 'alt+2') into the focused window."""
        env = dict(os.environ, DISPLAY=self.env['DISPLAY'])
        wid = self.window_id()
        subprocess.run(['xdotool', 'windowfocus', '--sync', wid], env=env, check=True)
        for k in keys:
            subprocess.run(['xdotool', 'key', '--clearmodifiers', k], env=env, check=True)
            log('key', k)
            time.sleep(0.3)

    def resize(self, width, height):
        """Resizes the window to WIDTHxHEIGHT and lets it lay out and redraw."""
        env = dict(os.environ, DISPLAY=self.env['DISPLAY'])
        subprocess.run(['xdotool', 'windowsize', self.window_id(), str(width), str(height)],
                       env=env, check=True)
        time.sleep(0.8)

    def screenshot(self, name, width=None, height=None):
        """Resizes the window to WIDTHxHEIGHT (there is no window manager: it sits at
        0,0) and saves the window alone as OUT/NAME.png."""
        env = dict(os.environ, DISPLAY=self.env['DISPLAY'])
        wid = self.window_id()
        if width and height:
            subprocess.run(['xdotool', 'windowsize', wid, str(width), str(height)], env=env,
                           check=True)
            time.sleep(0.8)   # relayout and redraw
        path = os.path.join(self.out_dir, name + '.png')
        subprocess.run(['import', '-window', wid, path], env=env, check=True)
        log('screenshot', path)
        return path

    # --- cleanup -------------------------------------------------------------
    def close(self):
        for name, p in reversed(self.procs):
            if p.poll() is None:
                try:
                    if name == 'app':
                        os.killpg(p.pid, signal.SIGTERM)
                    else:
                        p.terminate()
                except ProcessLookupError:
                    pass
                try:
                    p.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        self.procs = []
        if os.environ.get('KEEP') is None:
            shutil.rmtree(self.tmp, ignore_errors=True)


def check(cond, what):
    if not cond:
        raise AssertionError(what)
    log('ok:', what)


def cannot_run(why):
    """a test that cannot run here: skipped, but a failure under CI=true"""
    if os.environ.get('CI') == 'true':
        print(f'FAIL (CI=true: a test that cannot run is a failure): {why}', flush=True)
        sys.exit(1)
    print(f'SKIP: {why}', flush=True)
    sys.exit(77)


def main_wrapper(fn, programs=()):
    # setpriv to nobody and the private buses need root; Xvfb and pyatspi must be there
    if os.geteuid() != 0:
        cannot_run('the GUI tests run as root (tools/test.sh)')
    for prog in ('Xvfb', 'xdotool', 'import', 'dbus-daemon', 'setpriv') + tuple(programs):
        if shutil.which(prog) is None and not os.access(prog, os.X_OK):
            cannot_run(f'{prog} is not installed (tools/deps.sh test)')
    try:
        fn()
    except AssertionError as e:
        print(f'FAIL: {e}', file=sys.stderr, flush=True)
        sys.exit(1)
