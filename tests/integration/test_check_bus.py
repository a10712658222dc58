#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: check-{case} suite=check timeout=300 parallel=false run=exec
#    needs=fuse3,polkit env=check-bus
#    cases=methods:CheckInProcessTest|CheckBusTest|CheckDeviceBusTest args={id}
#    depends=sd_tuner_helper,sdtunerctl,polkit_policy,sdt_fake_card
"""The authenticity check over the bus and in-process: sdtunerctl check against
FUSE fake cards under loop devices (tests/fake-card), the helper's StartCheck
job under org.example.sdtuner.check, with a real polkitd.  Needs root."""

import json
import os
import re
import subprocess
import sys
import tempfile
import time
import unittest

from gi.repository import Gio, GLib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sdtharness import BUILDDIR, SRCDIR, TestEnv  # noqa: E402

# a UTF-8 locale that is not C for LANGUAGE to count: glibc 2.41 ignores it under C.UTF-8
# (tests/meson.build compiles en_US.UTF-8 into LOCPATH)
TEST_LOCALE = os.environ.get('SDTUNER_TEST_LOCALE', 'C.UTF-8')

SDTUNERCTL = os.path.join(BUILDDIR, 'src', 'cli', 'sdtunerctl')
FAKE_CARD = os.path.join(SRCDIR, 'tests', 'fake-card', 'fake-card.sh')
MIB = 1 << 20
CLAIM_MIB = 512
E = 'org.example.SdTuner1.Error.'


class FakeCard:
    """fake-card.sh up/verify/down around one card"""

    def __init__(self, kind, real_mib):
        self.kind = kind
        self.real = real_mib * MIB
        self.dir = tempfile.mkdtemp(prefix='sdt-check-', dir='/var/tmp')
        self.mnt = os.path.join(self.dir, 'mnt')
        self._run('up', kind, str(CLAIM_MIB), str(real_mib))

    def _run(self, *args):
        r = subprocess.run([FAKE_CARD, args[0], self.dir] + list(args[1:]),
                           capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            raise AssertionError(f'fake-card.sh {args[0]}: {r.stdout}{r.stderr}')
        return r.stdout

    def verify(self):
        return self._run('verify')

    def down(self):
        self._run('down')

    def free(self):
        st = os.statvfs(self.mnt)
        return st.f_bfree * st.f_frsize


class CheckInProcessTest(unittest.TestCase):
    """`sdtunerctl --root / check --dir MNT` as root: the library in-process"""

    def check(self, card):
        t0 = time.monotonic()
        r = subprocess.run([SDTUNERCTL, '--root', '/', '--json', 'check', '--dir', card.mnt],
                           capture_output=True, text=True, timeout=300,
                           stdin=subprocess.DEVNULL)
        wall = time.monotonic() - t0
        self.assertEqual(r.returncode, 0, r.stderr)
        result = json.loads(r.stdout)
        print(f'\n{card.kind} (real {card.real // MIB} MiB of {CLAIM_MIB}): '
              f'{result["verdict"]} {result["failure"]} '
              f'estimate={result["estimated_capacity_bytes"]} '
              f'first_bad={result["first_bad_offset"]} coverage={result["coverage"]:.3f} '
              f'seconds={result["seconds"]:.2f} (wall {wall:.2f})', file=sys.stderr)
        return result

    def test_three_fakes_and_a_genuine_card(self):
        for kind, real_mib, failure in (('wrap', 256, 'wrap'),
                                        ('zeros', 384, 'lost-writes'),
                                        ('eio', 320, 'io-error'),
                                        ('genuine', CLAIM_MIB, None)):
            with self.subTest(kind=kind):
                card = FakeCard(kind, real_mib)
                try:
                    result = self.check(card)
                    self.assertEqual(result['claimed_bytes'], CLAIM_MIB * MIB)
                    self.assertTrue(result['target']['stand_in'])
                    self.assertIn('Stand-in', ' '.join(result['notes']))
                    self.assertEqual(result['mode'], 'quick')
                    for key in ('verdict', 'claimed_bytes', 'estimated_capacity_bytes',
                                'first_bad_offset', 'coverage', 'reason', 'seconds'):
                        self.assertIn(key, result)
                    if failure is None:
                        self.assertEqual(result['verdict'], 'genuine')
                        self.assertIsNone(result['estimated_capacity_bytes'])
                        self.assertIsNone(result['first_bad_offset'])
                    else:
                        self.assertEqual(result['verdict'], 'fake')
                        self.assertEqual(result['failure'], failure)
                        est = result['estimated_capacity_bytes']
                        self.assertLessEqual(abs(est - card.real), card.real // 10)
                    card.verify()
                finally:
                    card.down()

    def test_full_mode(self):
        for kind, real_mib, verdict in (('zeros', 384, 'fake'), ('genuine', CLAIM_MIB, 'genuine')):
            with self.subTest(kind=kind):
                card = FakeCard(kind, real_mib)
                try:
                    r = subprocess.run([SDTUNERCTL, '--root', '/', '--json', 'check', '--full',
                                        '--dir', card.mnt], capture_output=True, text=True,
                                       timeout=300, stdin=subprocess.DEVNULL)
                    self.assertEqual(r.returncode, 0, r.stderr)
                    result = json.loads(r.stdout)
                    print(f'\nfull {kind}: {result["verdict"]} {result["seconds"]:.1f} s '
                          f'write {result["write_mb_s"]:.1f} MB/s coverage '
                          f'{result["coverage"]:.3f}', file=sys.stderr)
                    self.assertEqual(result['mode'], 'full')
                    self.assertEqual(result['verdict'], verdict, result['reason'])
                    if verdict == 'fake':
                        self.assertLessEqual(
                            abs(result['estimated_capacity_bytes'] - card.real), card.real // 10)
                    else:
                        self.assertGreater(result['coverage'], 0.7)
                    card.verify()
                finally:
                    card.down()

    def test_bad_usage_and_refusals(self):
        # (--dir over the bus, a user's folder checked by the helper: test_check_dir_bus.py)
        r = subprocess.run([SDTUNERCTL, '--root', '/', 'check', 'extra'], capture_output=True,
                           text=True, stdin=subprocess.DEVNULL)
        self.assertEqual(r.returncode, 2, r.stderr)
        # memory, not a block device: a clear refusal as JSON too (issue 32: said first)
        with tempfile.TemporaryDirectory(dir='/dev/shm') as shm:
            os.chmod(shm, 0o755)
            r = subprocess.run([SDTUNERCTL, '--root', '/', '--json', 'check', '--dir', shm],
                               capture_output=True, text=True, stdin=subprocess.DEVNULL)
            self.assertEqual(r.returncode, 1, r.stderr)
            err = json.loads(r.stdout)['error']
            self.assertEqual(err['name'], E + 'NotSupported')
            self.assertIn('is in memory (tmpfs), not on a card', err['message'])
            self.assertEqual(os.listdir(shm), [])


class CheckBusTest(unittest.TestCase):
    """the helper's StartCheck job, its --bench-dir being a fake card's mount"""

    def setUp(self):
        self.card = FakeCard('zeros', 384)
        self.addCleanup(self.card.down)
        # a reserved file a killed check left behind, before the helper starts
        self.stale = os.path.join(self.card.mnt, '.sd-tuner-check.reserve')
        with open(self.stale, 'wb') as f:
            f.write(b'\0' * 65536)
        self.env = TestEnv(fixture=None, bench_dir=False,
                           extra_helper_args=('--bench-dir', self.card.mnt))
        self.env.start()
        self.addCleanup(self.env.stop)

    def ctl(self, *args, user=None):
        return self.env.run_as(user, [SDTUNERCTL] + list(args), timeout=300,
                               stdin=subprocess.DEVNULL)

    def test_check_over_the_bus(self):
        r = self.ctl('--json', 'check')
        self.assertEqual(r.returncode, 0, r.stderr)
        result = json.loads(r.stdout)
        self.assertEqual(result['verdict'], 'fake')
        self.assertEqual(result['failure'], 'lost-writes')
        self.assertTrue(result['target']['stand_in'])
        self.assertLessEqual(abs(result['estimated_capacity_bytes'] - self.card.real),
                             self.card.real // 10)
        # the helper removed the stale file when it started
        self.assertFalse(os.path.exists(self.stale))
        self.assertIn('removed a stale reserved file', self.env.log())
        # the human form through the same path
        r = self.ctl('check')
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('Verdict: FAKE', r.stdout)
        self.card.verify()

    def test_japanese_over_the_bus(self):
        """issue 24: the helper sends the check's reason in English (JSON is for
        programs); `sdtunerctl check` shows it, and the phases of its progress, in the
        user's language, not as the helper sent them."""
        english = json.loads(self.ctl('--json', 'check').stdout)
        saved = dict(self.env.environ)
        self.addCleanup(lambda: (self.env.environ.clear(), self.env.environ.update(saved)))
        self.env.environ.update(LANGUAGE='ja', LC_ALL=TEST_LOCALE,
                                SDTUNER_LOCALEDIR=os.path.join(BUILDDIR, 'po'))
        # over the bus, then in-process (the library runs in English there too, and its
        # progress lines go back to the user's language)
        local = self.env.run_as(None, [SDTUNERCTL, '--root', '/', 'check', '--dir',
                                       self.card.mnt], timeout=300, stdin=subprocess.DEVNULL)
        for r in (self.ctl('check'), local):
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertRegex(r.stdout, '[\u3040-\u30ff]')
            self.assertNotIn(english['reason'], r.stdout)
            # every line, the reason and the notes included, is Japanese
            self.assertTrue(all(re.search('[\u3040-\u30ff\u4e00-\u9fff]', line)
                                for line in r.stdout.splitlines() if line), r.stdout)
            self.assertNotIn('Stand-in', r.stdout)
            # progress on stderr (one line per phase off a terminal): no raw phase ids
            phases = [line.split(':')[0] for line in r.stderr.splitlines() if ':' in line]
            self.assertTrue(phases, r.stderr)
            for raw in ('prepare', 'repair', 'read', 'reserve', 'probe', 'restore', 'write',
                        'verify', 'cleanup'):
                self.assertNotIn(raw, phases, r.stderr)
            self.assertTrue(all(re.search('[\u3040-\u30ff\u4e00-\u9fff]', p)
                                for p in phases), r.stderr)
        self.card.verify()

    def test_nobody_refused_nothing_written(self):
        os.unlink(self.stale)
        free = self.card.free()
        r = self.ctl('--json', 'check', user='nobody')
        self.assertEqual(r.returncode, 1, r.stderr)
        err = json.loads(r.stdout)['error']
        self.assertEqual(err['name'], E + 'NotAuthorized')
        self.assertIn('org.example.sdtuner.check', err['message'])
        self.assertEqual(self.card.free(), free)
        self.card.verify()

    def _wait(self, pred, timeout, what):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if pred():
                return
            time.sleep(0.02)
        self.fail(f'timed out waiting for {what}')

    def _start_full(self, conn):
        """StartCheck('full') on @conn; returns once the reserved file holds space.
        The job before may have given its space back and not yet ended (its Completed
        follows the engine's clean-up): Busy until then, for up to 10 s"""
        from gi.repository import GLib
        end = time.monotonic() + 10
        while True:
            try:
                (path,) = self.env.call('StartCheck', '(sa{sv})', ('full', {}), conn=conn)
                break
            except GLib.Error as e:
                if E + 'Busy' not in e.message or time.monotonic() > end:
                    raise
                time.sleep(0.1)
        self._wait(lambda: self.card.free() < self.free0 - 100 * MIB, 30,
                   'the reserved file')
        return path

    def test_stop_disconnect_and_kill_release_the_space(self):
        from gi.repository import GLib
        os.unlink(self.stale)
        self.free0 = self.card.free()
        # Stop: Job.Cancel, Completed says Cancelled, the space is back at once
        conn = self.env.connect()
        done = []
        conn.signal_subscribe(None, 'org.example.SdTuner1.Job', 'Completed', None, None, 0,
                              lambda *a: done.append(a[5].unpack()))
        path = self._start_full(conn)
        self.env.call('Cancel', None, None, conn=conn, path=path,
                      iface='org.example.SdTuner1.Job')
        ctx = GLib.MainContext.default()
        end = time.monotonic() + 10
        while not done and time.monotonic() < end:
            ctx.iteration(False)
            time.sleep(0.01)
        self.assertTrue(done, 'Completed after Cancel')
        self.assertEqual(done[0][1], E + 'Cancelled', done)
        self._wait(lambda: self.card.free() >= self.free0 - MIB, 5, 'the space after Stop')
        # the caller leaves the bus: its check is cancelled and the space released
        conn = self.env.connect()
        self._start_full(conn)
        conn.close_sync(None)
        self._wait(lambda: self.card.free() >= self.free0 - MIB, 10,
                   'the space after the caller left')
        # the helper is killed mid-check: the nameless file goes with its process
        conn = self.env.connect()
        self._start_full(conn)
        self.env.kill_helper()
        self._wait(lambda: self.card.free() >= self.free0 - MIB, 10,
                   'the space after the helper was killed')
        with open(os.path.join(self.card.dir, 'sums')) as f:
            users = [line.split()[1] for line in f]
        self.assertEqual(sorted(os.listdir(self.card.mnt)), ['lost+found'] + sorted(users))
        self.card.verify()

    def test_unknown_mode_and_busy(self):
        rc, out = self.env.gdbus_as(None, 'StartCheck', 'thorough', '{}')
        self.assertNotEqual(rc, 0)
        self.assertIn(E + 'InvalidArgument', out)
        # one job writes to the card at a time (the helper's start removed the stale file)
        self.assertFalse(os.path.exists(self.stale))
        self.free0 = self.card.free()
        conn = self.env.connect()
        self._start_full(conn)
        for method, arg in (('StartCheck', 'quick'), ('StartBenchmark', 'quick')):
            rc, out = self.env.gdbus_as(None, method, arg, '{}')
            self.assertNotEqual(rc, 0, out)
            self.assertIn(E + 'Busy', out)
        conn.close_sync(None)
        self._wait(lambda: self.card.free() >= self.free0 - MIB, 10, 'the space')


class CheckDeviceBusTest(unittest.TestCase):
    """issue 34: StartCheck with "device" under org.example.sdtuner.check-device, on a
    FUSE stand-in card under a loop device, through a helper on this machine as on a real
    system (`--root /`) and one on a simulated board (a root prefix)"""

    def setUp(self):
        sys.path.insert(0, os.path.join(SRCDIR, 'tests', 'fake-card'))
        import sdtfakecard
        self.fc = sdtfakecard

    def start(self, **kw):
        self.env = TestEnv(fixture=None, bench_dir=False, **kw)
        self.env.start()
        self.addCleanup(self.env.stop)

    def ctl(self, *args, user=None):
        return self.env.run_as(user, [SDTUNERCTL] + list(args), timeout=300,
                               stdin=subprocess.DEVNULL)

    def test_device_over_the_bus(self):
        """nobody is refused by polkit naming the action; root is refused by a helper
        without a root prefix, which checks only a card `sdtunerctl devices` offers (a loop
        device is a fixed disk), also in the full mode with its confirmation
        (destroy_data_on); a confirmation without a device or of the wrong type refused
        before polkit; the card unchanged.  (The check itself of a whole card:
        tests/check/test-check-device.py, in-process.)"""
        card = self.fc.Card('genuine', 256, 256, layout='raw')
        self.addCleanup(card.down)
        self.start(host_root=True)
        before = self.fc.sha256_file(card.backing)
        r = self.ctl('--json', 'check', '--device', card.loop, user='nobody')
        self.assertEqual(r.returncode, 1, r.stderr)
        err = json.loads(r.stdout)['error']
        self.assertEqual(err['name'], E + 'NotAuthorized')
        self.assertIn('org.example.sdtuner.check-device', err['message'])
        r = self.ctl('--json', 'devices')
        self.assertEqual(r.returncode, 0, r.stderr)
        listed = {d['path']: d for d in json.loads(r.stdout)['devices']}
        self.assertEqual(listed[card.loop]['reason_code'], 'not-removable', listed[card.loop])
        self.assertFalse(listed[card.loop]['offered'])
        r = self.ctl('--json', 'check', '--device', card.loop)
        self.assertEqual(r.returncode, 1, r.stderr)
        err = json.loads(r.stdout)['error']
        self.assertEqual(err['name'], E + 'NotSupported')
        self.assertIn('not removable', err['message'])
        # a folder and a device at once: refused before polkit
        conn = self.env.connect()
        with self.assertRaises(GLib.Error) as cm:
            conn.call_sync('org.example.SdTuner1', '/org/example/SdTuner1',
                           'org.example.SdTuner1.Manager', 'StartCheck',
                           GLib.Variant('(sa{sv})', ('quick', {
                               'device': GLib.Variant('ay', card.loop.encode() + b'\0'),
                               'dir': GLib.Variant('ay', b'/tmp\0')})),
                           None, Gio.DBusCallFlags.NONE, 30000, None)
        self.assertIn('not both', cm.exception.message)
        # the full mode's confirmation (destroy_data_on): through the CLI over the bus to the
        # helper, which refuses the fixed disk before the confirmation matters
        r = self.ctl('--json', 'check', '--device', card.loop, '--full', '--destroy-data-on',
                     card.loop)
        self.assertEqual(r.returncode, 1, r.stderr)
        err = json.loads(r.stdout)['error']
        self.assertEqual(err['name'], E + 'NotSupported')
        self.assertIn('not removable', err['message'])
        # refused before polkit: a confirmation without a device, one of the wrong type
        for opts, words in (({'destroy_data_on': GLib.Variant('ay', card.loop.encode() + b'\0')},
                             'goes with a device'),
                            ({'device': GLib.Variant('ay', card.loop.encode() + b'\0'),
                              'destroy_data_on': GLib.Variant('s', card.loop)},
                             'destroy_data_on')):
            with self.assertRaises(GLib.Error) as cm:
                conn.call_sync('org.example.SdTuner1', '/org/example/SdTuner1',
                               'org.example.SdTuner1.Manager', 'StartCheck',
                               GLib.Variant('(sa{sv})', ('full', opts)),
                               None, Gio.DBusCallFlags.NONE, 30000, None)
            self.assertIn(E + 'InvalidArgument', cm.exception.message)
            self.assertIn(words, cm.exception.message)
        self.assertEqual(self.fc.sha256_file(card.backing), before)

    def test_stand_in_over_the_bus(self):
        """a helper on a simulated board (a root prefix) offers the loop device as a stand-in
        for a card and checks it: a wrap fake 600/400 MiB found fake with its map, every
        byte as before; a read-only one is refused, as on a real system a card would be"""
        card = self.fc.Card('wrap', 600, 400, layout='raw', mounted=False)
        self.addCleanup(card.down)
        # a root with a mount table (the board's; the loop device is judged on the host's)
        self.start(root=os.path.join(SRCDIR, 'tests', 'data', 'roots', 'card-readers'))
        before = self.fc.sha256_file(card.backing)
        r = self.ctl('--json', 'devices', user='nobody')
        self.assertEqual(r.returncode, 0, r.stderr)
        listed = {d['path']: d for d in json.loads(r.stdout)['devices']}
        self.assertTrue(listed[card.loop]['offered'], listed[card.loop])
        self.assertEqual(listed[card.loop]['reason_code'], 'stand-in')
        r = self.ctl('--json', 'check', '--device', card.loop, user='nobody')
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertEqual(json.loads(r.stdout)['error']['name'], E + 'NotAuthorized')
        subprocess.run(['blockdev', '--setro', card.loop], check=True)
        try:
            r = self.ctl('--json', 'check', '--device', card.loop)
        finally:
            subprocess.run(['blockdev', '--setrw', card.loop], check=True)
        self.assertEqual(r.returncode, 1, r.stderr)
        err = json.loads(r.stdout)['error']
        self.assertEqual(err['name'], E + 'ReadOnly', err)
        self.assertIn('read-only', err['message'])
        r = self.ctl('--json', 'check', '--device', card.loop)
        self.assertEqual(r.returncode, 0, r.stderr)
        res = json.loads(r.stdout)
        self.assertEqual(res['verdict'], 'fake')
        self.assertTrue(res['target']['whole_device'])
        self.assertLessEqual(res['capacity_at_least_bytes'], card.real_mib * MIB)
        self.assertGreaterEqual(res['capacity_at_most_bytes'], card.real_mib * MIB)
        self.assertEqual(res['map'][-1]['state'], 'wrap')
        self.assertEqual(res['map'][-1]['to'], 600 * MIB)
        self.assertEqual(self.fc.sha256_file(card.backing), before)


if __name__ == '__main__':
    if os.geteuid() != 0:
        print('1..0 # SKIP needs root (FUSE, loop devices, private bus, polkitd)')
        sys.exit(0)
    unittest.main(verbosity=2)
