#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: cli-bus-{case} suite=integration timeout=120 run=exec needs=polkit
#    env=integration cases=methods:CliBusTest args={id}
#    depends=sd_tuner_helper,sdtunerctl,polkit_policy
"""sdtunerctl without --root is a client of sd-tuner-helper: same output as
--root mode, polkit refusals as exit status 1, bench over the bus with Ctrl-C.
Each test gets its own private bus, real polkitd and helper (sdtharness.py).
Run as root: tests/integration/test_cli_bus.py
"""

import json
import os
import select
import signal
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sdtharness  # noqa: E402
from sdtharness import BUILDDIR, TestEnv, _wait_for  # noqa: E402

# a UTF-8 locale that is not C for LANGUAGE to count: glibc 2.41 ignores it under C.UTF-8
# (tests/meson.build compiles en_US.UTF-8 into LOCPATH)
TEST_LOCALE = os.environ.get('SDTUNER_TEST_LOCALE', 'C.UTF-8')

FIXTURE = os.environ.get('SDTUNER_TEST_FIXTURE', 'rpi3')
SDTUNERCTL = os.path.join(BUILDDIR, 'src', 'cli', 'sdtunerctl')
FORGER = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'forge-job-signal.py')
E = 'org.example.SdTuner1.Error.'


class CliBusTest(unittest.TestCase):
    def setUp(self):
        self.env = TestEnv(fixture=FIXTURE)
        self.env.start()
        self.addCleanup(self.env.stop)
        self.config = os.path.join(self.env.root, 'boot', 'firmware', 'config.txt')

    def ctl(self, *args, user=None, timeout=120):
        """sdtunerctl over the bus, as root or another user"""
        return self.env.run_as(user, [SDTUNERCTL] + list(args), timeout=timeout,
                               stdin=subprocess.DEVNULL)

    def ctl_root_mode(self, *args):
        """sdtunerctl --root on the same root and device data, in-process"""
        umockdev = sdtharness.fixture_paths(FIXTURE)[1]
        argv = [SDTUNERCTL, '--root', self.env.root] + list(args)
        if os.path.exists(umockdev):
            argv = ['umockdev-run', '-d', umockdev, '--'] + argv
        return self.env.run_as(None, argv, stdin=subprocess.DEVNULL)

    def test_same_output_as_root_mode(self):
        for cmd in (['info'], ['recommend'], ['status'], ['history']):
            for fmt in (['--json'], []):
                with self.subTest(cmd=cmd, fmt=fmt):
                    bus = self.ctl(*fmt, *cmd)
                    local = self.ctl_root_mode(*fmt, *cmd)
                    self.assertEqual(bus.returncode, 0, bus.stderr)
                    self.assertEqual(local.returncode, 0, local.stderr)
                    self.assertEqual(bus.stdout, local.stdout)
                    if fmt:
                        self.assertIsInstance(json.loads(bus.stdout), dict)
        # with SD Tuner's change in place and a history entry
        rec = json.loads(self.ctl('--json', 'recommend').stdout)['recommendations'][0]
        self.assertEqual(self.ctl('apply', rec['id']).returncode, 0)
        for cmd in (['status'], ['history'], ['info']):
            for fmt in (['--json'], []):
                with self.subTest(cmd=cmd, fmt=fmt, applied=True):
                    bus = self.ctl(*fmt, *cmd)
                    local = self.ctl_root_mode(*fmt, *cmd)
                    self.assertEqual(bus.returncode, 0, bus.stderr)
                    self.assertEqual(bus.stdout, local.stdout)
        history = json.loads(self.ctl('--json', 'history').stdout)['entries']
        self.assertEqual([e['kind'] for e in history], ['apply'])

    def test_japanese_same_as_root_mode(self):
        """The helper answers in English (its JSON is for programs); sdtunerctl translates
        that text when it shows it. In Japanese, the human output over the bus is the
        same as in-process, where the library's text is translated where it is made;
        the JSON is English and the same both ways."""
        saved = dict(self.env.environ)
        self.addCleanup(lambda: (self.env.environ.clear(), self.env.environ.update(saved)))
        self.env.environ.update(LANGUAGE='ja', LC_ALL=TEST_LOCALE,
                                SDTUNER_LOCALEDIR=os.path.join(BUILDDIR, 'po'))
        english = self.ctl('--json', 'recommend').stdout
        rec = json.loads(english)['recommendations'][0]
        for step in ('before', 'applied'):
            for cmd in (['info'], ['recommend'], ['status'], ['history']):
                with self.subTest(cmd=cmd, step=step):
                    bus = self.ctl(*cmd)
                    local = self.ctl_root_mode(*cmd)
                    self.assertEqual(bus.returncode, 0, bus.stderr)
                    self.assertEqual(bus.stdout, local.stdout)
                    # Japanese text, not only the labels
                    self.assertRegex(bus.stdout, '[\u3040-\u30ff]')
                    json_bus = self.ctl('--json', *cmd).stdout
                    self.assertEqual(json_bus, self.ctl_root_mode('--json', *cmd).stdout)
                    self.assertNotRegex(json_bus, '[\u3040-\u30ff]')
            if step == 'before':
                self.assertIn('SD カードを 100 MHz で動かす', self.ctl('recommend').stdout)
                self.assertEqual(self.ctl('apply', rec['id']).returncode, 0)

    def test_japanese_health_and_history(self):
        """issue 24: what the helper sends in English (the wear estimate's assumption,
        the notes, the register verdict) and the identifiers the history stores (the
        kinds check and soak, test ids, reason codes) are shown in Japanese over the bus,
        as in-process; the JSON stays English."""
        hist = os.path.join(self.env.root, 'var', 'lib', 'sd-tuner', 'history')
        os.makedirs(hist, exist_ok=True)
        entries = [
            {'kind': 'check', 'time': '2026-01-01T00:00:00Z', 'verdict': 'genuine',
             'reason': 'No fake found.'},
            {'kind': 'soak', 'time': '2026-01-01T00:01:00Z', 'profile': 'soak',
             'target': {'path': '/var/tmp', 'stand_in': False}, 'tests': [],
             'soak': {'bytes_written': 1048576, 'bytes_checked': 1048576, 'mismatches': 0}},
            {'kind': 'verify', 'time': '2026-01-01T00:02:00Z', 'pending': True,
             'id': 'sd-overclock-100', 'decision': 'undo',
             'reason': 'A figure got worse by more than its spread (seq-write: 9.2 → 8.2 '
                       'MB/s (-12%, ±0.1/±0.1)), so the change was undone.',
             'reason_code': 'figure-worse',
             'reason_args': [['seq-write: 9.2 → 8.2 MB/s (-12%, ±0.1/±0.1)']]}]
        for i, e in enumerate(entries):
            with open(os.path.join(hist, f'{1700000000000000 + i:016d}-{e["kind"]}.json'),
                      'w') as f:
                json.dump(e, f)
        saved = dict(self.env.environ)
        self.addCleanup(lambda: (self.env.environ.clear(), self.env.environ.update(saved)))
        self.env.environ.update(LANGUAGE='ja', LC_ALL=TEST_LOCALE,
                                SDTUNER_LOCALEDIR=os.path.join(BUILDDIR, 'po'))
        english = json.loads(self.ctl('--json', 'health').stdout)
        self.assertIsNotNone(english['projection'], 'the sim card has a wear estimate')
        for cmd in (['health'], ['history']):
            with self.subTest(cmd=cmd):
                bus = self.ctl(*cmd)
                local = self.ctl_root_mode(*cmd)
                self.assertEqual(bus.returncode, 0, bus.stderr)
                self.assertEqual(bus.stdout, local.stdout)
                self.assertRegex(bus.stdout, '[\u3040-\u30ff]')
        health = self.ctl('health').stdout
        self.assertNotIn(english['projection']['assumption'], health)
        for note in english['notes']:
            self.assertNotIn(note, health)
        self.assertIn('レジスタ', health)
        history = self.ctl('history').stdout
        self.assertEqual(len(history.splitlines()), len(entries), history)
        self.assertNotRegex(history, r'\bseq-write\b')
        self.assertIn('シーケンシャル書き込み', history)
        self.assertNotIn(entries[2]['reason'], history)

    def test_helper_in_japanese_answers_in_english(self):
        """The helper's JSON and errors are for programs: English and C numbers even when
        the system locale it starts under is Japanese (a Pi set up in Japanese)."""
        self.env.stop()

        class JapaneseHelperEnv(TestEnv):
            def helper_argv(self):
                return ['/usr/bin/env', 'LANG=' + TEST_LOCALE, 'LANGUAGE=ja',
                        'LOCPATH=' + os.environ.get('LOCPATH', ''),
                        'SDTUNER_LOCALEDIR=' + os.path.join(BUILDDIR, 'po')] + \
                    super().helper_argv()

        self.env = JapaneseHelperEnv(fixture=FIXTURE)
        self.env.start()
        self.addCleanup(self.env.stop)
        for cmd in (['recommend'], ['info'], ['status'], ['apply', 'no-such-id']):
            with self.subTest(cmd=cmd):
                bus = self.ctl('--json', *cmd)
                local = self.ctl_root_mode('--json', *cmd)
                self.assertEqual(bus.stdout, local.stdout)
                self.assertNotRegex(bus.stdout, '[\u3040-\u30ff]')

    def test_apply_and_revert_over_the_bus(self):
        with open(self.config, 'rb') as f:
            before = f.read()
        rec = json.loads(self.ctl('--json', 'recommend').stdout)['recommendations'][0]
        r = self.ctl('apply', rec['id'])
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(self.config, 'rb') as f:
            self.assertIn(rec['lines'][0].encode(), f.read())
        r = self.ctl('revert')
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(self.config, 'rb') as f:
            self.assertEqual(f.read(), before)
        r = self.ctl('revert')
        self.assertEqual(r.returncode, 1)

    def test_nobody_refused_with_exit_1(self):
        with open(self.config, 'rb') as f:
            before = f.read()
        rec = json.loads(self.ctl('--json', 'recommend').stdout)['recommendations'][0]
        r = self.ctl('--json', 'apply', rec['id'], user='nobody')
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn('Not authorized', r.stderr)
        self.assertEqual(json.loads(r.stdout)['error']['name'], E + 'NotAuthorized')
        with open(self.config, 'rb') as f:
            self.assertEqual(f.read(), before)
        # with an agent that answers for an administrator, the same call works
        r = self.env.run_as(None, self.env.agent_cmd(
            'allow', self.env.as_user_argv('nobody') + [SDTUNERCTL, 'apply', rec['id']]))
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_terminal_password_prompt(self):
        """as udisksctl: in a terminal, sdtunerctl asks for the administrator's
        password itself (polkit's text agent for its own process)"""
        with open(self.config, 'rb') as f:
            before = f.read()
        rec = json.loads(self.ctl('--json', 'recommend').stdout)['recommendations'][0]
        # polkit-agent-helper-1 is setuid: it ignores DBUS_SYSTEM_BUS_ADDRESS and uses
        # /run/dbus, and it asks PAM; in a private mount namespace the test bus is
        # /run/dbus and PAM accepts any password (TEST-RECIPES.md sections 2 and 3)
        pam = os.path.join(self.env.work, 'pam-polkit-1')
        with open(pam, 'w') as f:
            f.write('auth sufficient pam_permit.so\naccount sufficient pam_permit.so\n')
        os.makedirs('/run/dbus', exist_ok=True)
        inner = ' '.join(self.env.as_user_argv('nobody') + [SDTUNERCTL, 'apply', rec['id']])
        ns = (f"mount --bind '{pam}' /usr/lib/pam.d/polkit-1 && "
              f"mount --bind '{self.env.busdir}' /run/dbus && "
              f"exec script -qec \"{inner}\" /dev/null")
        # PAM accepts without a prompt, so nothing needs to be typed
        p = subprocess.run(['unshare', '-m', '--propagation', 'private', 'sh', '-c', ns],
                           env=self.env.environ, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
        out = p.stdout
        text = out.decode(errors='replace')
        self.assertEqual(p.returncode, 0, text)
        self.assertIn('==== AUTHENTICATING FOR org.example.sdtuner.modify-boot-config ====', text)
        self.assertIn('Authenticating as: root', text)
        self.assertIn('==== AUTHENTICATION COMPLETE ====', text)
        with open(self.config, 'rb') as f:
            after = f.read()
        self.assertNotEqual(after, before)
        self.assertIn(rec['lines'][0].encode(), after)

    def test_bench_over_the_bus(self):
        r = self.ctl('--json', 'bench', '--profile', 'quick')
        self.assertEqual(r.returncode, 0, r.stderr)
        result = json.loads(r.stdout)
        self.assertEqual(result['profile'], 'quick')
        names = {t['name'] for t in result['tests']}
        self.assertTrue({'seq-write', 'seq-read', 'rand-4k-read-qd1'} <= names, names)
        # the helper's --bench-dir is a stand-in for the card, and says so
        self.assertIs(result['target']['stand_in'], True)
        self.assertIs(result['verdict']['stand_in'], True)
        r = self.ctl('bench', '--profile', 'quick')
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(r.stdout.startswith('STAND-IN, NOT THE SD CARD: test file in '), r.stdout)
        self.assertNotIn('\nA1: ', r.stdout)
        # the result went through the helper: it is in the history the helper keeps
        history = json.loads(self.ctl('--json', 'history').stdout)
        self.assertEqual([e['kind'] for e in history['entries']], ['bench', 'bench'])
        self.assertTrue(all(e['target']['stand_in'] for e in history['entries']))
        self.assertEqual(os.listdir(self.env.bench_dir), [])

    def test_bench_ctrl_c_cancels_the_job(self):
        p = subprocess.Popen([SDTUNERCTL, 'bench', '--profile', 'standard'], env=self.env.environ,
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        try:
            def file_open():
                pid = self.env.helper_pid()
                if pid is None:
                    return False
                for fd in os.listdir(f'/proc/{pid}/fd'):
                    try:
                        if os.readlink(f'/proc/{pid}/fd/{fd}').startswith(self.env.bench_dir):
                            return True
                    except OSError:
                        pass
                return False
            _wait_for(file_open, 60, 'the helper to open its test file')
            t0 = time.monotonic()
            p.send_signal(signal.SIGINT)
            out, err = p.communicate(timeout=20)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
        self.assertEqual(p.returncode, 1, err)
        self.assertLess(time.monotonic() - t0, 5)
        self.assertIn('ancel', err)
        self.assertEqual(os.listdir(self.env.bench_dir), [])

    def test_forged_completed_is_ignored(self):
        """another local user emits the job's Completed first, broadcast and sent straight
        to every connection, with invented numbers: sdtunerctl matches the job's signals on
        the helper's unique name and prints the helper's own result"""
        forger = subprocess.Popen(self.env.as_user_argv('nobody') + ['/usr/bin/python3', FORGER],
                                  env=self.env.environ, stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            ready, _, _ = select.select([forger.stdout], [], [], 60)
            self.assertTrue(ready and forger.stdout.readline().strip() == 'ready',
                            'the forger did not start')
            r = self.ctl('--json', 'bench', '--profile', 'quick')
        finally:
            forger.kill()
            out, err = forger.communicate()
        forged = [line for line in out.splitlines() if line.startswith('forged /org/example/')]
        self.assertTrue(forged, 'the forger emitted no Completed signal: ' + err)
        self.assertEqual(r.returncode, 0, r.stderr)
        result = json.loads(r.stdout)
        self.assertNotEqual(result['target']['path'], '/forged', 'the forged result was taken')
        self.assertTrue(all(t['mb_s'] != 999999.0 for t in result['tests']), result['tests'])
        # what sdtunerctl printed is what the helper measured and recorded
        history = json.loads(self.ctl('--json', 'history').stdout)['entries']
        self.assertEqual([e['kind'] for e in history], ['bench'])
        self.assertEqual(history[0]['tests'], result['tests'])
        self.assertEqual(history[0]['target']['path'], result['target']['path'])

    def test_stale_history_temp_files_removed_at_start(self):
        """a history write killed before its rename leaves <entry>.json.XXXXXX; the helper
        removes such files when it starts, and only those"""
        history = os.path.join(self.env.root, 'var', 'lib', 'sd-tuner', 'history')
        os.makedirs(history, exist_ok=True)
        stale = os.path.join(history, '1764579600000000-bench.json.Ab3dE9')
        entry = os.path.join(history, '1764579600000001-apply.json')
        other = os.path.join(history, 'README.json.Ab3dE9')
        for path, text in ((stale, '{"kind": "be'),
                           (entry, '{"kind": "apply", "time": "2025-12-01T09:40:00Z", "id": "x"}'),
                           (other, 'not ours')):
            with open(path, 'w') as f:
                f.write(text)
        if self.env.helper_pid() is not None:
            self.env.kill_helper()
        r = self.ctl('--json', 'history')   # activates the helper
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertFalse(os.path.exists(stale), os.listdir(history))
        self.assertTrue(os.path.exists(entry))
        self.assertTrue(os.path.exists(other))
        self.assertEqual([e['kind'] for e in json.loads(r.stdout)['entries']], ['apply'])

    def test_no_helper_is_a_clear_error(self):
        os.unlink(os.path.join(self.env.busdir, 'system-services', 'org.example.SdTuner1.service'))
        subprocess.run(['gdbus', 'call', '--system', '-d', 'org.freedesktop.DBus', '-o',
                        '/org/freedesktop/DBus', '-m', 'org.freedesktop.DBus.ReloadConfig'],
                       env=self.env.environ, capture_output=True, check=True)
        # what needs the service says what to install, or the command that works without it
        for args in (['revert'], ['apply', 'sd-overclock-100'],
                     ['bench', '--profile', 'quick'], ['apply', 'sd-overclock-100', '--trial']):
            for user, prefix in ((None, 'sdtunerctl --root / '),
                                 ('nobody', 'sudo sdtunerctl --root / ')):
                with self.subTest(args=args, user=user):
                    r = self.ctl(*args, user=user)
                    self.assertEqual(r.returncode, 1, r.stderr)
                    self.assertIn("SD Tuner's system service (sd-tuner-helper) is not installed",
                                  r.stderr)
                    self.assertIn('Install the sd-tuner package', r.stderr)
                    self.assertIn(prefix + ' '.join(args), r.stderr)
                    self.assertNotIn('--root DIR', r.stderr)
                    self.assertNotIn('a copy', r.stderr)
        # reading falls back to this machine, and says so
        r = self.ctl('--json', 'info')
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('reading this machine directly', r.stderr)
        self.assertIn('board', json.loads(r.stdout))

if __name__ == '__main__':
    if os.geteuid() != 0:
        print('SKIP: the helper integration tests need root', file=sys.stderr)
        sys.exit(77)
    unittest.main(verbosity=2)
