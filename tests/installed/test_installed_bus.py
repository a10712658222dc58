#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: installed-bus suite=installed timeout=300 run=system needs=polkit
#    env=integration
"""The bus and polkit integration against the INSTALLED files: an unpacked
.deb (or `meson install --destdir` tree) in $SDTUNER_INSTALLED_ROOT, which
tools/test.sh makes.  The private bus reads the installed activation file and
bus policy, polkitd the installed policy from /usr/share/polkit-1/actions, and
the helper runs from /usr/libexec/sd-tuner-helper (sdtharness.py, installed=).
The fixture is the simulated Pi 3.  Run as root:

    SDTUNER_INSTALLED_ROOT=DIR tests/installed/test_installed_bus.py
"""

import configparser
import hashlib
import os
import re
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'integration'))
import sdtharness  # noqa: E402
from sdtharness import BUS_NAME, TestEnv, error_name  # noqa: E402

from gi.repository import Gio, GLib  # noqa: E402

ROOT = os.environ.get('SDTUNER_INSTALLED_ROOT', '')
FIXTURE = 'rpi3'
CONFIG = 'boot/firmware/config.txt'
HELPER = '/usr/libexec/sd-tuner-helper'
POLICY = 'usr/share/polkit-1/actions/org.example.sdtuner.policy'
NOT_AUTHORIZED = 'org.example.SdTuner1.Error.NotAuthorized'


def sha256(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


class InstalledBusTest(unittest.TestCase):
    def setUp(self):
        self.env = TestEnv(fixture=FIXTURE, installed=ROOT)
        self.env.start()
        self.addCleanup(self.env.stop)
        self.ctl = os.path.join(ROOT, 'usr', 'bin', 'sdtunerctl')

    def config(self):
        with open(os.path.join(self.env.root, CONFIG), 'rb') as f:
            return f.read()

    def test_activation_file_names_the_installed_helper(self):
        path = os.path.join(ROOT, 'usr/share/dbus-1/system-services', BUS_NAME + '.service')
        svc = configparser.ConfigParser(interpolation=None)
        svc.optionxform = str
        svc.read(path)
        sec = svc['D-BUS Service']
        self.assertEqual(sec['Name'], BUS_NAME)
        self.assertEqual(sec['Exec'], HELPER, 'the substituted path of the helper')
        self.assertEqual(sec['User'], 'root')
        self.assertEqual(sec['SystemdService'], 'sd-tuner-helper.service')
        self.assertTrue(os.access(os.path.join(ROOT, HELPER.lstrip('/')), os.X_OK))

    def test_activated_from_the_installed_path(self):
        """a call as nobody activates the helper that the installed file names"""
        r = self.env.run_as('nobody', self.env.gdbus_argv('GetInfo', '{}'))
        self.assertEqual(r.returncode, 0, r.stderr + self.env.log())
        self.assertIn('Raspberry Pi 3', r.stdout)  # the fixture, through $SDTUNER_ROOT
        pid = self.env.helper_pid()
        self.assertIsNotNone(pid)
        self.assertEqual(os.readlink(f'/proc/{pid}/exe'), HELPER)
        self.assertEqual(sha256(f'/proc/{pid}/exe'), sha256(os.path.join(ROOT, HELPER[1:])),
                         'the running helper is the installed binary')
        self.assertEqual(os.stat(f'/proc/{pid}').st_uid, 0)

    def test_bus_policy(self):
        """the installed policy: only root may own the name, anyone may call it"""
        own = ('from gi.repository import Gio, GLib\n'
               'c = Gio.bus_get_sync(Gio.BusType.SYSTEM)\n'
               'r = c.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", '
               '"org.freedesktop.DBus", "RequestName", '
               'GLib.Variant("(su)", ("org.example.SdTuner1", 4)), None, 0, 5000, None)\n'
               'print(r.unpack()[0])\n')
        for user in ('nobody', 'daemon'):
            r = self.env.run_as(user, ['/usr/bin/python3', '-c', own])
            self.assertNotEqual(r.returncode, 0, r.stdout)
            self.assertIn('org.freedesktop.DBus.Error.AccessDenied', r.stderr)
        # before anything activated the helper: root gets the name (1: primary owner)
        r = self.env.run_as(None, ['/usr/bin/python3', '-c', own])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), '1')
        for user in ('nobody', 'daemon'):
            r = self.env.run_as(user, self.env.gdbus_argv('GetStatus', '{}'))
            self.assertEqual(r.returncode, 0, r.stderr)

    def test_policy_read_by_polkitd(self):
        sdtharness.check_policy_read_by_polkitd(self, self.env, r'icon: +org.example.SdTuner\n')

    def test_polkit_decides_apply_and_revert(self):
        before = self.config()
        rec = 'sd-overclock-100'
        # no agent: refused, nothing changes
        rc, out = self.env.gdbus_as('nobody', 'Apply', rec, '{}')
        self.assertNotEqual(rc, 0)
        self.assertIn(NOT_AUTHORIZED, out)
        # an agent that says no
        r = self.env.run_as(None, self.env.agent_cmd('deny', self.env.as_user_argv('nobody') +
                                                     [self.ctl, 'apply', rec]))
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertEqual(self.config(), before)
        # an agent that says yes: the installed sdtunerctl writes the block through the helper
        r = self.env.run_as(None, self.env.agent_cmd('allow', self.env.as_user_argv('nobody') +
                                                     [self.ctl, 'apply', rec]))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn('+dtparam=sd_overclock=100', r.stdout)
        self.assertIn(b'# --- SD Tuner begin: sd-overclock-100', self.config())
        r = self.env.run_as(None, self.env.agent_cmd('allow', self.env.as_user_argv('nobody') +
                                                     [self.ctl, 'revert']))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(self.config(), before)

    def test_polkit_message_translated(self):
        """with a Japanese translation installed, polkitd shows its message"""
        with open(os.path.join(ROOT, POLICY)) as f:
            policy = f.read()
        # Revert asks for the modify-boot-config action: its Japanese message
        action = re.search(r'<action id="org\.example\.sdtuner\.modify-boot-config">(.*?)</action>',
                           policy, re.S)
        self.assertIsNotNone(action, 'the installed policy has no modify-boot-config action')
        m = re.search(r'<message xml:lang="ja">([^<]+)</message>', action.group(1))
        if m is None:
            self.skipTest('the installed policy has no Japanese message yet (po/LINGUAS has '
                          'no ja)')
        r = subprocess.run(self.env.agent_cmd('deny', self.env.as_user_argv('nobody') +
                                              self.env.gdbus_argv('Revert', '{}')),
                           env=dict(self.env.environ, LANGUAGE='ja',
                                    SDTUNER_AGENT_LOCALE='ja_JP.UTF-8'),
                           capture_output=True, text=True, timeout=60)
        self.assertIn(f'message={m.group(1)!r}', r.stdout)


if __name__ == '__main__':
    if os.geteuid() != 0:
        print('SKIP: the installed-files bus tests need root', file=sys.stderr)
        sys.exit(77)
    if not ROOT or not os.path.isdir(ROOT):
        print('SKIP: no installed tree: SDTUNER_INSTALLED_ROOT is not set (tools/test.sh '
              'builds the .deb and unpacks it)', file=sys.stderr)
        # tools/test.sh made one: its absence is a failure there, not a skip
        sys.exit(1 if os.environ.get('SDTUNER_REQUIRE_INSTALLED') else 77)
    unittest.main(verbosity=2)
