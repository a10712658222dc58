#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: cli-text suite=cli timeout=120 protocol=tap env=test args=@sdtunerctl@
"""sdtunerctl's text for people and for machines, in --root mode under umockdev-run:
every command answers --help/-h (and `help COMMAND`) with its usage on stdout, exit 0;
in the C locale (no LANG: cron, services, some ssh sessions) quotes and x print in ASCII,
not as '?', while JSON stays UTF-8; JSON numbers carry no float noise (3.3, not
3.2999999999999998); status says each thing once.

usage: test-cli-text.py SDTUNERCTL   (run by meson; prints TAP)"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sdtcli  # noqa: E402
from sdtcli import DATA, ok  # noqa: E402

SDTUNERCTL = sdtcli.init()
COMMANDS = ['bench', 'info', 'recommend', 'apply', 'revert', 'status', 'history']


def run(args, root=None, c_locale=False):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith('LC_') and k not in ('LANG', 'LANGUAGE', 'SDTUNER_ROOT')}
    if not c_locale:
        env.update(LANGUAGE='C', LC_ALL='C.UTF-8')
    umockdev = os.path.join(DATA, 'umockdev', 'pi3.umockdev') if root else None
    return sdtcli.run(args, umockdev, root, text=False, environ=env, stdin=subprocess.DEVNULL)


def help_for_every_command():
    for cmd in COMMANDS:
        outs = []
        for flag in ('--help', '-h'):
            p = run([cmd, flag])
            out = p.stdout.decode()
            ok(p.returncode == 0 and out.startswith('Usage:') and f'sdtunerctl {cmd}' in out
               and p.stderr == b'',
               f'{cmd} {flag}: its usage on stdout, exit 0',
               f'rc={p.returncode}\n{out}\n{p.stderr.decode()}')
            outs.append(out)
        p = run(['help', cmd])
        ok(p.returncode == 0 and p.stdout.decode() == outs[0],
           f'help {cmd}: the same text as {cmd} --help', p.stdout.decode() + p.stderr.decode())
        # --json before or after does not change that
        p = run(['--json', cmd, '--help'])
        ok(p.returncode == 0 and p.stdout.decode() == outs[0], f'--json {cmd} --help: usage')
    out = run(['apply', '--help']).stdout.decode()
    ok('--trial' in out and 'ID' in out, 'apply --help names ID and --trial', out)
    out = run(['bench', '--help']).stdout.decode()
    ok('--profile' in out and '--dir' in out, 'bench --help names --profile and --dir', out)
    # help needs no root: a missing --root DIR does not stop it
    p = run(['--root', '/nonexistent-sdt-root', 'status', '--help'])
    ok(p.returncode == 0 and p.stdout.startswith(b'Usage:'), 'help works without a valid --root')
    p = run(['help'])
    ok(p.returncode == 0 and all(c in p.stdout.decode() for c in COMMANDS),
       'help: every command listed, exit 0', p.stdout.decode())
    p = run(['help', 'nosuch'])
    ok(p.returncode == 2 and b'nosuch' in p.stderr, 'help of an unknown command: exit 2')
    p = run(['status', 'extra'])
    ok(p.returncode == 2 and b'takes no arguments' in p.stderr, 'status with an argument: exit 2')
    p = run(['apply', '--bogus', 'x'])
    ok(p.returncode == 2 and b'--bogus' in p.stderr, 'apply with an unknown option: exit 2')


def c_locale_and_json(tmp):
    root = os.path.join(tmp, 'pi3')
    shutil.copytree(os.path.join(DATA, 'roots', 'pi3'), root)
    os.makedirs(os.path.join(root, 'boot', 'firmware'), exist_ok=True)
    shutil.copy(os.path.join(DATA, 'config', 'rpios-bookworm.txt'),
                os.path.join(root, 'boot', 'firmware', 'config.txt'))

    p = run(['info'], root=root, c_locale=True)
    out = p.stdout
    ok(p.returncode == 0, 'C locale: info exits 0', p.stderr.decode(errors='replace'))
    ok(all(b < 0x80 for b in out), 'C locale: info prints ASCII only')
    ok(b'?' not in out, 'C locale: no "?" for punctuation', out.decode(errors='replace'))
    ok(re.search(rb'OEM "[^"]+"', out) is not None, 'C locale: OEM "XY" in ASCII quotes',
       out.decode(errors='replace'))
    ok(b'from clock x width' in out, 'C locale: x for the multiplication sign')
    p = run(['status', 'extra'], c_locale=True)
    ok(p.returncode == 2 and b'"status" takes no arguments (got "extra")' in p.stderr,
       'C locale: errors in ASCII quotes', p.stderr)
    # JSON is for machines: UTF-8 whatever the locale
    p = run(['--json', 'status', 'extra'], c_locale=True)
    ok(json.loads(p.stdout.decode('utf-8'))['error']['message']
       == '\u201cstatus\u201d takes no arguments (got \u201cextra\u201d)',
       'C locale: JSON stays UTF-8', p.stdout)
    # UTF-8 locale: the typographic quotes stay
    out = run(['info'], root=root).stdout.decode()
    ok('OEM \u201c' in out and '\u00d7' in out, 'UTF-8 locale: typographic quotes and \u00d7')

    p = run(['--json', 'info'], root=root)
    text = p.stdout.decode()
    ok('"signal_voltage" : 3.3,' in text, 'JSON: signal_voltage 3.3',
       [l for l in text.splitlines() if 'voltage' in l])
    noise = re.findall(r'-?\d+\.\d{10,}', text)
    ok(not noise, 'JSON: no float noise in info', noise)
    ok(json.loads(text)['bus']['ceiling_mb_s'] == 50.0, 'JSON: ceiling_mb_s still a number')

    # status after apply, before the reboot: each thing said once
    ios = os.path.join(root, 'sys', 'kernel', 'debug', 'mmc0', 'ios')
    with open(ios) as f:
        text = f.read().replace('actual clock:\t100000000 Hz', 'actual clock:\t50000000 Hz')
    with open(ios, 'w') as f:
        f.write(text)
    kmsg = os.path.join(root, 'dev', 'kmsg')
    with open(kmsg) as f:
        recs = [l for l in f.read().splitlines() if 'overclocking to' not in l]
    with open(kmsg, 'w') as f:
        f.write('\n'.join(recs) + '\n')
    p = run(['apply', 'sd-overclock-100'], root=root)
    ok(p.returncode == 0, 'apply on the pi3 copy', p.stderr.decode())
    p = run(['status'], root=root)
    out = p.stdout.decode()
    ok(p.returncode == 0 and 'sd_overclock=100' in out, 'status shows the pending change', out)
    repeated = [l for l in out.splitlines() if len(re.findall(r'\byet\b', l)) > 1]
    ok(not repeated, 'status: no line says "yet" twice', repeated)
    ok('Not in effect yet: the SD clock is not' not in out, 'status: no "Not in effect yet: ... not ... yet"', out)


def odd_history(tmp):
    """history entries a hand (or a bug) left with members of the wrong type: each one
    skipped with a note that names it, no critical warning (the tests run with
    G_DEBUG=fatal-criticals)"""
    root = os.path.join(tmp, 'odd')
    history = os.path.join(root, 'var', 'lib', 'sd-tuner', 'history')
    os.makedirs(history)
    entries = {
        '1764579600000000-apply.json': {'kind': 'apply', 'time': '2026-12-01T08:00:00Z',
                                        'id': {'not': 'a string'}, 'trial': 'yes'},
        '1764579600000001-revert.json': {'kind': 'revert', 'time': 7, 'id': ['x']},
        '1764579600000002-bench.json': {'kind': 'bench', 'time': None, 'profile': 3,
                                        'target': 'not an object'},
        '1764579600000003-bench.json': {'kind': 'bench', 'target': {'stand_in': 'yes',
                                                                    'path': 5}},
        '1764579600000004-x.json': {'kind': ['bench']},
    }
    for name, doc in entries.items():
        with open(os.path.join(history, name), 'w') as f:
            json.dump(doc, f)
    env_fatal = dict(os.environ, G_DEBUG='fatal-criticals')
    p = subprocess.run([SDTUNERCTL, '--root', root, 'history'], capture_output=True,
                       env=env_fatal, timeout=60)
    err = p.stderr.decode()
    ok(p.returncode == 0 and 'CRITICAL' not in err
       and all(f'History entry {name} is damaged' in err for name in entries),
       'history with members of the wrong type: each skipped with a note, no critical',
       f'rc={p.returncode}\n{p.stdout.decode()}\n{err}')


def main():
    tmp = tempfile.mkdtemp(prefix=f'sdt-cli-text-{os.getpid()}-')
    try:
        help_for_every_command()
        c_locale_and_json(tmp)
        odd_history(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return sdtcli.finish()


if __name__ == '__main__':
    sys.exit(main())
