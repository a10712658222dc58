#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: devices-bus-{case} suite=integration timeout=120 run=exec needs=polkit
#    env=integration cases=methods:DevicesBusTest args={id}
#    depends=sd_tuner_helper,sdtunerctl,polkit_policy
"""Issue 34 over a real private system bus: the helper's GetDevices (D-Bus activated under
umockdev-run with tests/data/umockdev/card-readers.umockdev, the real polkitd beside it)
answers any user without asking polkit, with the document `sdtunerctl --root` prints
in-process; `sdtunerctl devices` over the bus prints what it prints in-process.
Run as root: tests/integration/test_devices_bus.py
"""

import json
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sdtharness  # noqa: E402
from sdtharness import BUILDDIR, TestEnv  # noqa: E402

FIXTURE = 'card-readers'
SDTUNERCTL = os.path.join(BUILDDIR, 'src', 'cli', 'sdtunerctl')


class DevicesBusTest(unittest.TestCase):
    def setUp(self):
        self.env = TestEnv(fixture=FIXTURE, bench_dir=False)
        self.env.start()
        self.addCleanup(self.env.stop)

    def ctl(self, *args, user=None):
        return self.env.run_as(user, [SDTUNERCTL] + list(args), stdin=subprocess.DEVNULL)

    def ctl_root_mode(self, *args):
        umockdev = sdtharness.fixture_paths(FIXTURE)[1]
        argv = ['umockdev-run', '-d', umockdev, '--', SDTUNERCTL, '--root', self.env.root]
        return self.env.run_as(None, argv + list(args), stdin=subprocess.DEVNULL)

    def test_get_devices(self):
        (text,) = self.env.call('GetDevices', '(a{sv})', ({},))
        doc = json.loads(text)
        by_name = {d['device']: d for d in doc['devices']}
        self.assertEqual(sorted(by_name), ['mmcblk0', 'mmcblk1', 'sda', 'sdb', 'sdc', 'sdd'])
        self.assertEqual(by_name['mmcblk0']['reason_code'], 'system-disk')
        self.assertEqual(by_name['mmcblk0']['reason'], 'It is the system disk')
        self.assertTrue(by_name['sda']['offered'])
        self.assertEqual(by_name['sda']['vendor'], 'Generic')
        self.assertEqual(by_name['sdd']['reason_code'], 'mounted')

    def test_nobody_needs_no_authorization(self):
        """a read: no polkit question, for any user (a deny agent would refuse one)"""
        rc, out = self.env.gdbus_as('nobody', 'GetDevices', '{}')
        self.assertEqual(rc, 0, out)
        self.assertIn('system-disk', out)
        p = self.env.run_as('nobody', self.env.agent_cmd('deny', [SDTUNERCTL, 'devices']),
                            stdin=subprocess.DEVNULL)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn('It is the system disk', p.stdout)

    def test_same_output_as_root_mode(self):
        for fmt in (['--json'], []):
            with self.subTest(fmt=fmt):
                bus = self.ctl(*fmt, 'devices')
                local = self.ctl_root_mode(*fmt, 'devices')
                self.assertEqual(bus.returncode, 0, bus.stderr)
                self.assertEqual(local.returncode, 0, local.stderr)
                self.assertEqual(bus.stdout, local.stdout)


if __name__ == '__main__':
    if os.geteuid() != 0:
        print('SKIP: the helper integration tests need root', file=sys.stderr)
        sys.exit(77)
    unittest.main(verbosity=2)
