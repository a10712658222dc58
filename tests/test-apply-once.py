#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: apply-once suite=integration timeout=180 protocol=tap env=test args=@sdtunerctl@
"""`sdtunerctl --root DIR apply ID [--trial] | revert` read config.txt (and each include) once,
under the lock, and the recommendation, the edit and the write are made on those bytes: counted
with strace (every open(2) of config.txt and of its include), on a copy of the pi3 fixture under
umockdev-run.  And the other side of one read: a config.txt changed by another program after that
read, while the apply is on its way to the rename, is not written over (strace holds the apply at
its first fsync(2), the backup's, while the test edits the file in place, or replaces it).

usage: test-apply-once.py SDTUNERCTL   (run by meson; prints TAP)"""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sdtcli  # noqa: E402
from sdtcli import BOOKWORM, ok, read, skip, write  # noqa: E402

SDTUNERCTL = sdtcli.init()
CI = os.environ.get('CI') == 'true'
BOOT_ID = '0b6f8a52-2a4e-4a55-9a43-6a5f0d3b1c11\n'
CHANGED = 'was changed by another program while SD Tuner was editing it'


def root(tmp, name):
    """pi3 with a config.txt that includes extra.txt, a boot id (so the apply hashes the config.txt
    in effect too), and the SD clock at 50 MHz (sd-overclock-100 is recommended)"""
    r = sdtcli.Root(tmp, name, 'pi3', 'pi3.umockdev')
    write(r.config, read(BOOKWORM) + 'include extra.txt\n')
    write(os.path.join(r.boot, 'extra.txt'), '# an include of the user\n')
    write(os.path.join(r.path, 'proc', 'sys', 'kernel', 'random', 'boot_id'), BOOT_ID)
    r.set_clock(50000000, False)
    return r


def strace_argv(r, log, extra, *args):
    return (['umockdev-run', '-d', r.umockdev, '--', 'strace', '-f', '-qq', '-o', log] + extra +
            [SDTUNERCTL, '--root', r.path] + list(args))


def opens(r, *args):
    """(process, opens of config.txt, opens of extra.txt) of `sdtunerctl --root R ARGS`"""
    log = os.path.join(os.path.dirname(r.path), 'strace.log')
    p = subprocess.run(strace_argv(r, log, ['-e', 'trace=open,openat,openat2'], *args),
                       capture_output=True, text=True, env=sdtcli.env(), timeout=120)
    lines = read(log).splitlines()
    os.unlink(log)
    config = [x for x in lines if f'"{r.config}"' in x]
    extra = [x for x in lines if f'"{os.path.join(r.boot, "extra.txt")}"' in x]
    return p, config, extra


def case_reads(tmp):
    r = root(tmp, 'reads')
    old = read(r.config)
    for name, args, expect in [
            ('apply', ['apply', 'sd-overclock-100'], lambda: 'dtparam=sd_overclock=100' in read(r.config)),
            ('apply of the change in place', ['apply', 'sd-overclock-100'], None),
            ('revert', ['revert'], lambda: read(r.config) == old),
            ('trial apply', ['apply', 'sd-overclock-100', '--trial'],
             lambda: os.path.exists(os.path.join(r.boot, 'tryboot.txt')) and read(r.config) == old),
            ('revert of the trial', ['revert'], lambda: not os.path.exists(os.path.join(r.boot, 'tryboot.txt')))]:
        p, config, extra = opens(r, *args)
        ok(p.returncode == 0 and (expect is None or expect()), f'{name}: done', p.stdout + p.stderr)
        ok(len(config) == 1, f'{name}: config.txt opened once ({len(config)})', '\n'.join(config))
        ok(len(extra) == 1, f'{name}: its include opened once ({len(extra)})', '\n'.join(extra))


def replace_same(r):
    """another program writes config.txt anew with the same bytes (a new file renamed over it)"""
    tmp = r.config + '.other'
    write(tmp, read(r.config))
    os.rename(tmp, r.config)


def replace_new(r):
    """another program's editor saves config.txt: a new file with a new line, renamed over it"""
    tmp = r.config + '.other'
    write(tmp, read(r.config) + 'dtparam=audio=off\n')
    os.rename(tmp, r.config)


def append(r):
    """another program appends a line to config.txt in place (the same file)"""
    with open(r.config, 'a') as f:
        f.write('dtparam=audio=off\n')


def held_apply(r, change):
    """`apply sd-overclock-100` held at its first fsync(2) (the backup, after the read of
    config.txt and before the rename over it) while CHANGE edits config.txt"""
    log = os.path.join(os.path.dirname(r.path), 'strace.log')
    backups = os.path.join(r.path, 'var', 'lib', 'sd-tuner', 'backups')
    argv = strace_argv(r, log, ['-e', 'trace=fsync', '-e', 'inject=fsync:delay_enter=4000000:when=1'],
                       'apply', 'sd-overclock-100')
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=sdtcli.env())
    held = False
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and p.poll() is None:
        # the backup's temporary file exists while its fsync is held
        if os.path.isdir(backups) and any('.sd-tuner-tmp-' in n for n in os.listdir(backups)):
            change(r)
            held = True
            break
        time.sleep(0.005)
    out, err = p.communicate(timeout=120)
    os.unlink(log)
    return p.returncode, out, err, held


def leftovers(r):
    return [n for n in os.listdir(r.boot) if '.sd-tuner-tmp-' in n]


def case_race(tmp):
    for name, change, refused in [('edited in place', append, True),
                                  ('replaced by a new file', replace_new, True),
                                  ('replaced by the same bytes', replace_same, False)]:
        r = root(tmp, 'race-' + name.replace(' ', '-'))
        rc, out, err, held = held_apply(r, change)
        ok(held, f'changed while the apply was held: {name}', err)
        journal = os.path.join(r.path, 'var', 'lib', 'sd-tuner', 'config-journal.json')
        if refused:
            ok(rc == 1 and CHANGED in err and 'try again' in err,
               f'{name}: the apply is refused with the "changed by another program" error', out + err)
            ok('dtparam=audio=off' in read(r.config) and 'SD Tuner begin' not in read(r.config),
               f'{name}: config.txt is the other program\'s, not written over', read(r.config))
            ok(not os.path.exists(journal), f'{name}: no journal of a change that was not made')
        else:
            ok(rc == 0 and 'SD Tuner begin' in read(r.config),
               f'{name}: the same bytes are no change: the apply goes on', out + err)
        ok(leftovers(r) == [], f'{name}: no temporary file left', leftovers(r))


def main():
    why = sdtcli.strace_works()
    if why is not None:
        if CI:
            ok(False, 'strace traces sdtunerctl', why + '; CI=true forbids a skip')
        else:
            skip('one read of config.txt per apply, trial and revert', why)
        sys.exit(sdtcli.finish())
    sdtcli.main('sdt-apply-once', case_reads, case_race)


main()
