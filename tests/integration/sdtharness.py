#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
"""SD Tuner integration harness: a private system bus that D-Bus-activates the
BUILT sd-tuner-helper, a real polkitd on that bus (in a private mount
namespace, so the host's /usr/share/polkit-1 and /etc/polkit-1 stay untouched)
reading the project's built .policy, and helpers to call as other users and to
answer polkit with a test agent.  Needs root, dbus-daemon, polkitd, umockdev,
setpriv and /usr/bin/python3 with python3-gi.  Nothing is installed into /etc
or /usr; the host's system bus is not used.

Entry points (the GUI tests use them too):

  Python:
      sys.path.insert(0, '<srcdir>/tests/integration')
      from sdtharness import TestEnv
      with TestEnv(fixture='pi3') as env:      # fixture: a tests/data fixture name or None
          env.environ                # os.environ + DBUS_SYSTEM_BUS_ADDRESS of the private bus
          env.root                   # scratch copy of the fixture's root (the helper's --root)
          TestEnv(host_root=True)    # the helper with --root /: this machine as a real system
          env.bench_dir              # where the helper benchmarks (--bench-dir), on a real fs;
                                     # TestEnv(bench_dir=False): no --bench-dir, the helper
                                     # looks for the card's file system itself
          conn = env.connect()       # a new root connection to the private bus (Gio)
          env.call('GetInfo', '(a{sv})', ({},))        # -> unpacked reply, raises GLib.Error
          env.gdbus_as('nobody', 'Apply', 'id', '{}')  # (rc, output) of gdbus call as that user
          env.run_as('nobody', [cmd...])               # subprocess as that user on the bus
          env.add_polkit_rule(js_text)                 # into rules.d; waits for the reload
          env.stop_polkitd(); env.helper_pid(); env.kill_helper()
          env.agent_cmd('allow'|'deny', cmd) # cmd wrapped in the test polkit agent
  Shell:
      tests/integration/sdtharness.py [--fixture NAME] [--keep] -- CMD [ARGS...]
  runs CMD with DBUS_SYSTEM_BUS_ADDRESS, SDTUNER_TEST_ROOT (the helper's root)
  and SDTUNER_TEST_BENCH_DIR set, then tears everything down; its exit status
  is CMD's.  Example:  sdtharness.py --fixture pi3 -- build/src/cli/sdtunerctl info

Where the build is: $SDTUNER_BUILDDIR (tests/meson.build sets it), else
../../_build from this file.

TestEnv(installed=ROOT) uses the INSTALLED files instead of the build, ROOT
being an unpacked package or `meson install --destdir` tree (prefix /usr):
the bus reads ROOT's activation file (its Exec= path as installed) and bus
policy; dbus-daemon and polkitd run in private mount namespaces where ROOT's
/usr/libexec and /usr/share/polkit-1/actions are overlaid on the host's, so the
helper starts from /usr/libexec/sd-tuner-helper and polkitd reads the policy
where it always does.  The activation file has no --root: the fixture's root
reaches the helper as $SDTUNER_ROOT, and its device data through umockdev-run
around dbus-daemon, whose environment activated services inherit.  The
helper then has its default idle timeout and no --bench-dir.  A fixture NAME is tests/data/umockdev/NAME.umockdev
(device data, given to umockdev-run) plus tests/data/roots/NAME/ (the root
prefix, copied for each environment so tests may change it), or the simulated
board data/sim/NAME/ + data/sim/NAME.umockdev (fixture 'rpi3').

Each TestEnv is independent (its own bus, polkitd and helper), so tests can
run in parallel.  Teardown kills only the processes it started, by pid.
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from gi.repository import Gio, GLib

HERE = os.path.dirname(os.path.abspath(__file__))
SRCDIR = os.path.abspath(os.path.join(HERE, '..', '..'))
BUILDDIR = os.environ.get('SDTUNER_BUILDDIR') or os.path.join(SRCDIR, '_build')

BUS_NAME = 'org.example.SdTuner1'
MANAGER_PATH = '/org/example/SdTuner1'
MANAGER_IFACE = 'org.example.SdTuner1.Manager'
JOB_IFACE = 'org.example.SdTuner1.Job'
ERROR_PREFIX = 'org.example.SdTuner1.Error.'
POLKIT_NAME = 'org.freedesktop.PolicyKit1'

# Raspberry Pi OS (bookworm) default /boot/firmware/config.txt, shortened; written
# into the scratch root when the fixture has none
DEFAULT_CONFIG_TXT = """# For more options and information see
# http://rptl.io/configtxt
# Some settings may impact device functionality. See link above for details

# Uncomment some or all of these to enable the optional hardware interfaces
#dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on

# Enable audio (loads snd_bcm2835)
dtparam=audio=on

# Automatically load overlays for detected cameras
camera_auto_detect=1

# Automatically load overlays for detected DSI displays
display_auto_detect=1

# Automatically load initramfs files, if found
auto_initramfs=1

# Enable DRM VC4 V3D driver
dtoverlay=vc4-kms-v3d
max_framebuffers=2

# Don't have the firmware create an initial video= setting in cmdline.txt.
# Use the kernel's default instead.
disable_fw_kms_setup=1

# Run in 64-bit mode
arm_64bit=1

# Disable compensation for displays with overscan
disable_overscan=1

# Run as fast as firmware / board allows
arm_boost=1

[cm4]
# Enable host mode on the 2711 built-in XHCI USB controller.
# This line should be removed if the legacy DWC2 controller is required
# (e.g. for USB device mode) or if USB support is not required.
otg_mode=1

[all]
"""

USERS = {  # name -> (uid, gid) for setpriv
    'nobody': ('nobody', 'nogroup'),
    'daemon': ('daemon', 'daemon'),
    'polkitd': ('polkitd', 'polkitd'),
}


def fixture_paths(name):
    """(root directory, umockdev file) of a fixture: tests/data/roots/NAME and
    tests/data/umockdev/NAME.umockdev, or the simulated board data/sim/NAME
    and data/sim/NAME.umockdev"""
    root = os.path.join(SRCDIR, 'tests', 'data', 'roots', name)
    if os.path.isdir(root):
        return root, os.path.join(SRCDIR, 'tests', 'data', 'umockdev', name + '.umockdev')
    return (os.path.join(SRCDIR, 'data', 'sim', name),
            os.path.join(SRCDIR, 'data', 'sim', name + '.umockdev'))


def helper_path():
    return os.path.join(BUILDDIR, 'src', 'helper', 'sd-tuner-helper')


def error_name(err):
    """The D-Bus error name of a GLib.Error from a call, e.g.
    'org.example.SdTuner1.Error.NotAuthorized'."""
    name = Gio.DBusError.get_remote_error(err)
    return name if name else err.domain


def error_message(err):
    """the message of a GLib.Error from a call without the 'GDBus.Error:NAME: ' prefix"""
    msg = err.message
    name = Gio.DBusError.get_remote_error(err)
    prefix = f'GDBus.Error:{name}: '
    return msg[len(prefix):] if name and msg.startswith(prefix) else msg


# the implicit authorizations (any, inactive, active) of the project's polkit actions
POLICY_DEFAULTS = {
    'org.example.sdtuner.benchmark': ('auth_admin', 'auth_admin', 'auth_admin_keep'),
    'org.example.sdtuner.check': ('auth_admin', 'auth_admin', 'auth_admin_keep'),
    'org.example.sdtuner.check-device': ('auth_admin', 'auth_admin', 'auth_admin_keep'),
    'org.example.sdtuner.modify-boot-config': ('auth_admin_keep',) * 3,
}


def check_policy_read_by_polkitd(test, env, also):
    """In a unittest.TestCase TEST: `pkaction --verbose` as nobody on ENV's bus shows
    each action with its POLICY_DEFAULTS and a line matching the regular expression ALSO."""
    for action, (any_, inactive, active) in POLICY_DEFAULTS.items():
        r = env.run_as('nobody', ['pkaction', '--action-id', action, '--verbose'])
        test.assertEqual(r.returncode, 0, r.stderr)
        test.assertRegex(r.stdout, rf'implicit any: +{any_}\n')
        test.assertRegex(r.stdout, rf'implicit inactive: +{inactive}\n')
        test.assertRegex(r.stdout, rf'implicit active: +{active}\n')
        test.assertRegex(r.stdout, also)


def _exit_on_signal(signum, frame):
    raise SystemExit(128 + signum)


# How long a service of the environment may take to start, leave the bus or reload: the wait
# ends as soon as it has, so the limit costs nothing on a quiet machine. On a loaded one (CI
# runs the emulated Pis beside these tests) polkitd took over 15 s to take its name.
SERVICE_SECONDS = 120
# the polkitd the environment runs (a test may put a slower start in front of it)
POLKITD = '/usr/lib/polkit-1/polkitd'


def _wait_for(pred, timeout, what):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return
        time.sleep(0.05)
    raise TimeoutError(f'timed out after {timeout} s waiting for {what}')


# systemd-logind as TestEnv.start_logind() runs it on the private bus
LOGIND = '/lib/systemd/systemd-logind'
LOGIND_NAME = 'org.freedesktop.login1'
LOGIND_CONF = """[Login]
NAutoVTs=0
ReserveVT=0
KillUserProcesses=no
HandlePowerKey=ignore
HandleSuspendKey=ignore
HandleHibernateKey=ignore
HandleLidSwitch=ignore
HandleLidSwitchExternalPower=ignore
HandleLidSwitchDocked=ignore
HandleRebootKey=ignore
IdleAction=ignore
"""


class TestEnv:
    """One private system bus + polkitd + activatable helper.  See the module
    docstring.  idle_timeout is the helper's --idle-timeout."""

    def __init__(self, fixture=None, root=None, idle_timeout=30, polkit=True,
                 bench_dir=True, config_txt=True, extra_helper_args=(), installed=None,
                 umockdev_dir=None, host_root=False):
        self.installed = installed
        # the helper on this machine as on a real system (`--root /`: not a simulated board,
        # sdt_context_is_simulated()); env.root is still made, and unused by the helper
        self.host_root = host_root
        # a UMockdevTestbed's root the test changes while it runs (devices added, removed,
        # with uevents): the helper runs in it instead of umockdev-run on the fixture's file
        self.umockdev_dir = umockdev_dir
        self.fixture = fixture
        self.root_template = root
        self.idle_timeout = idle_timeout
        self.want_polkit = polkit
        self.want_bench_dir = bench_dir  # False: the helper looks for the card itself
        self.config_txt = config_txt  # add DEFAULT_CONFIG_TXT if the fixture has none
        self.extra_helper_args = list(extra_helper_args)
        self.work = None
        self.bus_pid = None
        self.polkit_pid = None
        self.procs = []
        self.environ = None
        self.root = None
        self.bench_dir = None
        self._conns = []

    # ---- setup and teardown -------------------------------------------------
    def __enter__(self):
        self.start()  # stops what it started when it fails
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def start(self):
        # SIGTERM/SIGHUP (e.g. a test timeout) unwind like an exception, so that
        # stop() still runs; an existing handler is left alone
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGTERM, signal.SIGHUP):
                if signal.getsignal(sig) == signal.SIG_DFL:
                    signal.signal(sig, _exit_on_signal)
        if os.geteuid() != 0:
            raise RuntimeError('the integration harness needs root (private bus, polkitd)')
        # a start that fails (a service that does not come up) stops what it started: its
        # caller has no environment to stop, and the bus, polkitd and folders would stay
        try:
            self._start()
        except BaseException:
            self.stop()
            raise

    def _start(self):
        self.work = tempfile.mkdtemp(prefix=f'sdt-itest-{os.getpid()}-')
        os.chmod(self.work, 0o755)  # unprivileged callers must reach the bus socket
        self.busdir = os.path.join(self.work, 'bus')
        self.pkdir = os.path.join(self.work, 'polkit')
        for d in (self.busdir, os.path.join(self.busdir, 'system.d'),
                  os.path.join(self.busdir, 'system-services')):
            os.makedirs(d, mode=0o755, exist_ok=True)
        os.chmod(self.busdir, 0o755)
        self._prepare_root()
        self._write_bus_config()
        self._start_bus()
        if self.want_polkit:
            self._start_polkitd()

    def _prepare_root(self):
        self.root = os.path.join(self.work, 'root')
        template = self.root_template
        if template is None and self.fixture is not None:
            template = fixture_paths(self.fixture)[0]
        if template is not None and os.path.isdir(template):
            shutil.copytree(template, self.root, symlinks=True)
        else:
            os.makedirs(self.root)
        config = os.path.join(self.root, 'boot', 'firmware', 'config.txt')
        if self.config_txt and not os.path.lexists(config):
            os.makedirs(os.path.dirname(config), exist_ok=True)
            with open(config, 'w') as f:
                f.write(DEFAULT_CONFIG_TXT)
        # the benchmark needs O_DIRECT: a disk file system, not tmpfs
        base = '/var/tmp' if os.path.isdir('/var/tmp') else self.work
        self.bench_dir = tempfile.mkdtemp(prefix=f'sdt-itest-bench-{os.getpid()}-', dir=base)

    def helper_argv(self):
        argv = [helper_path(), '--root', '/' if self.host_root else self.root,
                '--idle-timeout', str(self.idle_timeout),
                '--verbose']
        if self.want_bench_dir:
            argv += ['--bench-dir', self.bench_dir]
        argv += self.extra_helper_args
        umockdev = fixture_paths(self.fixture)[1] if self.fixture is not None else None
        if self.umockdev_dir is not None:
            return ['/usr/bin/env', 'LD_PRELOAD=libumockdev-preload.so.0',
                    f'UMOCKDEV_DIR={self.umockdev_dir}'] + argv
        if umockdev is not None and os.path.exists(umockdev):
            # dbus-daemon does not search PATH
            argv = [shutil.which('umockdev-run') or '/usr/bin/umockdev-run', '-d', umockdev,
                    '--'] + argv
        return argv

    def _write_bus_config(self):
        with open('/usr/share/dbus-1/system.conf') as f:
            conf = f.read()
        b = self.busdir
        conf = re.sub(r'\s*<user>messagebus</user>', '', conf)
        conf = re.sub(r'\s*<fork/>', '', conf)
        conf = re.sub(r'\s*<syslog/>', '', conf)
        conf = re.sub(r'\s*<servicehelper>.*?</servicehelper>', '', conf)
        services = (os.path.join(self.installed, 'usr/share/dbus-1/system-services')
                    if self.installed else f'{b}/system-services')
        conf = conf.replace('<standard_system_servicedirs/>',
                            f'<servicedir>{services}</servicedir>')
        conf = re.sub(r'<pidfile>.*?</pidfile>', f'<pidfile>{b}/pid</pidfile>', conf)
        conf = re.sub(r'<listen>.*?</listen>', f'<listen>unix:path={b}/system_bus_socket</listen>',
                      conf)
        # polkitd's own policy (user polkitd owns org.freedesktop.PolicyKit1)
        conf = conf.replace('<includedir>system.d</includedir>',
                            '<includedir>system.d</includedir>\n'
                            '  <includedir>/usr/share/dbus-1/system.d</includedir>')
        if self.installed:  # the installed bus policy, read where the package put it
            policy_dir = os.path.join(self.installed, 'usr/share/dbus-1/system.d')
            conf = conf.replace('<includedir>system.d</includedir>',
                                f'<includedir>{policy_dir}</includedir>')
        with open(os.path.join(b, 'system.conf'), 'w') as f:
            f.write(conf)
        if self.installed:
            return
        shutil.copy(os.path.join(SRCDIR, 'data', 'dbus', 'org.example.SdTuner1.conf'),
                    os.path.join(b, 'system.d'))
        # D-Bus parses Exec= like a shell command line; quote each word
        exec_line = ' '.join("'" + a.replace("'", "") + "'" for a in self.helper_argv())
        with open(os.path.join(b, 'system-services', BUS_NAME + '.service'), 'w') as f:
            f.write(f'[D-BUS Service]\nName={BUS_NAME}\nExec={exec_line}\nUser=root\n')

    def _start_bus(self):
        self.address = f'unix:path={self.busdir}/system_bus_socket'
        self.environ = dict(os.environ)
        self.environ['DBUS_SYSTEM_BUS_ADDRESS'] = self.address
        self.environ['SDTUNER_TEST_ROOT'] = self.root
        self.environ['SDTUNER_TEST_BENCH_DIR'] = self.bench_dir
        self.environ.pop('SDTUNER_ROOT', None)
        self.environ['G_DEBUG'] = 'fatal-criticals'  # a critical in the helper fails the test
        self.daemon_log = open(os.path.join(self.busdir, 'daemon.log'), 'w')
        argv = ['dbus-daemon', f'--config-file={self.busdir}/system.conf', '--nopidfile']
        env = self.environ
        if self.installed:
            env = dict(self.environ, SDTUNER_ROOT=self.root)
            umockdev = fixture_paths(self.fixture)[1] if self.fixture is not None else None
            if umockdev is not None and os.path.exists(umockdev):
                argv = ['umockdev-run', '-d', umockdev, '--'] + argv
            argv = self._in_namespace({'/usr/libexec': 'usr/libexec'}, argv)
        p = subprocess.Popen(argv, stdout=self.daemon_log, stderr=subprocess.STDOUT, env=env)
        self.bus_pid = p.pid
        self.procs.append(p)
        sock = f'{self.busdir}/system_bus_socket'
        _wait_for(lambda: os.path.exists(sock) or p.poll() is not None, SERVICE_SECONDS,
                  'dbus-daemon')
        if p.poll() is not None:
            raise RuntimeError('dbus-daemon failed: ' + self.log())

    def _start_polkitd(self, policy=None):
        pk = self.pkdir
        for d in ('actions', 'rules.d', 'share-rules.d'):
            os.makedirs(os.path.join(pk, d), exist_ok=True)
        for f in os.listdir('/usr/share/polkit-1/actions'):
            if f.endswith('.policy'):
                shutil.copy(os.path.join('/usr/share/polkit-1/actions', f),
                            os.path.join(pk, 'actions'))
        if not self.installed:
            policy = policy or os.path.join(BUILDDIR, 'polkit', 'org.example.sdtuner.policy')
            shutil.copy(policy, os.path.join(pk, 'actions'))
        if os.path.isdir('/usr/share/polkit-1/rules.d'):
            for f in os.listdir('/usr/share/polkit-1/rules.d'):
                shutil.copy(os.path.join('/usr/share/polkit-1/rules.d', f),
                            os.path.join(pk, 'share-rules.d'))
        for d in ('rules.d', 'share-rules.d'):
            path = os.path.join(pk, d)
            shutil.chown(path, 'polkitd')
            for f in os.listdir(path):
                shutil.chown(os.path.join(path, f), 'polkitd')
            os.chmod(path, 0o700)
        # installed: the package's actions on top of the host's, where polkitd reads them
        actions = (self._overlay_cmd(os.path.join(self.installed, 'usr/share/polkit-1/actions'),
                                     '/usr/share/polkit-1/actions')
                   if self.installed else
                   f"mount --bind '{pk}/actions' /usr/share/polkit-1/actions")
        script = (f"{actions} && "
                  f"mount --bind '{pk}/rules.d' /etc/polkit-1/rules.d && "
                  f"mount --bind '{pk}/share-rules.d' /usr/share/polkit-1/rules.d && "
                  f"exec '{POLKITD}'")
        self.polkit_log = open(os.path.join(pk, 'polkitd.log'), 'w')
        # G_DEBUG=fatal-criticals is for the helper: polkitd 126 (trixie) logs a critical of
        # its own (g_object_unref of NULL after "Error enumerating files in
        # /etc/polkit-1/actions", a folder Debian does not ship) at every check, which
        # that setting turned into an abort: every check "disconnected without replying"
        p = subprocess.Popen(['unshare', '--mount', '--propagation', 'private', 'sh', '-c',
                              script], stdout=self.polkit_log, stderr=subprocess.STDOUT,
                             env=self._foreign_environ())
        self.polkit_pid = p.pid  # unshare and sh exec: this is polkitd's pid
        self.procs.append(p)
        _wait_for(lambda: self._has_owner(POLKIT_NAME) or p.poll() is not None, SERVICE_SECONDS,
                  'polkitd')
        if p.poll() is not None:
            raise RuntimeError('polkitd failed: ' + open(os.path.join(pk, 'polkitd.log')).read())

    def _foreign_environ(self):
        """the bus's environment for programs that are not the project's (polkitd,
        systemd-logind): without the helper's fatal criticals"""
        return {k: v for k, v in self.environ.items() if k != 'G_DEBUG'}

    @staticmethod
    def _overlay_cmd(upper, target):
        """a shell command: a read-only overlay of directory upper on target"""
        return (f"mount -t overlay sdt-installed -o 'lowerdir={upper}:{target}' '{target}'")

    def _in_namespace(self, overlays, argv):
        """argv run in a private mount namespace where each target directory
        shows the installed tree's files on top of the host's"""
        mounts = ' && '.join(self._overlay_cmd(os.path.join(self.installed, rel), target)
                             for target, rel in overlays.items())
        return ['unshare', '--mount', '--propagation', 'private', 'sh', '-c',
                f'{mounts} && exec "$@"', 'sh'] + list(argv)

    def stop_polkitd(self):
        for p in self.procs:
            if p.pid == self.polkit_pid and p.poll() is None:
                p.terminate()
                p.wait(SERVICE_SECONDS)
        self.polkit_pid = None
        _wait_for(lambda: not self._has_owner(POLKIT_NAME), SERVICE_SECONDS,
                  'polkitd to leave the bus')

    def stop(self):
        for c in self._conns:
            try:
                c.close_sync(None)
            except GLib.Error:
                pass
        self._conns = []
        pid = self.helper_pid() if self.bus_pid else None
        for p in reversed(self.procs):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        if pid is not None:  # activated by our dbus-daemon; it also leaves with the bus
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for f in ('daemon_log', 'polkit_log'):
            if getattr(self, f, None):
                getattr(self, f).close()
        if self.bench_dir and os.path.isdir(self.bench_dir):
            shutil.rmtree(self.bench_dir, ignore_errors=True)
        if self.work and os.path.isdir(self.work):
            if os.environ.get('SDTUNER_KEEP_TEST_ENV'):
                print(f'kept {self.work}', file=sys.stderr)
            else:
                shutil.rmtree(self.work, ignore_errors=True)

    # ---- inspection ---------------------------------------------------------
    def log(self):
        """the bus daemon's log: also the activated helper's stdout/stderr"""
        with open(os.path.join(self.busdir, 'daemon.log')) as f:
            return f.read()

    def polkitd_log(self):
        with open(os.path.join(self.pkdir, 'polkitd.log')) as f:
            return f.read()

    def _bus_call(self, method, args, reply_type):
        conn = Gio.DBusConnection.new_for_address_sync(
            self.address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT |
            Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
        try:
            return conn.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus',
                                  'org.freedesktop.DBus', method, args,
                                  GLib.VariantType(reply_type), Gio.DBusCallFlags.NONE,
                                  5000, None).unpack()[0]
        finally:
            conn.close_sync(None)

    def _has_owner(self, name):
        return self._bus_call('NameHasOwner', GLib.Variant('(s)', (name,)), '(b)')

    def start_logind(self):
        """the REAL systemd-logind of this machine on the private bus, in a private mount
        namespace (its own /run/systemd, a logind.conf that leaves the VTs and the power
        keys alone; systemd is not PID 1 here, which Inhibit does not need); stopped
        with the environment.  Its log: <work>/logind.log"""
        conf = os.path.join(self.work, 'logind.conf')
        with open(conf, 'w') as f:
            f.write(LOGIND_CONF)
        script = (f"mount -t tmpfs sdt-logind /run/systemd && "
                  f"mount --bind '{conf}' /etc/systemd/logind.conf && exec {LOGIND}")
        log_path = os.path.join(self.work, 'logind.log')
        p = subprocess.Popen(['unshare', '--mount', '--propagation', 'private', 'sh', '-c',
                              script], env=self.environ, stdout=open(log_path, 'w'),
                             stderr=subprocess.STDOUT)
        self.procs.append(p)   # stopped with the environment, by pid
        try:
            _wait_for(lambda: self._has_owner(LOGIND_NAME) or p.poll() is not None,
                      SERVICE_SECONDS, 'systemd-logind')
        except TimeoutError:
            pass
        if p.poll() is not None or not self._has_owner(LOGIND_NAME):
            raise RuntimeError('systemd-logind did not start: ' + open(log_path).read())
        return p

    def helper_pid(self):
        """pid of the running helper, or None"""
        try:
            return self._bus_call('GetConnectionUnixProcessID', GLib.Variant('(s)', (BUS_NAME,)),
                                  '(u)')
        except GLib.Error:
            return None

    def kill_helper(self, sig=signal.SIGKILL):
        pid = self.helper_pid()
        if pid is None:
            raise RuntimeError('the helper is not running')
        os.kill(pid, sig)
        _wait_for(lambda: not self._has_owner(BUS_NAME), SERVICE_SECONDS,
                  'the helper to leave the bus')
        return pid

    # ---- clients ------------------------------------------------------------
    def connect(self):
        """a new connection to the private bus (as root), closed at teardown"""
        conn = Gio.DBusConnection.new_for_address_sync(
            self.address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT |
            Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
        conn.set_exit_on_close(False)
        self._conns.append(conn)
        return conn

    def call(self, method, signature, args, conn=None, timeout_ms=30000,
             path=MANAGER_PATH, iface=MANAGER_IFACE):
        """a synchronous call (activates the helper); returns the unpacked reply
        tuple, raises GLib.Error"""
        conn = conn or self.connect()
        params = GLib.Variant(signature, args) if signature is not None else None
        return conn.call_sync(BUS_NAME, path, iface, method, params, None,
                              Gio.DBusCallFlags.NONE, timeout_ms, None).unpack()

    def as_user_argv(self, user):
        uid, gid = USERS.get(user, (user, user))
        return ['setpriv', f'--reuid={uid}', f'--regid={gid}', '--clear-groups']

    def run_as(self, user, argv, timeout=60, **kw):
        """runs argv as user (None: root) with the private bus; CompletedProcess"""
        prefix = self.as_user_argv(user) if user else []
        return subprocess.run(prefix + list(argv), env=self.environ, capture_output=True,
                              text=True, timeout=timeout, **kw)

    def gdbus_argv(self, method, *args):
        return ['gdbus', 'call', '--system', '-d', BUS_NAME, '-o', MANAGER_PATH,
                '-m', f'{MANAGER_IFACE}.{method}'] + list(args)

    def gdbus_as(self, user, method, *args):
        """gdbus call as user: (returncode, stdout + stderr)"""
        r = self.run_as(user, self.gdbus_argv(method, *args))
        return r.returncode, (r.stdout + r.stderr).strip()

    def agent_cmd(self, answer, argv):
        """argv wrapped in the test polkit agent that answers 'allow', 'deny' or 'fail'
        (see pk-agent-run.py)"""
        return ['/usr/bin/python3', os.path.join(HERE, 'pk-agent-run.py'), answer, '--'] + argv

    def run_in_terminal(self, user, argv, password_ok=True, timeout=120):
        """argv as user in a terminal (script(1): stdin a pty, so sdtunerctl registers
        polkit's text agent for itself), as a person at a terminal.  The agent's
        polkit-agent-helper-1 is setuid: it ignores DBUS_SYSTEM_BUS_ADDRESS and uses
        /run/dbus, and it asks PAM; in a private mount namespace the test bus is
        /run/dbus and PAM's polkit-1 service is pam_permit (the right password,
        password_ok) or pam_deny (a wrong one), so nothing needs to be typed.
        Returns (exit status, what the terminal showed)."""
        pam = os.path.join(self.work, 'pam-polkit-1-' + ('permit' if password_ok else 'deny'))
        module = 'pam_permit.so' if password_ok else 'pam_deny.so'
        with open(pam, 'w') as f:
            f.write(f'auth requisite {module}\naccount sufficient pam_permit.so\n')
        os.makedirs('/run/dbus', exist_ok=True)
        inner = ' '.join("'" + a.replace("'", "'\\''") + "'"
                         for a in (self.as_user_argv(user) if user else []) + list(argv))
        ns = (f"mount --bind '{pam}' /usr/lib/pam.d/polkit-1 && "
              f"mount --bind '{self.busdir}' /run/dbus && "
              f"exec script -qec \"{inner}\" /dev/null")
        p = subprocess.run(['unshare', '-m', '--propagation', 'private', 'sh', '-c', ns],
                           env=self.environ, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
        return p.returncode, p.stdout.decode(errors='replace')

    def add_polkit_rule(self, name, text):
        path = os.path.join(self.pkdir, 'rules.d', name)
        with open(path, 'w') as f:
            f.write(text)
        shutil.chown(path, 'polkitd')
        # polkitd reloads rules through inotify; the log says when it is done
        before = self.polkitd_log().count('Finished loading')
        _wait_for(lambda: self.polkitd_log().count('Finished loading') > before,
                  SERVICE_SECONDS, 'polkitd to reload its rules')


def main():
    ap = argparse.ArgumentParser(description='Run CMD against a private system bus with '
                                 'polkitd and an activatable sd-tuner-helper.')
    ap.add_argument('--fixture', help='fixture name (tests/data/umockdev/NAME.umockdev and '
                    'tests/data/roots/NAME/)')
    ap.add_argument('--root', help='root prefix to copy instead of the fixture directory')
    ap.add_argument('--idle-timeout', type=int, default=60)
    ap.add_argument('--no-polkit', action='store_true', help='do not start polkitd')
    ap.add_argument('--keep', action='store_true', help='keep the scratch directory')
    ap.add_argument('cmd', nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd[:1] == ['--'] else a.cmd
    if not cmd:
        ap.error('no command given')
    if a.keep:
        os.environ['SDTUNER_KEEP_TEST_ENV'] = '1'
    with TestEnv(fixture=a.fixture, root=a.root, idle_timeout=a.idle_timeout,
                 polkit=not a.no_polkit) as env:
        child = subprocess.Popen(cmd, env=env.environ)
        for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(s, lambda signum, frame: child.send_signal(signum))
        rc = child.wait()
    return rc


if __name__ == '__main__':
    sys.exit(main())
