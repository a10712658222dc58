#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: check-dir-{case} suite=check timeout=300 parallel=false run=exec
#    needs=fuse3,polkit env=check-bus
#    cases=methods:CheckDirBusTest args={id}
#    depends=sd_tuner_helper,sdtunerctl,polkit_policy,sdt_fake_card
"""Issue 32: `sdtunerctl check --dir DIR` for a normal user, through the helper
(StartCheck's "dir" option, org.example.sdtuner.check), the administrator's password
typed in the terminal (real pty, real polkitd, PAM in a private mount namespace), on a
FUSE fake card under a loop device (tests/fake-card): the same verdict as root
in-process; a wrong password or no agent refused with nothing written; the helper, which
runs as root, refuses a folder through a symbolic link, one that is not the caller's, one
others may write to, one under another user's folder, one the caller cannot reach, and a
tmpfs (saying it is memory); bad options are D-Bus errors before polkit.  And the
in-process `check --dir /tmp` on a real tmpfs /tmp says that /tmp is in memory.  Root."""

import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sdtharness import BUILDDIR, TestEnv  # noqa: E402
from test_check_bus import FakeCard, MIB  # noqa: E402

SDTUNERCTL = os.path.join(BUILDDIR, 'src', 'cli', 'sdtunerctl')
E = 'org.example.SdTuner1.Error.'
NOBODY = 65534


def json_in(text):
    return json.loads(text[text.index('{'):text.rindex('}') + 1])


def one_line(text):
    """the terminal's text without colour codes and line breaks (long messages wrap)"""
    return ' '.join(re.sub(r'\x1b\[[0-9;]*m', '', text).split())


class CheckDirBusTest(unittest.TestCase):
    def setUp(self):
        self.card = FakeCard('zeros', 384)
        self.addCleanup(self.card.down)
        os.chmod(self.card.dir, 0o755)  # the user reaches the card's mount
        self.mine = os.path.join(self.card.mnt, 'mine')
        os.mkdir(self.mine, 0o755)
        os.chown(self.mine, NOBODY, NOBODY)
        self.env = TestEnv(fixture=None, bench_dir=False)
        self.env.start()
        self.addCleanup(self.env.stop)

    def ctl(self, *args, user=None):
        return self.env.run_as(user, [SDTUNERCTL] + list(args), timeout=300,
                               stdin=subprocess.DEVNULL)

    def test_user_folder_with_password(self):
        rc, text = self.env.run_in_terminal(
            'nobody', [SDTUNERCTL, '--json', 'check', '--dir', self.mine], timeout=300)
        self.assertEqual(rc, 0, text)
        self.assertIn('==== AUTHENTICATING FOR org.example.sdtuner.check ====', text)
        self.assertIn('==== AUTHENTICATION COMPLETE ====', text)
        bus = json_in(text)
        # root mode: in-process as root, in a folder of root's on the same card
        theirs = os.path.join(self.card.mnt, 'roots')
        os.mkdir(theirs, 0o755)
        r = self.ctl('--root', '/', '--json', 'check', '--dir', theirs)
        self.assertEqual(r.returncode, 0, r.stderr)
        local = json.loads(r.stdout)
        self.assertEqual(sorted(bus), sorted(local))
        for key in ('verdict', 'failure', 'claimed_bytes', 'mode'):
            self.assertEqual(bus[key], local[key], key)
        self.assertEqual(bus['verdict'], 'fake')
        self.assertEqual(bus['failure'], 'lost-writes')
        self.assertEqual(bus['target']['path'], self.mine)
        self.assertTrue(bus['target']['stand_in'])
        self.assertEqual(bus['target']['disk'], local['target']['disk'])
        self.assertLessEqual(abs(bus['estimated_capacity_bytes'] - self.card.real),
                             self.card.real // 10)
        # a stand-in is not the card: no history entry, as in-process
        history = json.loads(self.ctl('--json', 'history').stdout)['entries']
        self.assertEqual([e for e in history if e['kind'] == 'check'], [])
        self.assertEqual(os.listdir(self.mine), [])
        self.card.verify()

    def test_wrong_password_or_no_agent_nothing_written(self):
        free = self.card.free()
        rc, text = self.env.run_in_terminal(
            'nobody', [SDTUNERCTL, 'check', '--dir', self.mine], password_ok=False)
        self.assertEqual(rc, 1, text)
        self.assertIn('==== AUTHENTICATING FOR org.example.sdtuner.check ====', text)
        self.assertIn('Not authorized', text)
        self.assertNotIn('Verdict', text)
        r = self.ctl('--json', 'check', '--dir', self.mine, user='nobody')
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertEqual(json.loads(r.stdout)['error']['name'], E + 'NotAuthorized')
        self.assertIn('run sdtunerctl in a terminal', r.stderr)
        self.assertNotIn('sudo', r.stderr)
        self.assertEqual(self.card.free(), free)
        self.assertEqual(os.listdir(self.mine), [])
        self.card.verify()

    def refused_for(self, user, folder, *words, name='InvalidArgument'):
        """check --dir FOLDER as USER (None: root, authorized without a password; else
        with the password in a terminal): refused after polkit, exit 1, with WORDS"""
        free = self.card.free()
        if user is None:
            r = self.ctl('--json', 'check', '--dir', folder)
            self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
            err = json.loads(r.stdout)['error']
            self.assertEqual(err['name'], E + name)
            text = one_line(err['message'])
        else:
            rc, text = self.env.run_in_terminal(user, [SDTUNERCTL, 'check', '--dir', folder])
            self.assertEqual(rc, 1, text)
            self.assertIn('==== AUTHENTICATION COMPLETE ====', text)
            text = one_line(text)
        for w in words:
            self.assertIn(w, text)
        self.assertEqual(self.card.free(), free)
        return text

    def test_helper_refuses_what_the_caller_may_not_use(self):
        # a folder of root's: the user cannot have root reserve space in it
        roots = os.path.join(self.card.mnt, 'roots')
        os.mkdir(roots, 0o755)
        self.refused_for('nobody', roots, f'{roots} is not your folder',
                         'make one (mkdir) and name it')
        # and the other way round: root's call, the user's folder
        self.refused_for(None, self.mine, f'{self.mine} is not your folder')
        # a symbolic link, even one to the user's own folder
        link = os.path.join(self.card.mnt, 'link')
        os.symlink(self.mine, link)
        self.refused_for('nobody', link, f'{link} is a symbolic link',
                         'name the folder it points to itself')
        # one others may write to
        shared = os.path.join(self.card.mnt, 'shared')
        os.mkdir(shared)
        os.chmod(shared, 0o777)
        os.chown(shared, NOBODY, NOBODY)
        self.refused_for('nobody', shared, f'{shared} is writable by other users',
                         'chmod go-w')
        # the user's folder inside a folder of another user's (daemon), who could swap it
        other = os.path.join(self.card.mnt, 'daemons')
        os.mkdir(other, 0o755)
        shutil.chown(other, 'daemon', 'daemon')
        inner = os.path.join(other, 'mine')
        os.mkdir(inner, 0o755)
        os.chown(inner, NOBODY, NOBODY)
        self.refused_for('nobody', inner, f'{other} belongs to another user')
        # the user's folder that the user cannot reach (a private folder of root's above)
        private = os.path.join(self.card.mnt, 'private')
        os.mkdir(private, 0o700)
        hidden = os.path.join(private, 'mine')
        os.mkdir(hidden, 0o755)
        os.chown(hidden, NOBODY, NOBODY)
        self.refused_for('nobody', hidden, f'You cannot open {private} yourself',
                         f'so {hidden} is not a folder you could use')
        # ... unless its POSIX ACL lets the user through (as udisks' /media/USER does):
        # then the next rule speaks (here: the folder is group-writable)
        # (setfacl -m u:nobody:x, written as the kernel's xattr: the tool may be absent)
        none = 0xffffffff
        acl = struct.pack('<I', 2) + b''.join(
            struct.pack('<HHI', tag, perm, uid) for tag, perm, uid in
            ((0x01, 7, none), (0x02, 1, NOBODY), (0x04, 0, none), (0x10, 1, none),
             (0x20, 0, none)))
        os.setxattr(private, 'system.posix_acl_access', acl)
        os.chmod(hidden, 0o775)
        self.refused_for('nobody', hidden, f'{hidden} is writable by other users')
        # the user's folder that the user may not write in
        readonly = os.path.join(self.card.mnt, 'readonly')
        os.mkdir(readonly, 0o555)
        os.chown(readonly, NOBODY, NOBODY)
        self.refused_for('nobody', readonly, f'You could not write in {readonly} yourself',
                         'chmod u+wx')
        # no such folder
        nothing = os.path.join(self.mine, 'nothing')
        self.refused_for('nobody', nothing, f'Cannot use {nothing}')
        self.card.verify()

    def test_tmpfs_is_memory(self):
        """a real tmpfs, shared like /tmp (1777), and the user's folder on another"""
        for mode, owner in (('1777', 0), ('0755', NOBODY)):
            with self.subTest(mode=mode):
                mnt = tempfile.mkdtemp(prefix='sdt-tmpfs-', dir='/var/tmp')
                os.chmod(mnt, 0o755)
                subprocess.run(['mount', '-t', 'tmpfs', '-o', f'mode={mode}', 'sdt-test-tmpfs',
                                mnt], check=True)
                try:
                    os.chown(mnt, owner, owner)
                    text = self.refused_for('nobody', mnt, f'{mnt} is in memory (tmpfs)',
                                            'choose a folder on the card, such as /var/tmp')
                    self.assertNotIn('writable by other users', text)
                    self.assertEqual(os.listdir(mnt), [])
                finally:
                    subprocess.run(['umount', mnt], check=True)
                    os.rmdir(mnt)

    def test_in_process_tmp_is_memory(self):
        """regression: `check --dir /tmp` on a tmpfs /tmp (trixie) said "writable by other
        users"; it says /tmp is in memory, in-process and over the bus alike"""
        script = ('mount -t tmpfs sdt-test-tmpfs /tmp && stat -f -c %T /tmp >&2 && '
                  '"$@"; rc=$?; echo "---left in /tmp:"; ls -A /tmp; exit $rc')
        p = subprocess.run(['unshare', '--mount', '--propagation', 'private', 'sh', '-c',
                            script, 'sh', SDTUNERCTL, '--root', '/', 'check', '--dir', '/tmp'],
                           capture_output=True, text=True, timeout=60, env=self.env.environ)
        self.assertTrue(p.stderr.startswith('tmpfs'), p.stderr)
        self.assertEqual(p.returncode, 1, p.stderr)
        err = one_line(p.stderr)
        self.assertIn('/tmp is in memory (tmpfs), not on a card', err)
        self.assertIn('/var/tmp', err)
        self.assertNotIn('writable by other users', err)
        self.assertEqual(p.stdout.split('---left in /tmp:\n', 1)[1].split(), [])

    def test_bad_options_before_polkit(self):
        for opts, words in (("{'dir': <'/var/tmp'>}", 'must be of type ay, not s'),
                            ("{'dir': <b'var/tmp'>}", 'must be an absolute path'),
                            ("{'dir': <b'/'>}", 'must be an absolute path'),
                            ("{'dir': <b'/var/../tmp'>}", 'without “..”'),
                            ("{'dir': <[byte 0x2f, 0x76, 0x00, 0x61, 0x00]>}",
                             'must be an absolute path'),
                            ("{'dir': <[byte 0x2f, 0x76, 0x61]>}", 'must be an absolute path')):
            with self.subTest(opts=opts):
                rc, out = self.env.gdbus_as('nobody', 'StartCheck', 'quick', opts)
                self.assertNotEqual(rc, 0, out)
                self.assertIn(E + 'InvalidArgument', out)
                self.assertIn(words, out)
        # unknown mode first, as before
        rc, out = self.env.gdbus_as('nobody', 'StartCheck', 'thorough', "{'dir': <b'/x'>}")
        self.assertIn(E + 'InvalidArgument', out)


if __name__ == '__main__':
    if os.geteuid() != 0:
        print('1..0 # SKIP needs root (FUSE, loop devices, private bus, polkitd)')
        sys.exit(0)
    unittest.main(verbosity=2)
