#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: cli-user-{case} suite=integration timeout=180 run=exec needs=polkit
#    env=integration cases=methods:CliUserTest args={id}
#    depends=sd_tuner_helper,sdtunerctl,polkit_policy
"""Issue 32: without passwordless sudo, `sdtunerctl verify` and `sdtunerctl bench
--profile soak` work for a normal user through the helper (StartVerify, StartSoak), asking
for the administrator's password in the terminal (polkit's text agent, driven through a
real pty and a real polkitd, PAM answering in a private mount namespace): the same result
as root in-process; a wrong password or no agent is refused (exit 1) and changes nothing;
bad arguments over the bus are clear D-Bus errors.  (check --dir: test_check_dir_bus.py,
it needs a block device.)  Run as root: tests/integration/test_cli_bus_user.py
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sdtharness  # noqa: E402
from gi.repository import GLib  # noqa: E402
from sdtharness import BUILDDIR, TestEnv, _wait_for  # noqa: E402

FIXTURE = 'rpi3'
SDTUNERCTL = os.path.join(BUILDDIR, 'src', 'cli', 'sdtunerctl')
E = 'org.example.SdTuner1.Error.'
DAMAGED = '{"version": 1, "id": 5}'


def terminal_lines(text):
    """what the terminal showed, line by line, without the agent's colour resets"""
    return [re.sub(r'\x1b\[[0-9;]*m', '', line).strip() for line in text.splitlines()]


class CliUserTest(unittest.TestCase):
    def setUp(self):
        self.env = TestEnv(fixture=FIXTURE)
        self.env.start()
        self.addCleanup(self.env.stop)
        self.config = os.path.join(self.env.root, 'boot', 'firmware', 'config.txt')
        self.state = os.path.join(self.env.root, 'var', 'lib', 'sd-tuner')

    def ctl(self, *args, user=None):
        return self.env.run_as(user, [SDTUNERCTL] + list(args), timeout=120,
                               stdin=subprocess.DEVNULL)

    def ctl_root_mode(self, root, *args):
        """sdtunerctl --root ROOT as root, in-process, on the fixture's device data"""
        umockdev = sdtharness.fixture_paths(FIXTURE)[1]
        argv = ['umockdev-run', '-d', umockdev, '--', SDTUNERCTL, '--root', root] + list(args)
        return self.env.run_as(None, argv, stdin=subprocess.DEVNULL, timeout=120)

    def history(self, kind):
        r = self.ctl('--json', 'history')
        self.assertEqual(r.returncode, 0, r.stderr)
        return [e for e in json.loads(r.stdout)['entries'] if e['kind'] == kind]

    def read_config(self):
        with open(self.config, 'rb') as f:
            return f.read()

    def assert_authenticated(self, text, action):
        self.assertIn(f'==== AUTHENTICATING FOR {action} ====', text)
        self.assertIn('==== AUTHENTICATION COMPLETE ====', text)

    # ---- the soak test --------------------------------------------------------
    def test_soak_with_password(self):
        rc, text = self.env.run_in_terminal(
            'nobody', [SDTUNERCTL, '--json', 'bench', '--profile', 'soak', '--size', '8',
                       '--seconds', '1'])
        self.assertEqual(rc, 0, text)
        self.assert_authenticated(text, 'org.example.sdtuner.benchmark')
        bus = json.loads(text[text.index('{'):text.rindex('}') + 1])
        # root mode: in-process, in the same folder the helper uses
        r = self.ctl_root_mode(self.env.root, '--json', 'bench', '--profile', 'soak', '--size',
                               '8', '--seconds', '1', '--dir', self.env.bench_dir)
        self.assertEqual(r.returncode, 0, r.stderr)
        local = json.loads(r.stdout)
        self.assertEqual(sorted(bus), sorted(local))
        self.assertEqual(sorted(bus['soak']), sorted(local['soak']))
        self.assertEqual(bus['target'], local['target'])
        self.assertEqual(bus['profile'], 'soak')
        for res in (bus, local):
            self.assertEqual(res['soak']['file_size'], 8 << 20)
            self.assertEqual(res['soak']['mismatches'], 0)
            self.assertIsNone(res['soak']['first_bad_offset'])
            self.assertGreaterEqual(res['soak']['bytes_checked'], 8 << 20)
        self.assertEqual(len(self.history('soak')), 2)
        self.assertEqual(os.listdir(self.env.bench_dir), [])
        # the text is the same as root mode's, but for the figures of the run
        rc, text = self.env.run_in_terminal(
            'nobody', [SDTUNERCTL, 'bench', '--profile', 'soak', '--size', '8', '--seconds', '0'])
        self.assertEqual(rc, 0, text)
        r = self.ctl_root_mode(self.env.root, 'bench', '--profile', 'soak', '--size', '8',
                               '--seconds', '0', '--dir', self.env.bench_dir)
        shown = terminal_lines(text)
        first = next(i for i, line in enumerate(shown) if line.startswith('Soak test in '))
        self.assertEqual(shown[first], r.stdout.splitlines()[0])
        self.assertEqual(shown[-1], 'Every byte read back as written.')
        self.assertEqual(r.stdout.splitlines()[-1], 'Every byte read back as written.')

    def test_soak_wrong_password_or_no_agent_refused(self):
        rc, text = self.env.run_in_terminal(
            'nobody', [SDTUNERCTL, 'bench', '--profile', 'soak', '--size', '8', '--seconds', '1'],
            password_ok=False)
        self.assertEqual(rc, 1, text)
        self.assertIn('==== AUTHENTICATING FOR org.example.sdtuner.benchmark ====', text)
        self.assertIn('Not authorized', text)
        self.assertNotIn('Soak test in', text)
        # no terminal, so no agent: refused at once, saying what to do
        r = self.ctl('--json', 'bench', '--profile', 'soak', '--size', '8', '--seconds', '1',
                     user='nobody')
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertEqual(json.loads(r.stdout)['error']['name'], E + 'NotAuthorized')
        self.assertIn('run sdtunerctl in a terminal', r.stderr)
        self.assertEqual(self.history('soak'), [])
        self.assertEqual(os.listdir(self.env.bench_dir), [])

    def test_soak_ctrl_c_cancels_the_job(self):
        p = subprocess.Popen([SDTUNERCTL, 'bench', '--profile', 'soak', '--size', '8',
                              '--seconds', '60'], env=self.env.environ,
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
            _wait_for(file_open, 60, 'the helper to open the soak test file')
            t0 = time.monotonic()
            p.send_signal(signal.SIGINT)
            out, err = p.communicate(timeout=20)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
        self.assertEqual(p.returncode, 1, err)
        self.assertLess(time.monotonic() - t0, 5)
        self.assertIn('Cancelling', err)
        self.assertIn('ancel', err.split('Cancelling', 1)[1])
        self.assertEqual(self.history('soak'), [])
        _wait_for(lambda: not any(
            os.readlink(f'/proc/{self.env.helper_pid()}/fd/{fd}').startswith(self.env.bench_dir)
            for fd in os.listdir(f'/proc/{self.env.helper_pid()}/fd')), 10, 'the file to go')

    def test_soak_bad_arguments_over_the_bus(self):
        for opts, words in (("{'size': <uint64 5>}", 'whole number of MiB'),
                            ("{'size': <uint64 9437185>}", 'whole number of MiB'),
                            ("{'seconds': <100000.0>}", 'at most a day'),
                            ("{'size': <8>}", 'must be of type t, not i'),
                            ("{'seconds': <'1'>}", 'must be of type d, not s'),
                            ("{'auth.no_user_interaction': <1>}", 'must be a boolean')):
            with self.subTest(opts=opts):
                rc, out = self.env.gdbus_as('nobody', 'StartSoak', opts)
                self.assertNotEqual(rc, 0, out)
                self.assertIn(E + 'InvalidArgument', out)
                self.assertIn(words, out)
        # StartBenchmark's signature is not StartSoak's: refused by GDBus itself
        with self.assertRaises(GLib.Error) as cm:
            self.env.call('StartSoak', '(sa{sv})', ('soak', {}))
        self.assertEqual(sdtharness.error_name(cm.exception),
                         'org.freedesktop.DBus.Error.InvalidArgs')
        # the CLI says the same before asking anybody
        r = self.ctl('bench', '--profile', 'soak', '--size', '5', user='nobody')
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn('whole number of MiB from 8 to 4096', r.stderr)
        self.assertEqual(self.history('soak'), [])

    # ---- verify ----------------------------------------------------------------
    def _damaged_pending_change(self):
        """SD Tuner's change in place, its pending record damaged: verify undoes it
        without needing a benchmark (issue 23 item 2)"""
        before = self.read_config()
        rec = json.loads(self.ctl('--json', 'recommend').stdout)['recommendations'][0]
        r = self.ctl('apply', rec['id'])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotEqual(self.read_config(), before)
        with open(os.path.join(self.state, 'pending.json'), 'w') as f:
            f.write(DAMAGED)
        return before

    def test_verify_with_password(self):
        # nothing pending: the same text as root mode
        rc, text = self.env.run_in_terminal('nobody', [SDTUNERCTL, 'verify'])
        self.assertEqual(rc, 0, text)
        self.assert_authenticated(text, 'org.example.sdtuner.modify-boot-config')
        local = self.ctl_root_mode(self.env.root, 'verify')
        self.assertEqual(local.returncode, 0, local.stderr)
        self.assertEqual(terminal_lines(text)[-1], local.stdout.strip())
        self.assertEqual(local.stdout.strip(), 'No change is waiting to be verified.')
        # a change to undo: root mode on a copy, then the user over the bus
        before = self._damaged_pending_change()
        copy = os.path.join(self.env.work, 'root-copy')
        shutil.copytree(self.env.root, copy, symlinks=True)
        local = self.ctl_root_mode(copy, '--json', 'verify')
        self.assertEqual(local.returncode, 0, local.stderr)
        rc, text = self.env.run_in_terminal('nobody', [SDTUNERCTL, '--json', 'verify'])
        self.assertEqual(rc, 0, text)
        self.assert_authenticated(text, 'org.example.sdtuner.modify-boot-config')
        bus = json.loads(text[text.index('{'):text.rindex('}') + 1])
        local = json.loads(local.stdout)
        for res in (bus, local):
            self.assertEqual(res['decision'], 'undo')
            self.assertEqual(res['reason_code'], 'record-damaged')
            self.assertEqual(res['action']['what'], 'reverted')
        self.assertEqual(sorted(bus), sorted(local))
        self.assertEqual(bus['reason'].replace(self.env.root, ''),
                         local['reason'].replace(copy, ''))
        # config.txt back as it was, in both
        self.assertEqual(self.read_config(), before)
        with open(os.path.join(copy, 'boot', 'firmware', 'config.txt'), 'rb') as f:
            self.assertEqual(f.read(), before)
        self.assertEqual([e['decision'] for e in self.history('verify')], ['undo'])

    def test_verify_text_with_password(self):
        self._damaged_pending_change()
        copy = os.path.join(self.env.work, 'root-copy')
        shutil.copytree(self.env.root, copy, symlinks=True)
        local = self.ctl_root_mode(copy, 'verify')
        rc, text = self.env.run_in_terminal('nobody', [SDTUNERCTL, 'verify'])
        self.assertEqual(rc, 0, text)
        self.assertEqual(local.returncode, 0, local.stderr)
        shown = terminal_lines(text)
        lines = local.stdout.replace(copy, self.env.root).splitlines()
        self.assertEqual(lines[0], 'Undid the pending change.')
        self.assertEqual(shown[-len(lines):], lines)

    def test_verify_wrong_password_or_no_agent_refused(self):
        before = self._damaged_pending_change()
        with open(os.path.join(self.state, 'pending.json'), 'rb') as f:
            pending = f.read()
        changed = self.read_config()
        rc, text = self.env.run_in_terminal('nobody', [SDTUNERCTL, 'verify'], password_ok=False)
        self.assertEqual(rc, 1, text)
        self.assertIn('==== AUTHENTICATING FOR org.example.sdtuner.modify-boot-config ====',
                      text)
        self.assertIn('Not authorized', text)
        r = self.ctl('--json', 'verify', user='nobody')
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertEqual(json.loads(r.stdout)['error']['name'], E + 'NotAuthorized')
        self.assertIn('org.example.sdtuner.modify-boot-config', r.stderr)
        # nothing decided, nothing changed
        self.assertEqual(self.read_config(), changed)
        self.assertNotEqual(changed, before)
        with open(os.path.join(self.state, 'pending.json'), 'rb') as f:
            self.assertEqual(f.read(), pending)
        self.assertEqual(self.history('verify'), [])

    def test_verify_bad_arguments(self):
        for opts, words in (("{'soak_seconds': <-5.0>}", 'from 0 to 86400'),
                            ("{'soak_seconds': <100000.0>}", 'from 0 to 86400'),
                            ("{'soak_seconds': <5>}", 'must be of type d, not i')):
            with self.subTest(opts=opts):
                rc, out = self.env.gdbus_as('nobody', 'StartVerify', opts)
                self.assertNotEqual(rc, 0, out)
                self.assertIn(E + 'InvalidArgument', out)
                self.assertIn(words, out)
        # --evidence stays a --root thing (tests); usage error, exit 2
        r = self.ctl('verify', '--evidence', '/dev/null', user='nobody')
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn('--evidence is accepted only with --root', r.stderr)
        r = self.ctl('verify', '--soak-seconds', '-3', user='nobody')
        self.assertEqual(r.returncode, 2, r.stderr)

    def test_no_sudo_hint_left(self):
        """the two commands no longer tell a user to use sudo (the service is there)"""
        for args in (['verify'], ['bench', '--profile', 'soak', '--size', '8']):
            with self.subTest(args=args):
                r = self.ctl(*args, user='nobody')
                self.assertEqual(r.returncode, 1, r.stderr)
                self.assertNotIn('sudo', r.stderr)
                self.assertIn('Not authorized', r.stderr)


if __name__ == '__main__':
    if os.geteuid() != 0:
        print('SKIP: the helper integration tests need root', file=sys.stderr)
        sys.exit(77)
    unittest.main(verbosity=2)
