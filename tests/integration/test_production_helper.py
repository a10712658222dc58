#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: helper-production-{case} suite=integration timeout=120
#    run=exec needs=polkit env=integration
#    cases=methods:ProductionHelperTest args={id}
#    depends=sd_tuner_helper,polkit_policy
"""sd-tuner-helper as it runs in production, on hostile config.txt files.

The other bus tests run the helper with G_DEBUG=fatal-criticals, so that a
critical aborts it; here it runs as the service file starts it: no G_DEBUG, no
--verbose.  A helper that logs a critical and goes on would pass a "still
alive" check, so these tests check the replies themselves (valid UTF-8, valid
JSON, the right answer), the bytes of config.txt, and that the helper printed
no CRITICAL or WARNING.  Private system bus, real polkitd, the built helper
under umockdev (sdtharness.py).  Run as root:

    tests/integration/test_production_helper.py
"""

import json
import os
import sys
import threading
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sdtharness  # noqa: E402
from sdtharness import TestEnv, error_name  # noqa: E402

from gi.repository import GLib  # noqa: E402

E = 'org.example.SdTuner1.Error.'
CONFIG = os.path.join('boot', 'firmware', 'config.txt')
FIXTURE = os.environ.get('SDTUNER_TEST_FIXTURE', 'rpi3')
REPLACEMENT = '\ufffd'

# a Latin-1 comment (issue 9 item 6) and a non-UTF-8 byte on an SD line (for
# another board, so that the recommendation stays the same)
LATIN1_TAIL = (b'\n# \xdcbertaktung der SD-Karte\n'
               b'[pi4]\ndtparam=sd_cqe=1 # Ger\xe4t\n[all]\n')


class ProductionEnv(TestEnv):
    """the helper started without G_DEBUG and without --verbose, as in production"""

    def helper_argv(self):
        argv = [a for a in super().helper_argv() if a != '--verbose']
        return ['/usr/bin/env', '-u', 'G_DEBUG', '-u', 'G_MESSAGES_DEBUG'] + argv


class ProductionHelperTest(unittest.TestCase):

    def setUp(self):
        self.env = ProductionEnv(fixture=FIXTURE, idle_timeout=120)
        self.env.start()
        self.addCleanup(self.env.stop)
        self.addCleanup(self._print_log_on_failure)
        result = getattr(getattr(self, '_outcome', None), 'result', None)
        self._problems = len(result.errors) + len(result.failures) if result else 0

    def _print_log_on_failure(self):
        result = getattr(getattr(self, '_outcome', None), 'result', None)
        if result is not None and len(result.errors) + len(result.failures) > self._problems:
            print('--- bus log (helper output) ---\n' + self.env.log(), file=sys.stderr)

    # ---- helpers ---------------------------------------------------------------
    def config_path(self):
        return os.path.join(self.env.root, CONFIG)

    def read_config(self):
        with open(self.config_path(), 'rb') as f:
            return f.read()

    def write_config(self, data):
        with open(self.config_path(), 'wb') as f:
            f.write(data)

    def json_call(self, method, *args, conn=None):
        sig = {'Apply': '(sa{sv})'}.get(method, '(a{sv})')
        reply = self.env.call(method, sig, args or ({},), conn=conn)[0]
        # PyGObject has decoded the D-Bus string: it was valid UTF-8 on the wire
        self.assertIsInstance(reply, str)
        return json.loads(reply)

    def assertDBusError(self, name, fn, *args, **kw):
        with self.assertRaises(GLib.Error) as cm:
            fn(*args, **kw)
        self.assertEqual(error_name(cm.exception), name, cm.exception.message)
        return sdtharness.error_message(cm.exception)

    def assertCleanLog(self):
        log = self.env.log()
        for needle in ('CRITICAL', 'WARNING', 'g_utf8_validate', 'assertion'):
            self.assertNotIn(needle, log, f'the helper logged {needle}:\n{log}')

    def helper_rss_kib(self):
        with open(f'/proc/{self.env.helper_pid()}/status') as f:
            for line in f:
                if line.startswith('VmRSS:'):
                    return int(line.split()[1])
        return 0

    # ---- tests -----------------------------------------------------------------
    def test_latin1_config_replies(self):
        """issue 9 item 6: GetInfo, Apply, GetStatus and Revert with Latin-1 bytes in
        config.txt: correct UTF-8 replies, the user's bytes kept exactly"""
        original = self.read_config() + LATIN1_TAIL
        self.write_config(original)
        self.json_call('GetInfo')
        pid = self.env.helper_pid()

        info = self.json_call('GetInfo')
        self.assertIsNone(info['config']['error'])
        texts = [s['text'] for s in info['config']['sd_settings']]
        self.assertIn('dtparam=sd_cqe=1 # Ger' + REPLACEMENT + 't', texts)

        recs = self.json_call('GetRecommendations')['recommendations']
        self.assertEqual([r['id'] for r in recs], ['sd-overclock-100'])

        applied = self.json_call('Apply', 'sd-overclock-100', {})
        self.assertTrue(applied['changed'], applied)
        # the diff quotes the lines above the block, the Latin-1 one among them
        self.assertIn('dtparam=sd_cqe=1 # Ger' + REPLACEMENT + 't', applied['diff'])
        new = self.read_config()
        # the user's bytes stay exactly as they were; only the block is added
        self.assertTrue(new.startswith(original), new[:200])
        self.assertIn(b'dtparam=sd_overclock=100\n', new[len(original):])

        status = self.json_call('GetStatus')
        self.assertTrue(status['applied'], status)

        reverted = self.json_call('Revert')
        self.assertEqual(reverted['id'], 'sd-overclock-100', reverted)
        self.assertIn('dtparam=sd_cqe=1 # Ger' + REPLACEMENT + 't', reverted['diff'])
        self.assertEqual(self.read_config(), original)

        self.assertEqual(self.env.helper_pid(), pid, 'the helper restarted')
        self.assertCleanLog()

    def test_latin1_in_error_message(self):
        """an error that quotes a non-UTF-8 line reaches the caller as valid UTF-8"""
        original = self.read_config() + b'[pi\xe4\narm_boost=1\n'
        self.write_config(original)
        msg = self.assertDBusError(E + 'InvalidData', self.env.call, 'Apply', '(sa{sv})',
                                   ('sd-overclock-100', {}))
        self.assertIn('[pi' + REPLACEMENT, msg)
        self.assertEqual(self.read_config(), original)
        # the helper is still the same process and still answers
        pid = self.env.helper_pid()
        self.assertIn('board', self.json_call('GetInfo'))
        self.assertEqual(self.env.helper_pid(), pid)
        self.assertCleanLog()

    def test_hostile_includes(self):
        """issue 9 item 8: 20 files each including all 20; four concurrent GetInfo
        calls from an unprivileged user get a clear error, the helper stays small"""
        boot = os.path.dirname(self.config_path())
        names = [f'inc{i}.txt' for i in range(1, 21)]
        for n in names:
            with open(os.path.join(boot, n), 'w') as f:
                f.write(''.join(f'include {m}\n' for m in names))
        original = self.read_config() + ''.join(f'include {m}\n' for m in names).encode()
        self.write_config(original)
        self.json_call('GetInfo')

        results = []

        def get_info():
            r = self.env.run_as('nobody', ['gdbus', 'call', '--system', '--dest',
                                           sdtharness.BUS_NAME, '--object-path',
                                           sdtharness.MANAGER_PATH, '--method',
                                           sdtharness.MANAGER_IFACE + '.GetInfo', '{}'],
                                timeout=120)
            results.append(r)

        threads = [threading.Thread(target=get_info) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(len(results), 4)
        for r in results:
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn('remove the nested include lines', r.stdout)
        info = self.json_call('GetInfo')
        self.assertIn('include lines', info['config']['error'])
        # no memory kept: the helper is a few MiB, far from the 800 MiB per call of before
        rss = self.helper_rss_kib()
        print(f'helper VmRSS after 4 concurrent GetInfo: {rss} KiB', file=sys.stderr)
        self.assertLess(rss, 64 * 1024)
        # Apply and GetStatus give the same clear error and write nothing
        msg = self.assertDBusError(E + 'InvalidData', self.env.call, 'Apply', '(sa{sv})',
                                   ('sd-overclock-100', {}))
        self.assertIn('include lines', msg)
        self.assertEqual(self.read_config(), original)

        # a FIFO named by an include line: a clear error, no hang while holding the lock
        os.mkfifo(os.path.join(boot, 'fifo.txt'))
        self.write_config(original.replace(b'include inc1.txt\n', b'include fifo.txt\n')
                          .replace(b''.join(f'include {m}\n'.encode() for m in names[1:]), b''))
        # (a FIFO opened without O_NONBLOCK would block the call past its timeout)
        info = self.json_call('GetInfo')
        self.assertIn('fifo.txt', info['config']['error'])
        status = self.assertDBusError(E + 'InvalidData', self.env.call, 'Apply', '(sa{sv})',
                                      ('sd-overclock-100', {}))
        self.assertIn('fifo.txt', status)
        self.assertCleanLog()


if __name__ == '__main__':
    unittest.main()
