#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: verify-kill suite=integration timeout=600 parallel=false protocol=tap env=test
#    args=@sdtunerctl@
"""A verification killed for real: SIGKILL (a crash or a power loss, nothing to catch) of what
sd-tuner-verify.service runs (`sdtunerctl --root R verify`), twice, then the third boot.

The board is the simulated Pi 3 on a throttled loop-device card (tools/sdtsim.py: 22 MB/s at
50 MHz, 40 at 100), so the benchmark and the soak test run on the card's ext4 long enough to
be killed in the middle.  A pending sd-overclock-100 (after a card benchmark), then:

  boot 2: verify, SIGKILL while the benchmark's test file is open: one try counted, config.txt
          still has the change, no test file, no space lost on the card;
  boot 3: verify, SIGKILL while the soak test's file is open (after the benchmark was
          recorded): two tries;
  boot 4: verify runs nothing: undo and stop, the reason in the result and in the history,
          config.txt byte for byte as before the apply, nothing pending, no stray file.
Before boots 3 and 4 a half-written pending.json.XXXXXX is left in the state folder, as a
kill between g_file_set_contents()'s temporary file and its rename leaves it (too short an
instant to hit with a real signal): the next run removes it.

usage: test-verify-kill.py SDTUNERCTL   (run by meson as root; prints TAP)"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

CTL = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'tools'))
import sdtsim  # noqa: E402
import sdttap  # noqa: E402
from sdttap import ok  # noqa: E402

MIB = 1024 * 1024
sdttap.detail_lines = -40


def note(*a):
    print('#', *a, flush=True)


def read(path):
    with open(path) as f:
        return f.read()


def env():
    e = dict(os.environ, LANGUAGE='C', LC_ALL='C.UTF-8')
    e.pop('SDTUNER_ROOT', None)
    return e


def run(board, *args):
    p = subprocess.run(board.ctl_argv(CTL, '--json', *args), capture_output=True, text=True,
                       env=env(), timeout=600)
    try:
        return p, json.loads(p.stdout)
    except ValueError:
        return p, None


def ctl_pid(parent):
    """the sdtunerctl under umockdev-run"""
    todo = [parent]
    while todo:
        pid = todo.pop()
        try:
            if read(f'/proc/{pid}/comm').strip() == 'sdtunerctl':
                return pid
            for t in os.listdir(f'/proc/{pid}/task'):
                todo += [int(c) for c in read(f'/proc/{pid}/task/{t}/children').split()]
        except OSError:
            pass
    return None


def test_file_open(pid, state):
    """a nameless (O_TMPFILE) test file on the card's file system is open in @pid"""
    try:
        for fd in os.listdir(f'/proc/{pid}/fd'):
            try:
                target = os.readlink(f'/proc/{pid}/fd/{fd}')
            except OSError:
                continue
            if target.startswith(state + '/') and target.endswith('(deleted)'):
                return True
    except OSError:
        pass
    return False


def history(board, kind):
    d = os.path.join(board.state, 'history')
    return sorted(f for f in os.listdir(d) if f.endswith(f'-{kind}.json')) if os.path.isdir(d) \
        else []


def listing(board):
    """what is on the card besides SD Tuner's state: no test file may stay"""
    out = []
    for d, dirs, files in os.walk(board.state):
        rel = os.path.relpath(d, board.state)
        if rel.split(os.sep)[0] in ('history', 'backups', 'lost+found'):
            continue
        out += [os.path.join(rel, f) for f in files
                if f not in ('pending.json', 'config-journal.json', 'lock')]
    return sorted(out)


def plant(board, name):
    """a half-written pending state under the name g_file_set_contents() gives its
    temporary file (NAME.XXXXXX), as a run killed in that instant leaves it"""
    with open(os.path.join(board.state, name), 'w') as f:
        f.write('{\n  "version" : 1,\n  "id" : "sd-overc')


def free(board, want=None):
    """free bytes on the card; with @want, waits up to 30 s for at least that much: ext4
    returns the blocks of a deleted file only after its journal commits (sync forces it)"""
    end = time.monotonic() + 30
    while True:
        os.sync()
        st = os.statvfs(board.state)
        have = st.f_bfree * st.f_frsize
        if want is None or have >= want or time.monotonic() > end:
            return have
        time.sleep(0.2)


def kill_during(board, what, ready, timeout=300):
    """starts the unit's entry point and SIGKILLs it once @ready(pid) holds"""
    proc = subprocess.Popen(board.ctl_argv(CTL, '--json', 'verify', '--soak-seconds', '0'),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env())
    pid = None
    end = time.monotonic() + timeout
    hit = False
    while time.monotonic() < end and proc.poll() is None:
        pid = pid or ctl_pid(proc.pid)
        if pid is not None and ready(pid):
            os.kill(pid, signal.SIGKILL)
            hit = True
            break
        time.sleep(0.02)
    out, err = proc.communicate(timeout=60)
    note(f'{what}: killed={hit}, umockdev-run exit {proc.returncode}')
    return hit, out + err


def main(tmp, card):
    board = sdtsim.SimBoard(tmp, card, log=note)
    try:
        original = read(board.config)
        p, res = run(board, 'bench', '--profile', 'quick')
        ok(p.returncode == 0 and res['target']['stand_in'] is False,
           'a benchmark of the card before the change', p.stdout + p.stderr)
        p, res = run(board, 'apply', 'sd-overclock-100')
        applied = read(board.config)
        ok(p.returncode == 0 and applied != original
           and os.path.exists(os.path.join(board.state, 'pending.json')),
           'apply sd-overclock-100: a change waits for verification', p.stdout + p.stderr)
        files, space = listing(board), free(board)

        def pending():
            return json.loads(read(os.path.join(board.state, 'pending.json')))

        # boot 2: killed in the benchmark
        board.reboot()
        boot2 = board.boot_id
        benches = len(history(board, 'bench'))
        hit, out = kill_during(board, 'boot 2', lambda pid: test_file_open(pid, board.state))
        pend = pending()
        ok(hit and pend['attempts'] == 1 and pend['tries'] == [boot2]
           and len(history(board, 'bench')) == benches and read(board.config) == applied,
           'SIGKILL in the benchmark: one try counted, the change still in config.txt', out
           + json.dumps(pend))
        now = free(board, space - 4 * MIB)
        ok(listing(board) == files and now > space - 4 * MIB,
           f'no test file left, no space lost ({space // MIB} -> {now // MIB} MiB free)',
           listing(board))

        # what a kill between g_file_set_contents()'s temporary file and its rename leaves
        # (the first thing verify does is to save the counted try durably): the next run
        # must remove it
        plant(board, 'pending.json.Zq81Xa')

        # boot 3: killed in the soak test, after the benchmark was recorded
        board.reboot()
        boot3 = board.boot_id
        hit, out = kill_during(board, 'boot 3',
                               lambda pid: len(history(board, 'bench')) > benches
                               and test_file_open(pid, board.state))
        pend = pending()
        ok(hit and pend['attempts'] == 2 and pend['tries'] == [boot2, boot3]
           and len(history(board, 'soak')) == 0 and read(board.config) == applied,
           'SIGKILL in the soak test: two tries counted', out + json.dumps(pend))
        now = free(board, space - 4 * MIB)
        ok(listing(board) == files and now > space - 4 * MIB,
           f'no test file left, no space lost ({now // MIB} MiB free)', listing(board))

        # boot 4: no third try (nothing is saved before the decision: the undo cleans up)
        plant(board, 'pending.json.p0Kt7e')
        board.reboot()
        benches = len(history(board, 'bench'))
        t0 = time.monotonic()
        p, res = run(board, 'verify', '--soak-seconds', '0')
        took = time.monotonic() - t0
        ok(p.returncode == 0 and res is not None and res['decision'] == 'undo' and res['stop']
           and 'interrupted 2 times' in res['reason']
           and res['action']['what'] == 'reverted' and len(history(board, 'bench')) == benches,
           f'the third boot: undo and stop without running anything ({took:.1f} s)',
           p.stdout + p.stderr)
        ok(read(board.config) == original
           and not os.path.exists(os.path.join(board.state, 'pending.json')),
           'config.txt byte for byte as before the apply; nothing pending')
        p, hist = run(board, 'history')
        last = [e for e in (hist or {}).get('entries', []) if e['kind'] == 'verify']
        ok(len(last) == 1 and last[0]['decision'] == 'undo' and last[0]['stop'] is True
           and last[0]['reason'] == res['reason']
           and last[0]['evidence']['attempts_before'] == 2,
           'history: the undo with its reason and the two interrupted tries',
           json.dumps(last)[:2000])
        ok(listing(board) == files and free(board, space - 4 * MIB) > space - 4 * MIB,
           'the card holds nothing but SD Tuner\'s state', listing(board))
        p, res = run(board, 'verify')
        ok(p.returncode == 0 and res['pending'] is False and res['decision'] is None,
           'a fourth run: nothing to verify', p.stdout + p.stderr)
    finally:
        board.close()


if __name__ == '__main__':
    why = sdtsim.SimCard.why_not()
    if why is not None or shutil.which('umockdev-run') is None:
        print(f'1..0 # SKIP {why or "umockdev-run is not installed"}')
        sys.exit(0)
    tmp = tempfile.mkdtemp(prefix=f'sdt-verify-kill-{os.getpid()}-', dir='/var/tmp')
    try:
        with sdtsim.SimCard(log=note) as card:
            ok(card.unavailable is None, 'a throttled loop card', card.unavailable)
            if card.unavailable is None:
                card.join()
                main(tmp, card)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(sdttap.finish())
