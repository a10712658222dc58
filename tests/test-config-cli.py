#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: config-cli suite=integration timeout=120 protocol=tap env=test args=@sdtunerctl@
"""`sdtunerctl --root DIR recommend | apply ID [--trial] | revert | status | history` under
umockdev-run, on copies of the board fixtures with a config.txt added.

usage: test-config-cli.py SDTUNERCTL   (run by meson; prints TAP)"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sdtcli  # noqa: E402
from sdtcli import BOOKWORM, DATA, ok, read, write  # noqa: E402

SDTUNERCTL = sdtcli.init()


class Root(sdtcli.Root):
    def json(self, *args):
        p = self.run('--json', *args)
        try:
            return p, json.loads(p.stdout)
        except ValueError:
            return p, None


BLOCK = ('# --- SD Tuner begin: sd-overclock-100 (undo: sdtunerctl revert) ---\n'
         '[all]\n[board-type=0x08]\ndtoverlay=\ndtparam=sd_overclock=100\n[all]\n'
         '# --- SD Tuner end ---\n')
DIFF = ('--- a/boot/firmware/config.txt\n'
        '+++ b/boot/firmware/config.txt\n'
        '@@ -46,3 +46,10 @@\n'
        ' dtoverlay=dwc2,dr_mode=host\n'
        ' \n'
        ' [all]\n' + ''.join('+' + l + '\n' for l in BLOCK.splitlines()))


def pi3_apply_revert(tmp):
    r = Root(tmp, 'pi3', 'pi3', 'pi3.umockdev')
    old = read(r.config)
    r.set_clock(50000000, False)

    p, doc = r.json('recommend')
    ok(p.returncode == 0 and doc is not None, 'pi3: recommend --json', p.stderr)
    recs = doc['recommendations']
    ok([x['id'] for x in recs] == ['sd-overclock-100'], 'pi3: one recommendation, sd-overclock-100', recs)
    ok(recs[0]['lines'] == ['dtparam=sd_overclock=100'] and recs[0]['filter'] == '[board-type=0x08]',
       'pi3: lines and filter', recs[0])
    ok(all(recs[0][k] for k in ('title', 'reason', 'expected_effect', 'risk')), 'pi3: texts present')
    ok(any('A1 and A2' in t for t in doc['notes']), 'pi3: notes explain A1/A2', doc['notes'])

    boot_id = os.path.join(r.path, 'proc', 'sys', 'kernel', 'random', 'boot_id')
    write(boot_id, '0b6f8a52-2a4e-4a55-9a43-6a5f0d3b1c11\n')
    p = r.run('apply', 'sd-overclock-100')
    ok(p.returncode == 0, 'pi3: apply exits 0', p.stderr)
    ok(p.stdout == DIFF, 'pi3: apply prints the exact unified diff', p.stdout)
    ok(read(r.config) == old + BLOCK, 'pi3: config.txt = stock + block')
    print('# ' + '\n# '.join(p.stdout.splitlines()))

    p, st = r.json('status')
    ok(st is not None and st['applied'] and st['id'] == 'sd-overclock-100', 'pi3: status applied', p.stdout)
    ok(st['reboot_pending'] is True and st['verified'] is False, 'pi3: reboot pending before reboot', st)

    p, info = r.json('info')
    sd = info['config']['sd_settings'] if info else []
    ok(info is not None and info['config']['path'] == '/boot/firmware/config.txt', 'pi3: info config.path')
    ok(len(sd) == 1 and sd[0]['text'] == 'dtparam=sd_overclock=100' and sd[0]['managed'] is True
       and sd[0]['applies'] is True and sd[0]['filter'] == '[board-type=0x08]' and sd[0]['line'] == 53,
       'pi3: info config.sd_settings', sd)

    # the same boot id: still waiting for the reboot
    p, st = r.json('status')
    ok(st['reboot_pending'] is True and st['failed'] is False, 'pi3: pending, same boot', st)
    # issue 9 item 5: the wall clock jumped (NTP on a Pi without an RTC), so by the clock the
    # boot looks later than the change; the boot id is unchanged, so no reboot happened
    write(os.path.join(r.path, 'proc', 'uptime'), '0.01 0.01\n')
    p, st = r.json('status')
    ok(st['reboot_pending'] is True and st['failed'] is False and 'restarted' not in st['verification'],
       'pi3: clock jump is not a reboot (boot id unchanged)', st)
    # a new boot id: restarted since the change, and still 50 MHz: it did not work
    write(boot_id, '5d0e7c1a-9f3b-4c2d-8e1f-2b3c4d5e6f70\n')
    p, st = r.json('status')
    ok(st['reboot_pending'] is False and st['failed'] is True and 'restarted' in st['verification'],
       'pi3: failed, restarted since the change without effect', st)
    os.unlink(os.path.join(r.path, 'proc', 'uptime'))

    # "after the reboot": the driver runs the card at 100 MHz
    r.set_clock(100000000, True)
    p, st = r.json('status')
    ok(st['verified'] is True and st['reboot_pending'] is False, 'pi3: verified after reboot', st)

    p, again = r.json('apply', 'sd-overclock-100')
    ok(p.returncode == 0 and again['changed'] is False and again['diff'] == '', 'pi3: apply twice is a no-op',
       p.stdout + p.stderr)
    ok(read(r.config) == old + BLOCK, 'pi3: unchanged by the second apply')

    p = r.run('revert')
    ok(p.returncode == 0 and p.stdout.startswith('--- a/boot/firmware/config.txt'), 'pi3: revert prints a diff',
       p.stdout + p.stderr)
    ok(read(r.config) == old, 'pi3: revert is byte-identical')
    p = r.run('revert')
    ok(p.returncode == 1 and 'nothing to revert' in p.stderr, 'pi3: second revert says so, exit 1', p.stderr)
    p, err = r.json('revert')
    ok(p.returncode == 1 and err['error']['name'] == 'org.example.SdTuner1.Error.NotFound',
       'pi3: --json revert error', p.stdout)

    p, hist = r.json('history')
    kinds = [(e['kind'], e.get('id')) for e in hist['entries']]
    ok(kinds == [('apply', 'sd-overclock-100'), ('revert', 'sd-overclock-100')], 'pi3: history', kinds)
    p = r.run('history')
    ok(p.returncode == 0 and 'applied sd-overclock-100' in p.stdout and 'reverted sd-overclock-100' in p.stdout,
       'pi3: history text', p.stdout)
    backups = os.listdir(os.path.join(r.path, 'var', 'lib', 'sd-tuner', 'backups'))
    ok(len(backups) == 1, 'pi3: one backup: the revert needs none of a state SD Tuner made', backups)


def card_moved(tmp):
    # a card with SD Tuner's Pi 3B block, now in a Pi 3B+: the block is not this board's
    r = Root(tmp, 'pi3-moved', 'pi3', 'pi3.umockdev')
    r.set_clock(50000000, False)
    write(r.config, read(BOOKWORM) + BLOCK)
    write(os.path.join(r.path, 'proc', 'device-tree', 'system', 'linux,revision'), b'\x00\xa0\x20\xd3', 'wb')
    cpuinfo = os.path.join(r.path, 'proc', 'cpuinfo')
    write(cpuinfo, read(cpuinfo).replace('a02082', 'a020d3'))
    p, st = r.json('status')
    ok(st['applied'] is True and st['for_this_board'] is False and st['failed'] is True,
       'moved card: status says the block is for another board', p.stdout + p.stderr)
    p, doc = r.json('recommend')
    recs = doc['recommendations']
    ok([x['filter'] for x in recs] == ['[board-type=0x0d]'], 'moved card: a 3B+ recommendation', recs)
    p = r.run('apply', 'sd-overclock-100')
    ok(p.returncode == 0 and '-[board-type=0x08]\n' in p.stdout and '+[board-type=0x0d]\n' in p.stdout,
       'moved card: apply replaces the block', p.stdout + p.stderr)


def pi3_trial(tmp):
    r = Root(tmp, 'pi3-trial', 'pi3', 'pi3.umockdev')
    old = read(r.config)
    r.set_clock(50000000, False)
    p, res = r.json('apply', 'sd-overclock-100', '--trial')
    ok(p.returncode == 0 and res['path'] == '/boot/firmware/tryboot.txt' and res['trial'] is True,
       'trial: writes tryboot.txt', p.stdout + p.stderr)
    ok(read(os.path.join(r.path, 'boot', 'firmware', 'tryboot.txt')) == old + BLOCK,
       'trial: tryboot.txt = full config.txt + block')
    ok(read(r.config) == old, 'trial: config.txt untouched')
    p = r.run('apply', '--trial', 'sd-overclock-100')
    ok(p.returncode == 0 and "sudo reboot '0 tryboot'" in p.stderr, 'trial: says how to reboot into it', p.stderr)
    p, st = r.json('status')
    ok(st['applied'] is False and st['trial'] and st['trial']['id'] == 'sd-overclock-100', 'trial: status', st)
    write(os.path.join(r.path, 'proc', 'device-tree', 'chosen', 'bootloader', 'tryboot'), b'\0\0\0\1', 'wb')
    p, st = r.json('status')
    ok(st['tryboot_active'] is True, 'trial: tryboot boot detected', st)


def kmsg_replace(r, old, new):
    kmsg = os.path.join(r.path, 'dev', 'kmsg')
    text = read(kmsg)
    assert old in text
    write(kmsg, text.replace(old, new))


def pi5_cqe(tmp):
    # an allow-list miss: the host queues in software, the A2 card is not in CQ mode
    r = Root(tmp, 'pi5-hsq', 'pi5', 'pi5.umockdev')
    old = read(r.config)
    kmsg_replace(r, 'mmc0: Command Queue Engine enabled, 31 tags', 'mmc0: Host Software Queue enabled')
    p, doc = r.json('recommend')
    recs = doc['recommendations'] if doc else []
    ok([x['id'] for x in recs] == ['sd-cqe-2'] and recs[0]['lines'] == ['dtparam=sd_cqe=2']
       and recs[0]['filter'] == '[board-type=0x17]', 'pi5: sd-cqe-2 for an A2 card out of CQ', p.stdout)
    ok(any('can queue commands' in t for t in doc['notes']), 'pi5: note on command queueing', doc['notes'])
    ok(recs[0].get('trial_only') is True and 'corrupt data' in recs[0]['risk'], 'pi5: sd-cqe-2 is a trial only',
       recs[0])
    # issue 10: some cards corrupt data with queueing forced on: a trial, kept only after the soak test
    p = r.run('apply', 'sd-cqe-2')
    ok(p.returncode == 1 and 'apply sd-cqe-2 --trial' in p.stderr and read(r.config) == old,
       'pi5: apply sd-cqe-2 without --trial is refused, nothing written', p.stdout + p.stderr)
    p = r.run('apply', 'sd-cqe-2', '--trial')
    tryboot = os.path.join(r.path, 'boot', 'firmware', 'tryboot.txt')
    ok(p.returncode == 0 and os.path.exists(tryboot) and '\ndtparam=sd_cqe=2\n' in read(tryboot)
       and '\n[board-type=0x17]\n' in read(tryboot) and read(r.config) == old,
       'pi5: apply sd-cqe-2 --trial', p.stdout + p.stderr)
    p, st = r.json('status')
    ok(st['trial'] is not None and st['trial']['id'] == 'sd-cqe-2', 'pi5: trial pending before reboot', st)
    p = r.run('revert')
    ok(p.returncode == 0 and read(r.config) == old and not os.path.exists(tryboot),
       'pi5: revert cancels the trial', p.stderr)

    # CQE recovery errors: switch queueing off; an sd_cqe line for this board only is replaced
    r = Root(tmp, 'pi5-recovery', 'pi5', 'pi5.umockdev')
    write(r.config, read(BOOKWORM) + '[board-type=0x17]\ndtparam=sd_cqe=2\n[pi5]\ndtparam=sd_cqe=1\n[all]\n')
    old = read(r.config)
    kmsg_replace(r, 'mmc0: new ultra high speed', 'mmc0: running CQE recovery\n6,9,1600000,-;mmc0: new ultra high speed')
    p, doc = r.json('recommend')
    ok([x['id'] for x in doc['recommendations']] == ['sd-cqe-0'], 'pi5: sd-cqe-0 after CQE recovery', p.stdout)
    p, res = r.json('apply', 'sd-cqe-0')
    ok(p.returncode == 0 and res['disabled'] == ['dtparam=sd_cqe=2'], 'pi5: the board-only sd_cqe line is switched off',
       p.stdout + p.stderr)
    # (the other warning: no benchmark of the card to verify the change with after the restart)
    ok(len([w for w in res['warnings'] if 'other boards' in w]) == 1 and 'other boards' in res['warnings'][0],
       'pi5: the [pi5] line is kept and reported', res['warnings'])
    ok('#sd-tuner-off: dtparam=sd_cqe=2\n' in read(r.config), 'pi5: marker in the file')
    p = r.run('revert')
    ok(p.returncode == 0 and read(r.config) == old, 'pi5: revert restores the switched-off line', p.stderr)


def other_boards(tmp):
    r = Root(tmp, 'pi4', 'pi4', 'pi4.umockdev')
    p, doc = r.json('recommend')
    ok(p.returncode == 0 and doc['recommendations'] == [], 'pi4: nothing to set', p.stdout)
    ok(any('DDR50' in t for t in doc['notes']), 'pi4: note says DDR50 is in use', doc['notes'])
    p = r.run('apply', 'sd-overclock-100')
    ok(p.returncode == 1 and 'not a recommendation' in p.stderr, 'pi4: apply of a foreign id fails', p.stderr)
    ok(read(r.config) == read(BOOKWORM), 'pi4: config.txt untouched')

    r = Root(tmp, 'pi5', 'pi5', 'pi5.umockdev')
    p, doc = r.json('recommend')
    ok(p.returncode == 0 and doc['recommendations'] == [], 'pi5: CQE already enabled, nothing to set', p.stdout)

    r = Root(tmp, 'tinker', 'tinker-board', 'tinker-board.umockdev')
    p, doc = r.json('recommend')
    ok(p.returncode == 0 and doc['recommendations'] == [] and
       any('not a Raspberry Pi' in t for t in doc['notes']), 'non-Pi: nothing, explained', p.stdout)


def legacy_lines(tmp):
    r = Root(tmp, 'pi3-legacy', 'pi3', 'pi3.umockdev', os.path.join(DATA, 'config', 'legacy-sd-lines.txt'))
    p, info = r.json('info')
    sd = info['config']['sd_settings']
    first = sd[0]
    ok(first['text'] == 'dtoverlay=sdhost,overclock_50=100' and first['applies'] is True
       and first['filter'] == '[pi3]' and first['kind'] == 'sdhost-overlay' and 'Wi-Fi' in first['warning'],
       'legacy: sdhost overlay reported with its Wi-Fi warning', first)
    ok([s['applies'] for s in sd] == [True, True, True, True, False, False, True], 'legacy: applies per line',
       [(s['text'], s['applies']) for s in sd])


def bad_input(tmp):
    cases = [
        ('nul', b'dtparam=audio=on\n\0\n', 'NUL byte'),
        ('2mb', b'#' * 2000000 + b'\n', '1 MiB'),
        ('long-line', b'x' * 10000 + b'\n', '10000 characters'),
        ('unterminated', b'a=1\n[pi4\nb=1\n', 'never closes it'),
        ('only-none', b'[none]\n', '[none]'),
    ]
    for name, content, needle in cases:
        r = Root(tmp, 'bad-' + name, 'pi3', 'pi3.umockdev', None)
        r.set_clock(50000000, False)
        write(r.config, content, 'wb')
        p = r.run('apply', 'sd-overclock-100')
        ok(p.returncode == 1 and needle in p.stderr and r.config in p.stderr,
           f'bad input {name}: clear error naming the file', p.stderr)
        ok(read(r.config, 'rb') == content, f'bad input {name}: file untouched')

    # the Bookworm stub in /boot, /boot/firmware missing
    r = Root(tmp, 'bad-no-firmware', 'pi3', 'pi3.umockdev', None)
    write(os.path.join(r.path, 'boot', 'config.txt'),
          'DO NOT EDIT THIS FILE\n\nThe file you are looking for has moved to /boot/firmware/config.txt\n')
    p = r.run('apply', 'sd-overclock-100')
    ok(p.returncode == 1 and 'mount the boot partition' in p.stderr, 'missing /boot/firmware: says what to do',
       p.stderr)
    p, st = r.json('status')
    ok(p.returncode == 0 and st['applied'] is False and 'mount the boot partition' in st['error'],
       'missing /boot/firmware: status explains', p.stdout + p.stderr)
    p = r.run('status')
    ok(p.returncode == 0 and 'mount the boot partition' in p.stdout, 'missing /boot/firmware: status text',
       p.stdout)

    # a symlink leading out of the boot partition
    r = Root(tmp, 'bad-symlink', 'pi3', 'pi3.umockdev', None)
    r.set_clock(50000000, False)
    outside = os.path.join(r.path, 'elsewhere.txt')
    write(outside, read(BOOKWORM))
    os.makedirs(os.path.dirname(r.config), exist_ok=True)
    os.symlink(outside, r.config)
    p = r.run('apply', 'sd-overclock-100')
    ok(p.returncode == 1 and 'outside the boot partition' in p.stderr, 'symlink out: refused', p.stderr)
    ok(read(outside) == read(BOOKWORM), 'symlink out: target untouched')

    # a real read-only boot partition: a tmpfs remounted read-only in a private mount namespace
    r = Root(tmp, 'bad-read-only', 'pi3', 'pi3.umockdev')
    r.set_clock(50000000, False)
    boot = os.path.dirname(r.config)
    script = (f'set -e; mount -t tmpfs -o size=4m tmpfs "{boot}"; cp "{BOOKWORM}" "{r.config}"; '
              f'mount -o remount,ro "{boot}"; echo mounted >&2; '
              f'umockdev-run -d "{r.umockdev}" -- "{SDTUNERCTL}" --root "{r.path}" apply sd-overclock-100 '
              f'|| echo "exit=$?" >&2; cmp "{BOOKWORM}" "{r.config}" && echo same >&2')
    p = subprocess.run(['unshare', '-m', 'sh', '-c', script], capture_output=True, text=True, env=sdtcli.env(),
                       timeout=60)
    if 'mounted' not in p.stderr:
        sdtcli.skip('read-only file system', f'cannot mount here: {p.stderr.strip()}')
    else:
        ok('exit=1' in p.stderr and 'Read-only file system' in p.stderr and 'remount' in p.stderr
           and r.config in p.stderr and 'same' in p.stderr,
           'read-only file system: clear error naming the file, file untouched', p.stderr)
        backups = os.path.join(r.path, 'var', 'lib', 'sd-tuner', 'backups')
        ok(not os.path.exists(backups) or os.listdir(backups) == [], 'read-only file system: no stray backup')

    # usage errors exit 2
    r = Root(tmp, 'usage', 'pi3', 'pi3.umockdev')
    p = r.run('apply')
    ok(p.returncode == 2, 'apply without an id: exit 2', p.stderr)
    p = r.run('revert', 'extra')
    ok(p.returncode == 2, 'revert with an argument: exit 2', p.stderr)
    p = r.run('status', '--json')
    ok(p.returncode == 0 and json.loads(p.stdout)['applied'] is False, '--json after the command', p.stdout)
    p = r.run('apply', 'no-such-id', '--json')
    ok(p.returncode == 1 and json.loads(p.stdout)['error']['name'] == 'org.example.SdTuner1.Error.NotFound',
       'apply --json of an unknown id', p.stdout)


PI3_KEPT = '[all]\n[board-type=0x08]\ndtoverlay=\ngpu_mem=64\ndtparam=sd_overclock=80\n[all]\n'


def journal_path(r):
    return os.path.join(r.path, 'var', 'lib', 'sd-tuner', 'config-journal.json')


def user_lines(tmp):
    # issue 9 item 1: revert keeps lines SD Tuner did not write, with or without the journal
    for with_journal in (True, False):
        tag = 'with journal' if with_journal else 'without journal'
        r = Root(tmp, 'user-lines-' + ('j' if with_journal else 'nj'), 'pi3', 'pi3.umockdev')
        old = read(r.config)
        r.set_clock(50000000, False)
        p = r.run('apply', 'sd-overclock-100')
        ok(p.returncode == 0, f'user lines {tag}: apply', p.stderr)
        write(r.config, read(r.config).replace('dtparam=sd_overclock=100\n',
                                               'gpu_mem=64\ndtparam=sd_overclock=80\n'))
        if not with_journal:
            os.unlink(journal_path(r))
        p = r.run('revert')
        ok(p.returncode == 0 and read(r.config) == old + PI3_KEPT,
           f'user lines {tag}: revert keeps gpu_mem=64 and sd_overclock=80 under the filter',
           p.stderr + read(r.config)[-300:])
        want = 'kept 2 lines SD Tuner did not write' if with_journal else 'cannot tell are its own'
        ok(want in p.stderr and '“gpu_mem=64”' in p.stderr and '“dtparam=sd_overclock=80”' in p.stderr,
           f'user lines {tag}: says which lines were kept and why', p.stderr)


def tampered_journal(tmp):
    # issue 9 item 2: a journal cut down to ["[all]"] must not give a "successful" revert
    r = Root(tmp, 'tampered', 'pi3', 'pi3.umockdev')
    old = read(r.config)
    r.set_clock(50000000, False)
    p = r.run('apply', 'sd-overclock-100')
    applied = read(r.config)
    j = json.loads(read(journal_path(r)))
    j['block'] = ['[all]']
    write(journal_path(r), json.dumps(j))
    p = r.run('revert')
    ok(p.returncode == 1 and 'changes nothing' in p.stderr and journal_path(r) in p.stderr,
       'tampered journal: revert refuses with the way out', p.stdout + p.stderr)
    ok(read(r.config) == applied, 'tampered journal: config.txt untouched')
    p, st = r.json('status')
    ok(st is not None and st['applied'] is True and st['id'] == 'sd-overclock-100',
       'tampered journal: status still shows the change', p.stdout)
    # members of the wrong type: corrupt state, not Json-CRITICAL (fatal-criticals is on)
    j['block'] = 5
    write(journal_path(r), json.dumps(j))
    p = r.run('revert')
    ok(p.returncode == 1 and 'wrong type' in p.stderr and 'CRITICAL' not in p.stderr,
       'journal member of the wrong type: clear error', p.stderr)
    os.unlink(journal_path(r))
    p = r.run('revert')
    ok(p.returncode == 0 and read(r.config) == old, 'tampered journal: the way out works', p.stderr)


def trial_cancel(tmp):
    # issue 9 item 3: revert takes a trial back
    r = Root(tmp, 'trial-cancel', 'pi3', 'pi3.umockdev')
    old = read(r.config)
    tryboot = os.path.join(r.path, 'boot', 'firmware', 'tryboot.txt')
    r.set_clock(50000000, False)
    p = r.run('apply', 'sd-overclock-100', '--trial')
    ok(p.returncode == 0 and os.path.exists(tryboot), 'trial cancel: trial written', p.stderr)
    p, res = r.json('revert')
    ok(p.returncode == 0 and res is not None and res.get('trial_cancelled') is True,
       'trial cancel: revert cancels the trial', p.stdout + p.stderr)
    ok(not os.path.exists(tryboot) and read(r.config) == old, 'trial cancel: tryboot.txt removed, config.txt same')
    # issue 26 item 7: the words tell a trial from an applied change
    p = r.run('history')
    lines = [ln for ln in p.stdout.splitlines() if ln.strip()]
    ok(p.returncode == 0 and len(lines) >= 2 and 'trial of sd-overclock-100' in lines[-2]
       and 'cancelled a trial (config.txt unchanged)' in lines[-1] and 'reverted' not in lines[-1],
       'trial cancel: history lists the trial and its cancel, not an apply and a revert', p.stdout)
    p = r.run('apply', 'sd-overclock-100', '--trial')
    p = r.run('revert')
    ok(p.returncode == 0 and 'config.txt was not changed' in p.stderr
       and 'go back to the previous setting' not in p.stderr,
       'trial cancel: revert says config.txt was not changed, not that a reboot takes it back',
       p.stderr)
    p = r.run('apply', 'sd-overclock-100', '--trial')
    p, st = r.json('status')
    ok(st['trial'] is not None, 'trial cancel: the trial prepared again', st)
    p = r.run('revert')
    p, st = r.json('status')
    ok(st['trial'] is None, 'trial cancel: status offers no trial', st)
    # hand edits after the trial was prepared: status says it is stale
    p = r.run('apply', 'sd-overclock-100', '--trial')
    write(r.config, old + 'gpu_mem=64\n')
    p, st = r.json('status')
    ok(st['trial'] is not None and st['trial'].get('stale') is True and '--trial' in (st['trial'].get('note') or ''),
       'trial: config.txt changed since, status says to rebuild', st)
    p = r.run('apply', 'sd-overclock-100', '--trial')
    ok(p.returncode == 0 and read(tryboot) == old + 'gpu_mem=64\n' + BLOCK,
       'trial: rebuilt from the current config.txt', p.stderr)
    # a tryboot.txt over 1 MiB is never overwritten
    big = '#' * (1024 * 1024 + 10) + '\n'
    write(tryboot, big)
    p = r.run('apply', 'sd-overclock-100', '--trial')
    ok(p.returncode == 1 and 'move it away' in p.stderr and read(tryboot) == big,
       'trial: a large tryboot.txt is refused, not overwritten', p.stderr)


def damaged_block(tmp):
    # issue 9 item 7: a deleted end marker gets one story from status, apply and revert
    r = Root(tmp, 'damaged', 'pi3', 'pi3.umockdev')
    r.set_clock(50000000, False)
    p = r.run('apply', 'sd-overclock-100')
    write(r.config, read(r.config).replace('# --- SD Tuner end ---\n', ''))
    damaged = read(r.config)
    p, st = r.json('status')
    diag = st['error'] if st else None
    ok(diag is not None and st.get('damaged') is True and 'dtparam=sd_overclock=100' in diag and
       'end marker' in diag, 'damaged block: status gives the diagnosis', p.stdout)
    p = r.run('status')
    ok(diag is not None and diag in p.stdout, 'damaged block: status text', p.stdout)
    p = r.run('apply', 'sd-overclock-100')
    ok(p.returncode == 1 and diag is not None and diag in p.stderr, 'damaged block: apply says the same',
       p.stderr)
    p = r.run('revert')
    ok(p.returncode == 1 and diag is not None and diag in p.stderr, 'damaged block: revert says the same',
       p.stderr)
    ok(read(r.config) == damaged, 'damaged block: file untouched')
    # the way out it names works
    write(r.config, damaged + '# --- SD Tuner end ---\n')
    p = r.run('revert')
    ok(p.returncode == 0 and read(r.config) == read(BOOKWORM), 'damaged block: the way out works', p.stderr)


def full_file_system(tmp):
    # issue 9 item 10: revert on a full file system (the state dir on a tiny ext4, filled)
    if os.geteuid() != 0:
        sdtcli.skip('full file system', 'needs root')
        return
    r = Root(tmp, 'full-fs', 'pi3', 'pi3.umockdev')
    r.set_clock(50000000, False)
    old = read(r.config)
    state = os.path.join(r.path, 'var', 'lib', 'sd-tuner')
    os.makedirs(state, exist_ok=True)
    img = os.path.join(tmp, 'state.img')
    subprocess.run(['truncate', '-s', '2M', img], check=True)
    subprocess.run(['mkfs.ext4', '-q', '-F', '-m', '0', img], check=True)
    p = subprocess.run(['mount', '-o', 'loop', img, state], capture_output=True, text=True)
    if p.returncode != 0:
        sdtcli.skip('full file system', f'cannot mount a loop file system here: {p.stderr.strip()}')
        return

    def fill():
        fd = os.open(os.path.join(state, 'fill'), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            for size in (65536, 4096, 512, 1):
                try:
                    while True:
                        os.write(fd, b'\0' * size)
                        os.fsync(fd)
                except OSError:
                    pass
        finally:
            os.close(fd)
        st = os.statvfs(state)
        return st.f_bavail * st.f_frsize

    try:
        # not edited since the apply: no new backup is needed
        p = r.run('apply', 'sd-overclock-100')
        free = fill()
        p, rev = r.json('revert')
        ok(p.returncode == 0 and rev is not None and read(r.config) == old and rev['backup'] is None
           and rev.get('backup_before_change') is not None
           and any('no new backup was needed' in w for w in rev['warnings']),
           f'full file system ({free} bytes free): revert of SD Tuner\'s own state works and names '
           'the backup with the old bytes', p.stdout + p.stderr)
        # edited since: the backup fails, the revert still goes, and says so
        os.unlink(os.path.join(state, 'fill'))
        p = r.run('apply', 'sd-overclock-100')
        edited = read(r.config).replace('\n[cm4]\n', '\n# my note\n[cm4]\n')
        write(r.config, edited)
        free = fill()
        p, rev = r.json('revert')
        ok(p.returncode == 0 and rev is not None and rev['backup'] is None
           and any('could not be saved' in w and 'No space left' in w for w in rev['warnings'])
           and read(r.config) == old.replace('\n[cm4]\n', '\n# my note\n[cm4]\n'),
           f'full file system ({free} bytes free): revert of an edited file works and says the '
           'backup was not saved', p.stdout + p.stderr)
    finally:
        subprocess.run(['umount', state])


def cloud_init_untouched(tmp):
    """issue 32: Raspberry Pi OS trixie keeps cloud-init's files on the boot partition
    beside config.txt; apply, a trial and revert leave them byte for byte and stat for
    stat as they were, and add no file beside them but tryboot.txt (the trial's)"""
    r = Root(tmp, 'pi3-cloud-init', 'pi3', 'pi3.umockdev')
    r.set_clock(50000000, False)
    files = {'user-data': '#cloud-config\nhostname: pi\nusers:\n  - name: pi\n',
             'meta-data': 'instance-id: rpios-image\n',
             'network-config': 'network:\n  version: 2\n  ethernets: {}\n'}
    for name, text in files.items():
        write(os.path.join(r.boot, name), text)
        os.utime(os.path.join(r.boot, name), ns=(1_700_000_000_000_000_000,) * 2)

    def snapshot():
        out = {}
        for name in files:
            path = os.path.join(r.boot, name)
            st = os.stat(path)
            out[name] = (read(path, 'rb'), st.st_mode, st.st_mtime_ns, st.st_ino)
        return out
    before = snapshot()
    listing = sorted(os.listdir(r.boot))
    steps = [('apply', 'sd-overclock-100'), ('revert',),
             ('apply', 'sd-overclock-100', '--trial'), ('revert',)]
    for args in steps:
        p = r.run(*args)
        ok(p.returncode == 0, f'cloud-init: {" ".join(args)} exits 0', p.stderr)
        ok(snapshot() == before, f'cloud-init: after {" ".join(args)}, user-data, meta-data '
           'and network-config are byte-identical, same mode, mtime and inode')
        extra = sorted(set(os.listdir(r.boot)) - set(listing) - {'tryboot.txt'})
        ok(extra == [], f'cloud-init: after {" ".join(args)}, no new file in the boot folder',
           extra)


sdtcli.main('sdt-config-cli',
            pi3_apply_revert,
            cloud_init_untouched,
            pi3_trial,
            card_moved,
            pi5_cqe,
            other_boards,
            legacy_lines,
            bad_input,
            user_lines,
            tampered_journal,
            trial_cancel,
            damaged_block,
            full_file_system)
