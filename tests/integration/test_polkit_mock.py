#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: helper-polkit-mock-{case} suite=integration timeout=60 run=exec
#    needs=polkit env=integration cases=methods:PolkitMockTest args={id}
#    depends=sd_tuner_helper,polkit_policy
"""Which polkit action each method asks for, and with which flags, against
python-dbusmock's polkitd template instead of the real polkitd (fast, and it
records the calls).  The real polkitd cases are in test_helper.py.  Run as
root: tests/integration/test_polkit_mock.py
"""

import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sdtharness import TestEnv, _wait_for, error_name  # noqa: E402

from gi.repository import Gio, GLib  # noqa: E402

E = 'org.example.SdTuner1.Error.'
BENCHMARK = 'org.example.sdtuner.benchmark'
MODIFY = 'org.example.sdtuner.modify-boot-config'


class PolkitMockTest(unittest.TestCase):
    def setUp(self):
        self.env = TestEnv(fixture=os.environ.get('SDTUNER_TEST_FIXTURE', 'rpi3'), polkit=False)
        self.env.start()
        self.addCleanup(self.env.stop)
        # as user polkitd: the bus policy lets only that user own the name
        self.mock = subprocess.Popen(
            self.env.as_user_argv('polkitd') +
            ['/usr/bin/python3', '-m', 'dbusmock', '--system', '--template', 'polkitd'],
            env=self.env.environ, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.addCleanup(self._stop_mock)
        _wait_for(lambda: self.env._has_owner('org.freedesktop.PolicyKit1'), 10,
                  'the dbusmock polkitd')
        self.conn = self.env.connect()

    def _stop_mock(self):
        self.mock.terminate()
        self.mock.wait(10)
        self.mock.stdout.close()

    def allow(self, *actions):
        self.conn.call_sync('org.freedesktop.PolicyKit1', '/org/freedesktop/PolicyKit1/Authority',
                            'org.freedesktop.DBus.Mock', 'SetAllowed',
                            GLib.Variant('(as)', (list(actions),)), None,
                            Gio.DBusCallFlags.NONE, 5000, None)

    def outcome(self, method, sig, args):
        """'ok' or the D-Bus error name"""
        try:
            self.env.call(method, sig, args, conn=self.conn)
            return 'ok'
        except GLib.Error as e:
            return error_name(e)

    def test_each_method_asks_for_its_action(self):
        calls = [('Apply', '(sa{sv})', ('no-such-id', {})),
                 ('Revert', '(a{sv})', ({},))]
        self.allow(BENCHMARK)
        for method, sig, args in calls:
            self.assertEqual(self.outcome(method, sig, args), E + 'NotAuthorized', method)
        self.allow(MODIFY)
        self.assertEqual(self.outcome('StartBenchmark', '(sa{sv})', ('quick', {})),
                         E + 'NotAuthorized')
        # allowed: the call gets past polkit to the work (which finds nothing to do)
        self.assertEqual(self.outcome('Apply', '(sa{sv})', ('no-such-id', {})), E + 'NotFound')
        self.assertEqual(self.outcome('Revert', '(a{sv})', ({},)), E + 'NotFound')

    def test_nothing_allowed_refuses_all_privileged_methods(self):
        self.allow()
        for method, sig, args in [('Apply', '(sa{sv})', ('no-such-id', {})),
                                  ('Revert', '(a{sv})', ({},)),
                                  ('StartBenchmark', '(sa{sv})', ('quick', {}))]:
            self.assertEqual(self.outcome(method, sig, args), E + 'NotAuthorized', method)
        # reading needs no authorization
        for method in ('GetInfo', 'GetRecommendations', 'GetStatus', 'GetHistory'):
            self.assertEqual(self.outcome(method, '(a{sv})', ({},)), 'ok', method)


if __name__ == '__main__':
    if os.geteuid() != 0:
        print('SKIP: the helper integration tests need root', file=sys.stderr)
        sys.exit(77)
    unittest.main(verbosity=2)
