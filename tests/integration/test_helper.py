#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: helper-{case} suite=integration timeout=120 run=exec needs=polkit
#    env=integration cases=methods:HelperTest|NoCardTest|SlowStartTest|FailedStartTest
#    args={id}
#    depends=sd_tuner_helper,polkit_policy
"""Bus-level tests of sd-tuner-helper: each test gets its own private system
bus, a real polkitd with the project's .policy, and the built helper started
by D-Bus activation under umockdev (sdtharness.py).  Run as root:

    tests/integration/test_helper.py                       all tests
    tests/integration/test_helper.py HelperTest.test_fuzz  one test
"""

import hashlib
import json
import os
import re
import random
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sdtfuzz  # noqa: E402
import sdtharness  # noqa: E402
from sdtharness import (BUS_NAME, JOB_IFACE, MANAGER_IFACE, MANAGER_PATH,  # noqa: E402
                        TestEnv, error_name)

from gi.repository import Gio, GLib  # noqa: E402

E = 'org.example.SdTuner1.Error.'
NOT_AUTHORIZED = E + 'NotAuthorized'
CONFIG = 'boot/firmware/config.txt'

# the simulated Pi 3 (data/sim/rpi3): sdhost at 50 MHz with a stock config.txt, so
# there is one recommendation (sd_overclock)
FIXTURE = os.environ.get('SDTUNER_TEST_FIXTURE', 'rpi3')
NO_CARD_FIXTURE = 'pi4-no-card'


# the config writer's lock file: created by any Apply/Revert that ran, changes nothing
LOCK_PATHS = {'var', 'var/lib', 'var/lib/sd-tuner', 'var/lib/sd-tuner/lock'}


def tree_digest(path, ignore=()):
    """every file, link and directory under path with its content hash and mode"""
    out = {}
    for d, dirs, files in os.walk(path):
        for name in sorted(dirs + files):
            p = os.path.join(d, name)
            st = os.lstat(p)
            h = None
            if os.path.isfile(p) and not os.path.islink(p):
                with open(p, 'rb') as f:
                    h = hashlib.sha256(f.read()).hexdigest()
            rel = os.path.relpath(p, path)
            if rel not in ignore:
                out[rel] = (st.st_mode, st.st_size, h)
    return out


class Loop:
    """runs the default main context until cond() or timeout"""

    @staticmethod
    def until(cond, timeout, what):
        ctx = GLib.MainContext.default()
        end = time.monotonic() + timeout
        while not cond():
            if time.monotonic() > end:
                raise TimeoutError(f'timed out after {timeout} s waiting for {what}')
            if not ctx.iteration(False):
                time.sleep(0.01)


class Job:
    """a benchmark job followed from one connection"""

    def __init__(self, env, conn, profile='quick', options=None):
        self.env = env
        self.conn = conn
        self.completed = None
        self.props = {}
        self.path = None
        self._early = {}
        # subscribed before the call: Completed may follow the reply at once
        self._subs = [
            conn.signal_subscribe(None, JOB_IFACE, 'Completed', None, None,
                                  Gio.DBusSignalFlags.NONE, self._on_completed),
            conn.signal_subscribe(None, 'org.freedesktop.DBus.Properties', 'PropertiesChanged',
                                  None, None, Gio.DBusSignalFlags.NONE, self._on_props),
        ]
        try:
            self.path = env.call('StartBenchmark', '(sa{sv})', (profile, options or {}),
                                 conn=conn)[0]
        except GLib.Error:
            self.unsubscribe()
            raise

    def unsubscribe(self):
        for sub in self._subs:
            self.conn.signal_unsubscribe(sub)
        self._subs = []

    def _on_completed(self, conn, sender, path, iface, signal, params):
        if self.path is None or path == self.path:
            self.completed = params.unpack()

    def _on_props(self, conn, sender, path, iface, signal, params):
        if (self.path is None or path == self.path) and params.unpack()[0] == JOB_IFACE:
            self.props.update(params.unpack()[1])

    def get(self, prop, conn=None):
        return (conn or self.conn).call_sync(
            BUS_NAME, self.path, 'org.freedesktop.DBus.Properties', 'Get',
            GLib.Variant('(ss)', (JOB_IFACE, prop)), None, Gio.DBusCallFlags.NONE, 5000,
            None).unpack()[0]

    def cancel(self, conn=None):
        return self.env.call('Cancel', None, None, conn=conn or self.conn, path=self.path,
                             iface=JOB_IFACE)

    def wait_running(self, timeout=60):
        """until the engine has reported progress and holds its test file open"""
        Loop.until(lambda: self.completed is not None or self.props.get('Progress', 0) > 0,
                   timeout, 'benchmark progress')

    def wait_completed(self, timeout=120):
        Loop.until(lambda: self.completed is not None, timeout, 'Completed')
        return self.completed


class HelperTestBase(unittest.TestCase):
    fixture = FIXTURE
    idle_timeout = 30
    bench_dir = True

    def setUp(self):
        self.env = TestEnv(fixture=self.fixture, idle_timeout=self.idle_timeout,
                           bench_dir=self.bench_dir)
        self.env.start()
        self.addCleanup(self._stop_env)

    def _stop_env(self):
        if self._outcome_failed():
            print('--- bus log (helper output) ---\n' + self.env.log(), file=sys.stderr)
        self.env.stop()

    def _outcome_failed(self):
        res = getattr(self, '_outcome', None)
        errors = getattr(getattr(res, 'result', None), 'errors', []) + \
            getattr(getattr(res, 'result', None), 'failures', [])
        return any(t is self for t, _ in errors)

    # ---- helpers ------------------------------------------------------------
    def config_path(self):
        return os.path.join(self.env.root, CONFIG)

    def read_config(self):
        with open(self.config_path(), 'rb') as f:
            return f.read()

    def json_call(self, method, *args, conn=None):
        sig = {'Apply': '(sa{sv})', 'StartBenchmark': '(sa{sv})'}.get(method, '(a{sv})')
        if not args:
            args = ({},)
        return json.loads(self.env.call(method, sig, args, conn=conn)[0])

    def recommendation_id(self):
        recs = self.json_call('GetRecommendations')['recommendations']
        self.assertGreaterEqual(len(recs), 1, 'the fixture must have a recommendation')
        return recs[0]['id']

    def assertDBusError(self, name, fn, *args, **kw):
        with self.assertRaises(GLib.Error) as cm:
            fn(*args, **kw)
        self.assertEqual(error_name(cm.exception), name, cm.exception.message)
        return sdtharness.error_message(cm.exception)

    def helper_fds_in(self, directory):
        pid = self.env.helper_pid()
        fds = []
        for fd in os.listdir(f'/proc/{pid}/fd'):
            try:
                target = os.readlink(f'/proc/{pid}/fd/{fd}')
            except OSError:
                continue
            if target.startswith(directory + '/'):
                fds.append(target)
        return fds


class HelperTest(HelperTestBase):
    # ---- authorization ------------------------------------------------------
    def test_root_allowed(self):
        before = self.read_config()
        rec = self.recommendation_id()
        lines = self.json_call('GetRecommendations')['recommendations'][0]['lines']
        result = self.json_call('Apply', rec, {})
        self.assertEqual(result['id'], rec)
        after = self.read_config()
        self.assertNotEqual(before, after)
        for line in lines:
            self.assertIn(line.encode(), after)
        self.json_call('Revert', {})
        self.assertEqual(self.read_config(), before)
        job = Job(self.env, self.env.connect())
        result, err, msg = job.wait_completed()
        self.assertEqual((err, msg), ('', ''))
        self.assertEqual(json.loads(result)['profile'], 'quick')
        self.assertEqual(os.listdir(self.env.bench_dir), [])

    def test_nobody_denied_and_nothing_changes(self):
        rec = self.recommendation_id()
        before = tree_digest(self.env.root)
        for method, args in (('Apply', (rec, '{}')),
                             ('Apply', (rec, "{'auth.no_user_interaction': <true>}")),
                             ('Revert', ('{}',)),
                             ('StartBenchmark', ('quick', '{}')),
                             ('StartCheck', ('quick', '{}')),
                             # issue 32
                             ('StartCheck', ('quick', "{'dir': <b'/var/tmp'>}")),
                             ('StartSoak', ('{}',)),
                             ('StartVerify', ('{}',))):
            rc, out = self.env.gdbus_as('nobody', method, *args)
            self.assertNotEqual(rc, 0, out)
            action = {'StartBenchmark': 'benchmark', 'StartSoak': 'benchmark',
                      'StartCheck': 'check'}.get(method, 'modify-boot-config')
            why = (' and the caller asked not to be prompted (auth.no_user_interaction)'
                   if 'no_user_interaction' in args[-1] else
                   ', and no password dialog can appear here: no polkit authentication '
                   'agent is running for this session. Start SD Tuner from the desktop')
            self.assertIn(f"{NOT_AUTHORIZED}: Not authorized: org.example.sdtuner.{action} "
                          f"needs an administrator's password{why}", out)
        # an agent that answers "no"
        r = self.env.run_as(None, self.env.agent_cmd('deny', self.env.as_user_argv('nobody') +
                                                     self.env.gdbus_argv('Apply', rec, '{}')))
        self.assertNotEqual(r.returncode, 0)
        self.assertIn(NOT_AUTHORIZED + ': Not authorized: the password dialog was cancelled',
                      r.stderr)
        # an agent that finishes without authenticating (a wrong password, or lxpolkit's
        # Cancel, which polkitd reports the same way): not the policy
        r = self.env.run_as(None, self.env.agent_cmd('fail', self.env.as_user_argv('nobody') +
                                                     self.env.gdbus_argv('Apply', rec, '{}')))
        self.assertNotEqual(r.returncode, 0)
        self.assertIn(NOT_AUTHORIZED + ': Not authorized: the password dialog ended without a '
                      'correct password (it was cancelled, or the password was wrong)', r.stderr)
        self.assertEqual(tree_digest(self.env.root), before)
        self.assertEqual(os.listdir(self.env.bench_dir), [])
        # reading needs no authorization
        for method in ('GetInfo', 'GetRecommendations', 'GetStatus', 'GetHistory'):
            rc, out = self.env.gdbus_as('nobody', method, '{}')
            self.assertEqual(rc, 0, f'{method}: {out}')
        self.assertEqual(tree_digest(self.env.root), before)

    def test_nobody_with_agent_allowed(self):
        rec = self.recommendation_id()
        r = self.env.run_as(None, self.env.agent_cmd('allow', self.env.as_user_argv('nobody') +
                                                     self.env.gdbus_argv('Apply', rec, '{}')))
        self.assertEqual(r.returncode, 0, r.stderr)
        # the answer is the document's text (its codec's, indented as sdtunerctl --json)
        self.assertRegex(r.stdout, r'"id"\s*:\s*"%s"' % re.escape(rec))

    def test_rules_d_grant(self):
        rec = self.recommendation_id()
        before = self.read_config()
        self.env.add_polkit_rule('50-sdtuner-test.rules', '''
polkit.addRule(function(action, subject) {
    if (action.id == "org.example.sdtuner.modify-boot-config" && subject.user == "nobody")
        return polkit.Result.YES;
});
''')
        rc, out = self.env.gdbus_as('nobody', 'Apply', rec, "{'auth.no_user_interaction': <true>}")
        self.assertEqual(rc, 0, out)
        self.assertNotEqual(self.read_config(), before)
        rc, out = self.env.gdbus_as('nobody', 'Revert', "{'auth.no_user_interaction': <true>}")
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.read_config(), before)
        # the rule names one action only
        rc, out = self.env.gdbus_as('nobody', 'StartBenchmark', 'quick', '{}')
        self.assertNotEqual(rc, 0)
        self.assertIn(NOT_AUTHORIZED, out)
        rc, out = self.env.gdbus_as('daemon', 'Apply', rec, '{}')
        self.assertNotEqual(rc, 0)
        self.assertIn(NOT_AUTHORIZED, out)

    def test_policy_loaded_by_polkitd(self):
        """the built .policy, as polkitd reads it"""
        sdtharness.check_policy_read_by_polkitd(self, self.env,
                                                r'message: +Authentication is required to ')

    def test_polkitd_stopped_fails_closed(self):
        rec = self.recommendation_id()
        before = tree_digest(self.env.root)
        self.env.stop_polkitd()
        msg = self.assertDBusError(NOT_AUTHORIZED, self.env.call, 'Apply', '(sa{sv})', (rec, {}))
        self.assertIn('Could not check authorization with polkit, so the request is refused',
                      msg)
        self.assertDBusError(NOT_AUTHORIZED, self.env.call, 'Revert', '(a{sv})', ({},))
        self.assertDBusError(NOT_AUTHORIZED, self.env.call, 'StartBenchmark', '(sa{sv})',
                             ('quick', {}))
        self.assertEqual(tree_digest(self.env.root), before)
        self.assertIn('board', self.json_call('GetInfo'))

    # ---- jobs ---------------------------------------------------------------
    def test_cancel_only_by_starter(self):
        owner = self.env.connect()
        other = self.env.connect()
        job = Job(self.env, owner)
        job.wait_running()
        msg = self.assertDBusError(NOT_AUTHORIZED, job.cancel, conn=other)
        self.assertEqual(msg, 'Only the program that started this benchmark may cancel it')
        self.assertEqual(job.get('State', conn=other), 'running')
        self.assertDBusError(E + 'Busy', Job, self.env, other)
        job.cancel()
        result, err, msg = job.wait_completed(timeout=10)
        self.assertEqual((result, err), ('', E + 'Cancelled'))
        self.assertEqual(job.get('State'), 'cancelled')
        self.assertEqual(os.listdir(self.env.bench_dir), [])
        # readable for a few seconds after Completed, then unexported
        t0 = time.monotonic()

        def gone():
            try:
                job.get('State')
                return False
            except GLib.Error as e:
                return error_name(e) in ('org.freedesktop.DBus.Error.UnknownMethod',
                                         'org.freedesktop.DBus.Error.UnknownObject',
                                         'org.freedesktop.DBus.Error.UnknownInterface')
        sdtharness._wait_for(gone, 15, 'the finished job to be unexported')
        self.assertGreater(time.monotonic() - t0, 3)
        # a second benchmark may start now
        Job(self.env, other).cancel()

    def test_caller_disconnect_cancels_job(self):
        owner = self.env.connect()
        watcher = self.env.connect()
        job = Job(self.env, owner)
        seen = []
        watcher.signal_subscribe(None, JOB_IFACE, 'Completed', job.path, None,
                                 Gio.DBusSignalFlags.NONE,
                                 lambda *a: seen.append(a[-1].unpack()))
        job.wait_running()
        self.assertGreaterEqual(len(self.helper_fds_in(self.env.bench_dir)), 1,
                                'the engine should hold its test file open')
        owner.close_sync(None)
        Loop.until(lambda: seen, 10, 'Completed after the caller left')
        self.assertEqual(seen[0][1], E + 'Cancelled')
        self.assertEqual(os.listdir(self.env.bench_dir), [])
        self.assertEqual(self.helper_fds_in(self.env.bench_dir), [])
        self.assertIn('board', self.json_call('GetInfo', conn=watcher))

    def test_logind_inhibitor(self):
        """issue 26 item 2: the helper holds logind's shutdown:sleep block inhibitor while
        a benchmark runs and lets go of it at the end, on cancel and when it dies.  logind
        here is a MOCK (python-dbusmock's logind template: systemd-logind cannot run on
        the private bus); tests/vm/systemd checks the real one with systemd-inhibit.
        Without logind the job goes on and the helper's log says so."""
        job = Job(self.env, self.env.connect())
        job.wait_completed()
        self.assertEqual(job.completed[1], '', job.completed)
        self.assertIn('no logind inhibitor', self.env.log())

        mock = subprocess.Popen(['/usr/bin/python3', '-m', 'dbusmock', '--system', '--template',
                                 'logind'], env=self.env.environ, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        self.addCleanup(mock.wait)
        self.addCleanup(mock.terminate)
        conn = self.env.connect()

        def inhibitors():
            try:
                return conn.call_sync('org.freedesktop.login1', '/org/freedesktop/login1',
                                      'org.freedesktop.login1.Manager', 'ListInhibitors',
                                      None, None, Gio.DBusCallFlags.NONE, 5000,
                                      None).unpack()[0]
            except GLib.Error:
                return None
        Loop.until(lambda: inhibitors() is not None, 30, 'the mock logind on the bus')
        self.assertEqual(inhibitors(), [])

        def ours():
            return [i for i in inhibitors() or [] if i[1] == 'SD Tuner']
        for end in ('completed', 'cancelled', 'killed'):
            job = Job(self.env, self.env.connect())
            Loop.until(lambda: ours() or job.completed is not None, 30, 'the inhibitor')
            got = ours()
            self.assertEqual(len(got), 1, f'{end}: {inhibitors()}')
            what, who, why, mode = got[0][:4]
            self.assertEqual((what, mode), ('shutdown:sleep', 'block'))
            self.assertIn('benchmarking the SD card', why)
            if end == 'completed':
                job.wait_completed()
            elif end == 'cancelled':
                job.cancel()
                job.wait_completed()
            else:
                self.env.kill_helper()
            Loop.until(lambda: not ours(), 10, f'the inhibitor released ({end})')
        self.assertIn('logind inhibitor held (shutdown:sleep, block)', self.env.log())

    def test_helper_killed_leaves_no_file(self):
        job = Job(self.env, self.env.connect())
        job.wait_running()
        self.assertGreaterEqual(len(self.helper_fds_in(self.env.bench_dir)), 1)
        self.env.kill_helper()
        self.assertEqual(os.listdir(self.env.bench_dir), [])
        # the next call activates a new helper
        self.assertIn('board', self.json_call('GetInfo'))

    def test_dead_callers(self):
        """callers that leave before their answer: no job survives them, the
        helper keeps answering"""
        before = tree_digest(self.env.root, LOCK_PATHS)
        self.json_call('GetInfo')
        pid = self.env.helper_pid()
        for i in range(20):
            c = self.env.connect()
            for method, args in (('StartBenchmark', GLib.Variant('(sa{sv})', ('quick', {}))),
                                 ('Apply', GLib.Variant('(sa{sv})', ('unknown-id', {}))),
                                 ('GetInfo', GLib.Variant('(a{sv})', ({},)))):
                c.call(BUS_NAME, MANAGER_PATH, MANAGER_IFACE, method, args, None,
                       Gio.DBusCallFlags.NONE, -1, None, None, None)
            c.flush_sync(None)
            if i % 2:
                time.sleep(0.05)  # some leave after their job has started
            c.close_sync(None)

        # every job was cancelled with its caller: a new one is not Busy
        def can_start():
            try:
                Job(self.env, self.env.connect()).cancel()
                return True
            except GLib.Error as e:
                self.assertEqual(error_name(e), E + 'Busy', e.message)
                return False
        sdtharness._wait_for(can_start, 20, "the dead callers' jobs to end")
        self.assertEqual(self.env.helper_pid(), pid)
        sdtharness._wait_for(lambda: os.listdir(self.env.bench_dir) == [], 5, 'no test file')
        self.assertEqual(tree_digest(self.env.root, LOCK_PATHS), before)
        self.assertIn('board', self.json_call('GetInfo'))

    def test_concurrent_apply_serialized(self):
        rec = self.recommendation_id()
        line = self.json_call('GetRecommendations')['recommendations'][0]['lines'][0]
        before = self.read_config()
        conns = [self.env.connect() for _ in range(4)]
        replies = []

        def done(conn, res, i):
            try:
                replies.append(('ok', conn.call_finish(res).unpack()[0]))
            except GLib.Error as e:
                replies.append((error_name(e), sdtharness.error_message(e)))

        for i, c in enumerate(conns):
            c.call(BUS_NAME, MANAGER_PATH, MANAGER_IFACE, 'Apply',
                   GLib.Variant('(sa{sv})', (rec, {})), None, Gio.DBusCallFlags.NONE, 60000,
                   None, done, i)
        Loop.until(lambda: len(replies) == len(conns), 60, 'all Apply replies')
        print('concurrent Apply replies: ' + '; '.join(
            r[0] if r[0] == 'ok' else f'{r[0]}: {r[1]}'
            for r in replies), file=sys.stderr)
        oks = [r for r in replies if r[0] == 'ok']
        self.assertGreaterEqual(len(oks), 1, replies)
        for r in replies:  # the others fail cleanly or apply the same thing again
            self.assertTrue(r[0] == 'ok' or r[0].startswith(E), replies)
        after = self.read_config()
        # exactly one managed block, whatever order the calls ran in
        self.assertEqual(after.count(line.encode()), 1, after.decode(errors='replace'))
        self.json_call('Revert', {})
        self.assertEqual(self.read_config(), before)

    # ---- issue 9: the config writer under hostile files and kills ------------
    def test_fifo_tryboot_does_not_hang(self):
        """a FIFO as tryboot.txt is an error, and the helper keeps answering"""
        rec = self.recommendation_id()
        tryboot = os.path.join(self.env.root, 'boot', 'firmware', 'tryboot.txt')
        os.mkfifo(tryboot)
        before = self.read_config()
        conn = self.env.connect()
        start = time.monotonic()
        with self.assertRaises(GLib.Error) as cm:
            conn.call_sync(BUS_NAME, MANAGER_PATH, MANAGER_IFACE, 'Apply',
                           GLib.Variant('(sa{sv})', (rec, {'trial': GLib.Variant('b', True)})),
                           None, Gio.DBusCallFlags.NONE, 20000, None)
        self.assertEqual(error_name(cm.exception), E + 'InvalidData', cm.exception.message)
        self.assertIn('not a regular file', sdtharness.error_message(cm.exception))
        # the other calls are answered, none waits for a lock held by a blocked reader
        status = self.json_call('GetStatus')
        self.assertIsNone(status['trial'])
        self.assertIn('not a regular file', status.get('trial_error') or '')
        self.assertIn('board', self.json_call('GetInfo'))
        result = self.json_call('Apply', rec, {})
        self.assertTrue(result['changed'])
        # issue 23 item 5: a FIFO SD Tuner has no record of writing does not block the way
        # back: config.txt is reverted, the FIFO left and named in a warning
        result = self.json_call('Revert', {})
        self.assertTrue(any('tryboot.txt' in w for w in result['warnings']), result)
        self.assertEqual(self.read_config(), before)
        self.assertTrue(stat.S_ISFIFO(os.stat(tryboot).st_mode))
        print(f'FIFO tryboot.txt: refused, 4 more calls answered and the revert done in '
              f'{time.monotonic() - start:.1f} s', file=sys.stderr)
        os.unlink(tryboot)
        self.assertTrue(stat.S_ISREG(os.stat(self.config_path()).st_mode))

    def test_apply_nearly_full_state(self):
        """issue 23 item 1: over the bus too, an Apply that cannot save its pending record
        is an error reply and changes nothing; one that replies success has it.  The
        helper's state folder is a loop-mounted ext4 (1 KiB blocks) left with 0 to 6 KiB"""
        rec = self.recommendation_id()
        before = self.read_config()
        state = os.path.join(self.env.root, 'var', 'lib', 'sd-tuner')
        pending = os.path.join(state, 'pending.json')
        image = os.path.join(self.env.work, 'state.img')
        with open(image, 'wb') as f:
            f.truncate(1 << 20)
        self.addCleanup(os.unlink, image)
        subprocess.run(['mkfs.ext4', '-q', '-F', '-b', '1024', '-m', '0', '-O', '^has_journal', '-N', '64',
                        image], check=True, capture_output=True)
        os.makedirs(state, exist_ok=True)
        subprocess.run(['mount', '-o', 'loop', image, state], check=True)
        self.addCleanup(lambda: subprocess.run(['umount', state]).returncode == 0 or
                        subprocess.run(['umount', '--lazy', state]))
        for d in ('backups', 'history'):
            os.makedirs(os.path.join(state, d), exist_ok=True)
        outcomes = []
        for leave in range(0, 7):
            filler = os.path.join(state, 'filler')
            with open(filler, 'wb') as f:
                st = os.statvfs(state)
                f.write(b'\0' * max(st.f_bavail * st.f_frsize - leave * 1024, 0))
            free = os.statvfs(state).f_bavail * 1024
            try:
                res = self.json_call('Apply', rec, {})
            except GLib.Error as e:
                outcomes.append((free, 'error reply'))
                self.assertEqual(self.read_config(), before, e.message)
                self.assertFalse(os.path.exists(pending), e.message)
                self.assertEqual([n for n in os.listdir(os.path.join(state, 'history')) if n != '.lock'], [],
                                 e.message)
                os.unlink(filler)
                continue
            outcomes.append((free, 'applied'))
            self.assertTrue(res['changed'], res)
            self.assertTrue(os.path.exists(pending), f'{free} bytes free: Apply replied success '
                            'without the pending record')
            # issue 33: nor without its history entry (it was lost with a warning on stderr)
            applies = [e for e in self.json_call('GetHistory')['entries'] if e['kind'] == 'apply']
            self.assertEqual(len(applies), 1, f'{free} bytes free: Apply replied success without '
                             'its history entry')
            os.unlink(filler)
            self.json_call('Revert', {})
            self.assertEqual(self.read_config(), before)
            for name in os.listdir(os.path.join(state, 'history')):
                if name != '.lock':
                    os.unlink(os.path.join(state, 'history', name))
        print('Apply over the bus with a nearly-full state folder: ' +
              ', '.join(f'{f} B free: {o}' for f, o in outcomes), file=sys.stderr)
        self.assertEqual({o for _, o in outcomes}, {'error reply', 'applied'}, outcomes)

    def test_no_system_bus(self):
        """issue 33: a helper started with no system bus says so and exits 1 after its
        start-up repair, with no GLib-GIO-CRITICAL (fatal under the tests' G_DEBUG: it
        unexported interfaces it had never exported)"""
        argv = self.env.helper_argv()
        env = dict(os.environ, G_DEBUG='gc-friendly,fatal-criticals', LANGUAGE='C',
                   DBUS_SYSTEM_BUS_ADDRESS=f'unix:path={self.env.work}/no-bus-here')
        env.pop('DBUS_STARTER_ADDRESS', None)
        p = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn('cannot connect to the system bus', p.stderr)
        self.assertNotIn('CRITICAL', p.stderr)

    def test_state_folder_of_another_user(self):
        """issue 33: a state folder of another user (nobody), or one others may write, makes
        Apply and GetHistory an error reply naming it and what to do; nothing changes in it
        nor in config.txt"""
        import pwd
        nobody = pwd.getpwnam('nobody')
        rec = self.recommendation_id()
        before = self.read_config()
        state = os.path.join(self.env.root, 'var', 'lib', 'sd-tuner')
        os.makedirs(os.path.join(state, 'history'), exist_ok=True)
        for uid, mode, word in ((nobody.pw_uid, 0o755, 'belongs to another user'),
                                (0, 0o777, 'may be written by other users')):
            os.chown(state, uid, -1)
            os.chmod(state, mode)
            listing = sorted(os.listdir(state))
            for method, args in (('Apply', (rec, {})), ('GetHistory', ())):
                with self.assertRaises(GLib.Error) as cm:
                    self.json_call(method, *args)
                said = sdtharness.error_message(cm.exception)
                self.assertIn(word, said, f'{method}: {said}')
                self.assertIn('changed nothing', said, f'{method}: {said}')
            st = os.stat(state)
            self.assertEqual((st.st_uid, st.st_mode & 0o7777, sorted(os.listdir(state))),
                             (uid, mode, listing))
            self.assertEqual(self.read_config(), before)
        os.chown(state, 0, -1)
        os.chmod(state, 0o700)
        self.assertTrue(self.json_call('Apply', rec, {})['changed'])

    def test_apply_revert_loops_with_kills(self):
        """several clients apply and revert in loops while the helper is killed at
        random: after every step config.txt is the old or the new file, never partial"""
        rec = self.recommendation_id()
        old = self.read_config()
        self.json_call('Apply', rec, {})
        new = self.read_config()
        self.assertNotEqual(new, old)
        self.json_call('Revert', {})
        self.assertEqual(self.read_config(), old)

        rng = random.Random(int(os.environ.get('SDTUNER_TEST_SEED', '9')))
        n_clients = 3
        steps = 25
        conns = [self.env.connect() for _ in range(n_clients)]
        bad = []
        outcomes = {}
        lock = threading.Lock()
        stop = threading.Event()
        kills = [0]

        def check(what):
            data = self.read_config()
            if data not in (old, new):
                bad.append((what, data))

        def client(i):
            r = random.Random(rng.random())
            for step in range(steps):
                method = r.choice(['Apply', 'Revert'])
                args = GLib.Variant('(sa{sv})', (rec, {})) if method == 'Apply' \
                    else GLib.Variant('(a{sv})', ({},))
                try:
                    conns[i].call_sync(BUS_NAME, MANAGER_PATH, MANAGER_IFACE, method, args,
                                       None, Gio.DBusCallFlags.NONE, 60000, None)
                    name = 'ok'
                except GLib.Error as e:
                    name = error_name(e) or e.message
                with lock:
                    outcomes[(method, name)] = outcomes.get((method, name), 0) + 1
                check(f'client {i} step {step} {method} -> {name}')

        def killer():
            r = random.Random(rng.random())
            while not stop.wait(r.uniform(0.0, 0.25)):
                pid = self.env.helper_pid()
                if pid is not None:
                    try:
                        os.kill(pid, signal.SIGKILL)
                        kills[0] += 1
                    except ProcessLookupError:
                        pass

        def watcher():
            while not stop.is_set():
                check('watcher')
                time.sleep(0.002)

        threads = [threading.Thread(target=client, args=(i,)) for i in range(n_clients)]
        side = [threading.Thread(target=killer), threading.Thread(target=watcher)]
        for t in threads + side:
            t.start()
        for t in threads:
            t.join(600)
        stop.set()
        for t in side:
            t.join(10)
        print(f'apply/revert loops: {n_clients} clients x {steps} steps, {kills[0]} kills; '
              f'outcomes {sorted(outcomes.items())}', file=sys.stderr)
        self.assertEqual(bad[:3], [])
        self.assertGreater(kills[0], 0)
        allowed = {'ok', E + 'NotFound', E + 'Busy', 'org.freedesktop.DBus.Error.NoReply'}
        for (method, name), count in outcomes.items():
            self.assertIn(name, allowed, (method, name, count))
        self.assertGreater(outcomes.get(('Apply', 'ok'), 0) + outcomes.get(('Revert', 'ok'), 0), 0)
        # whatever state the kills left, the way back works and leaves no stray file
        status = self.json_call('GetStatus')
        self.assertIsNone(status['error'], status)
        try:
            self.json_call('Revert', {})
        except GLib.Error as e:
            self.assertEqual(error_name(e), E + 'NotFound', e.message)
        self.assertEqual(self.read_config(), old)
        boot = os.path.dirname(self.config_path())
        self.assertEqual([f for f in os.listdir(boot) if '.sd-tuner-tmp-' in f], [])

    def test_idle_exit_not_while_job_runs(self):
        self.env.stop()
        self.env = TestEnv(fixture=self.fixture, idle_timeout=2)
        self.env.start()
        self.json_call('GetInfo')
        pid = self.env.helper_pid()
        self.assertIsNotNone(pid)
        sdtharness._wait_for(lambda: self.env.helper_pid() is None, 10, 'idle exit')
        job = Job(self.env, self.env.connect(), profile='quick')
        job.wait_completed()
        # the job ran longer than the idle timeout without the helper leaving
        self.assertEqual(job.completed[1], '')

    # ---- bad input ----------------------------------------------------------
    def test_bad_arguments(self):
        cases = [
            ('Apply', '(sa{sv})', ('', {}), 'InvalidArgument'),
            ('Apply', '(sa{sv})', ('../../etc/passwd', {}), 'InvalidArgument'),
            ('Apply', '(sa{sv})', ('a/b', {}), 'InvalidArgument'),
            ('Apply', '(sa{sv})', ('..', {}), 'InvalidArgument'),
            ('Apply', '(sa{sv})', ('x' * (1 << 20), {}), 'InvalidArgument'),
            ('Apply', '(sa{sv})', ('no-such-id', {}), 'NotFound'),
            ('Apply', '(sa{sv})', ('sd-overclock-100', {'trial': GLib.Variant('s', 'yes')}),
             'InvalidArgument'),
            ('Apply', '(sa{sv})', ('sd-overclock-100',
                                   {'auth.no_user_interaction': GLib.Variant('i', 1)}),
             'InvalidArgument'),
            ('StartBenchmark', '(sa{sv})', ('turbo', {}), 'InvalidArgument'),
            ('StartBenchmark', '(sa{sv})', ('x' * (1 << 20), {}), 'InvalidArgument'),
            ('Revert', '(a{sv})', ({},), 'NotFound'),
        ]
        before = tree_digest(self.env.root, LOCK_PATHS)
        for method, sig, args, want in cases:
            with self.subTest(method=method, arg=str(args)[:40]):
                msg = self.assertDBusError(E + want, self.env.call, method, sig, args)
                self.assertLess(len(msg), 400)
        self.assertEqual(tree_digest(self.env.root, LOCK_PATHS), before)

    def test_missing_config_txt(self):
        rec = self.recommendation_id()
        os.unlink(self.config_path())
        msg = self.assertDBusError(E + 'NotFound', self.env.call, 'Apply', '(sa{sv})',
                                   (rec, {}))
        self.assertIn('config.txt', msg)
        self.assertFalse(os.path.exists(self.config_path()))

    def test_broken_config_txt(self):
        rec = self.recommendation_id()
        with open(self.config_path(), 'wb') as f:
            f.write(b'dtparam=audio=on\n\0\0\0garbage\n')
        before = tree_digest(self.env.root)
        msg = self.assertDBusError(E + 'InvalidData', self.env.call, 'Apply', '(sa{sv})',
                                   (rec, {}))
        self.assertIn('config.txt', msg)
        self.assertEqual(tree_digest(self.env.root), before)

    def test_fuzz(self):
        """1,000 wrong calls as root: each gets an error, the helper never restarts"""
        conn = self.env.connect()
        self.json_call('GetInfo', conn=conn)
        pid = self.env.helper_pid()
        before = tree_digest(self.env.root, LOCK_PATHS)
        summary = sdtfuzz.run(conn, total=1000, seed=20261130,
                              alive=lambda: self.json_call('GetInfo', conn=conn))
        print(sdtfuzz.describe(summary), file=sys.stderr)
        self.assertEqual(summary['ok'], 0)
        self.assertEqual(sum(summary['errors'].values()), 1000)
        self.assertEqual(summary['alive_checks'], 5)
        # every method of the Manager (as the helper introspects it) got wrong calls
        self.assertEqual(sdtfuzz.manager_methods(conn) - set(summary['methods']), set())
        self.assertEqual(self.env.helper_pid(), pid, 'the helper restarted')
        self.assertEqual(tree_digest(self.env.root, LOCK_PATHS), before)
        self.assertEqual(os.listdir(self.env.bench_dir), [])
        self.assertIn('board', self.json_call('GetInfo', conn=conn))

    def test_fuzz_unprivileged(self):
        """1,000 calls as nobody, right signatures for privileged methods included:
        errors only, nothing written at all (not even a lock file)"""
        self.json_call('GetInfo')
        pid = self.env.helper_pid()
        before = tree_digest(self.env.root)
        r = self.env.run_as('nobody', ['/usr/bin/python3', sdtfuzz.__file__, '--total', '1000',
                                       '--seed', '20261201', '--privileged-valid',
                                       '--id', self.recommendation_id()], timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        summary = json.loads(r.stdout)
        print(sdtfuzz.describe(summary), file=sys.stderr)
        self.assertEqual(summary['ok'], 0)
        self.assertEqual(sum(summary['errors'].values()), 1000)
        self.assertGreater(summary['errors'].get(NOT_AUTHORIZED, 0), 50)
        self.assertEqual(summary['alive_checks'], 5)
        # every method of the Manager, and every privileged one also with its right signature
        self.assertEqual(sdtfuzz.manager_methods(self.env.connect()) - set(summary['methods']),
                         set())
        self.assertEqual(self.env.helper_pid(), pid, 'the helper restarted')
        self.assertEqual(tree_digest(self.env.root), before)
        self.assertEqual(os.listdir(self.env.bench_dir), [])


class NoCardTest(HelperTestBase):
    fixture = NO_CARD_FIXTURE
    bench_dir = False  # the helper must look for the card and find none

    def test_no_card(self):
        info = self.json_call('GetInfo')
        self.assertFalse(info['card']['present'])
        job = Job(self.env, self.env.connect())
        result, err, msg = job.wait_completed(timeout=30)
        self.assertEqual((result, err), ('', E + 'NotFound'))
        self.assertIn('card', msg.lower())
        self.assertEqual(os.listdir(self.env.bench_dir), [])


class SlowStartTest(HelperTestBase):
    """The environment on a loaded machine: CI once saw polkitd take over 15 s to take its
    name (the emulated Pis run beside these tests), and the harness gave up at 15 s."""
    delay = 20

    def setUp(self):
        work = tempfile.mkdtemp(prefix='sdt-slow-polkitd-')
        self.addCleanup(shutil.rmtree, work)
        wrapper = os.path.join(work, 'polkitd')
        with open(wrapper, 'w') as f:
            f.write(f'#!/bin/sh\nsleep {self.delay}\nexec {sdtharness.POLKITD}\n')
        os.chmod(wrapper, 0o755)
        real, sdtharness.POLKITD = sdtharness.POLKITD, wrapper
        self.addCleanup(setattr, sdtharness, 'POLKITD', real)
        t0 = time.monotonic()
        super().setUp()
        self.start_seconds = time.monotonic() - t0

    def test_slow_polkitd_start(self):
        # the environment waited for it, and polkitd is the one that answers
        self.assertGreaterEqual(self.start_seconds, self.delay)
        rec = self.recommendation_id()
        rc, out = self.env.gdbus_as('nobody', 'Apply', rec, '{}')
        self.assertNotEqual(rc, 0, out)
        self.assertIn(f"{NOT_AUTHORIZED}: Not authorized: org.example.sdtuner.modify-boot-config "
                      "needs an administrator's password", out)


class FailedStartTest(unittest.TestCase):
    """The environment's own start, when a service does not come up."""

    def test_failed_start_leaves_nothing(self):
        # a polkitd that does not come up: the start fails, and what it had started (the
        # bus, the folders) is gone; it was all left before
        env = sdtharness.TestEnv(fixture=FIXTURE)
        real, sdtharness.POLKITD = sdtharness.POLKITD, '/bin/false'
        self.addCleanup(setattr, sdtharness, 'POLKITD', real)
        with self.assertRaisesRegex(RuntimeError, 'polkitd failed'):
            env.start()
        self.assertIsNotNone(env.work)
        self.assertFalse(os.path.exists(env.work), env.work)
        self.assertEqual([p.args for p in env.procs if p.poll() is None], [])

if __name__ == '__main__':
    if os.geteuid() != 0:
        print('SKIP: the helper integration tests need root', file=sys.stderr)
        sys.exit(77)
    unittest.main(verbosity=2)
