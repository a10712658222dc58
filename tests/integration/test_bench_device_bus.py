#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: bench-{case} suite=check timeout=300 parallel=false run=exec
#    needs=fuse3,polkit env=check-bus
#    cases=methods:BenchDeviceBusTest args={id}
#    depends=sd_tuner_helper,sdtunerctl,polkit_policy,sdt_fake_card
"""`sdtunerctl bench --device` over the bus (issue 34): the helper's StartBenchmark with the
option "device", under org.example.sdtuner.check-device, with a real polkitd.  The
benchmark itself of a whole card: tests/check/test-bench-device.py, in-process.  Needs
root."""

import json
import os
import subprocess
import sys
import unittest

from gi.repository import Gio, GLib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sdtharness import BUILDDIR, SRCDIR, TestEnv  # noqa: E402

SDTUNERCTL = os.path.join(BUILDDIR, 'src', 'cli', 'sdtunerctl')
E = 'org.example.SdTuner1.Error.'


class BenchDeviceBusTest(unittest.TestCase):

    def setUp(self):
        self.env = TestEnv(fixture=None, bench_dir=False)
        self.env.start()
        self.addCleanup(self.env.stop)

    def ctl(self, *args, user=None):
        return self.env.run_as(user, [SDTUNERCTL] + list(args), timeout=300,
                               stdin=subprocess.DEVNULL)

    def start_benchmark(self, options):
        conn = self.env.connect()
        with self.assertRaises(GLib.Error) as cm:
            conn.call_sync('org.example.SdTuner1', '/org/example/SdTuner1',
                           'org.example.SdTuner1.Manager', 'StartBenchmark',
                           GLib.Variant('(sa{sv})', ('quick', options)),
                           None, Gio.DBusCallFlags.NONE, 30000, None)
        return cm.exception.message

    def test_device_over_the_bus(self):
        """nobody is refused by polkit naming the check-device action; root is refused by
        the helper, which benchmarks only a card `sdtunerctl devices` offers (a loop device
        is a fixed disk); a confirmation without a device and a relative device are refused
        before polkit; the card unchanged"""
        sys.path.insert(0, os.path.join(SRCDIR, 'tests', 'fake-card'))
        import sdtfakecard
        card = sdtfakecard.Card('genuine', 256, 256, layout='raw', mounted=False,
                                raw_fill='zeros')
        self.addCleanup(card.down)
        before = sdtfakecard.sha256_file(card.backing)
        r = self.ctl('--json', 'bench', '-p', 'quick', '--device', card.loop, user='nobody')
        self.assertEqual(r.returncode, 1, r.stderr)
        err = json.loads(r.stdout)['error']
        self.assertEqual(err['name'], E + 'NotAuthorized')
        self.assertIn('org.example.sdtuner.check-device', err['message'])
        r = self.ctl('--json', 'bench', '-p', 'quick', '--device', card.loop,
                     '--destroy-data-on', card.loop)
        self.assertEqual(r.returncode, 1, r.stderr)
        err = json.loads(r.stdout)['error']
        self.assertEqual(err['name'], E + 'NotSupported')
        self.assertIn('cannot be benchmarked', err['message'])
        self.assertIn('not removable', err['message'])
        # the options themselves, refused before polkit
        msg = self.start_benchmark({'destroy_data_on': GLib.Variant('ay', card.loop.encode()
                                                                   + b'\0')})
        self.assertIn('goes with', msg)
        msg = self.start_benchmark({'device': GLib.Variant('ay', b'loop0\0')})
        self.assertIn('absolute path', msg)
        self.assertEqual(sdtfakecard.sha256_file(card.backing), before)


if __name__ == '__main__':
    if os.geteuid() != 0:
        print('1..0 # SKIP needs root (FUSE, loop devices, private bus, polkitd)')
        sys.exit(0)
    unittest.main(verbosity=2)
