#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: stored-i18n suite=i18n timeout=240 protocol=tap env=test
#    args=@sdtunerctl@,{testsbuilddir}/i18n-pseudo,{builddir}/po
#    depends=sdtunerctl,pseudo_install
"""test-stored-i18n.py SDTUNERCTL PSEUDO-LOCALEDIR PO-LOCALEDIR - what is stored is
language-neutral, and every reader renders it in its own language (issue 24).

1. The verify unit's run (`sdtunerctl --root DIR verify`, human output, as
   sd-tuner-verify.service runs it) under ja_JP.UTF-8 / LANGUAGE=ja stores the same
   history entry and pending.json as under C: English text, the reason's code and its
   arguments, C numbers; nothing Japanese. Likewise `apply` and a step down.
2. A reader in Japanese sees the reason in Japanese, rendered from its code (the
   benchmark figures named by their titles, not "seq-read"), in `history`, `status`
   and `verify`; a reader in C sees the English.
3. Old history entries: a verify entry of an older version with English text only and
   one with the Japanese text an older verify unit stored both display (English →
   Japanese through the catalogue, Japanese as it is), a reason code that is unknown or
   with arguments that do not fit falls back to the stored text; nothing is lost.
4. Raw identifiers: under the pseudo-locale "qps" (every msgstr in ⟦…⟧) the history
   lines of check, soak and verify entries and of an unknown kind of another version
   show no word outside the markers (the kinds "check" and "soak", test ids).
Runs under umockdev-run on copies of tests/data/roots/pi3. TAP."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from sdttap import finish, ok  # noqa: E402

SDTUNERCTL = os.path.abspath(sys.argv[1])
PSEUDO_DIR = os.path.abspath(sys.argv[2])
PO_DIR = os.path.abspath(sys.argv[3])
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, '..', 'data')
BOOKWORM = os.path.join(DATA, 'config', 'rpios-bookworm.txt')
sys.path.insert(0, HERE)
import sdti18n  # noqa: E402

# a UTF-8 locale that is not C for LANGUAGE to count: glibc 2.41 ignores it under C.UTF-8
# (tests/meson.build compiles en_US.UTF-8 into LOCPATH)
TEST_LOCALE = os.environ.get('SDTUNER_TEST_LOCALE', 'C.UTF-8')

BOOT = ['0b6f8a52-2a4e-4a55-9a43-6a5f0d3b1c11', '5d0e7c1a-9f3b-4c2d-8e1f-2b3c4d5e6f70',
        '9a1c3e5f-7b2d-4f60-8a1b-3c5d7e9f0a12']
JAPANESE = re.compile('[\u3040-\u30ff\u4e00-\u9fff]')


def fig(median, spread, unit='MB/s'):
    return {'median': median, 'spread': spread, 'unit': unit}


SOAK_CLEAN = {'bytes_written': 67108864, 'bytes_checked': 67108864, 'mismatches': 0,
              'first_bad_offset': None}
FASTER = {'soak': SOAK_CLEAN,
          'before': {'seq-write': fig(18.0, 0.4), 'seq-read': fig(22.0, 0.3)},
          'after': {'seq-write': fig(21.5, 0.5), 'seq-read': fig(41.0, 0.6)}}
ERRORS = ['4,20,9000000,-;mmc0: reducing overclock due to errors',
          '3,22,9200000,-;I/O error, dev mmcblk0, sector 123456 op 0x0:(READ) flags 0x80700']
CLEAN = ['6,0,0,-;Booting Linux on physical CPU 0x0000000000 [0x410fd034]',
         '6,3,1500000,-;mmc0: sdhost-bcm2835 loaded - DMA enabled (>1)',
         '6,4,1512345,-;mmc0: overclocking to 100000000Hz',
         '6,6,1537035,-;mmc0: new high speed SDHC card at address 0001',
         '6,7,1549380,-;mmcblk0: mmc0:0001 SU08G 7.40 GiB ',
         ' mmcblk0: p1 p2']


def read(path):
    with open(path) as f:
        return f.read()


def write(path, data, mode='w'):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(data)


class Root:
    """a copy of the pi3 fixture with the stock config.txt, at boot BOOT[0]"""

    def __init__(self, tmp, name, env):
        self.path = os.path.join(tmp, name)
        shutil.copytree(os.path.join(DATA, 'roots', 'pi3'), self.path)
        self.umockdev = os.path.join(DATA, 'umockdev', 'pi3.umockdev')
        self.state = os.path.join(self.path, 'var', 'lib', 'sd-tuner')
        self.history = os.path.join(self.state, 'history')
        self.env = env
        write(os.path.join(self.path, 'boot', 'firmware', 'config.txt'), read(BOOKWORM))
        self.boot(0, None, 50000000)

    def run(self, *args, env=None):
        cmd = ['umockdev-run', '-d', self.umockdev, '--', SDTUNERCTL, '--root', self.path] + list(args)
        clean = {k: v for k, v in os.environ.items()
                 if not k.startswith('LC_') and k not in ('LANG', 'LANGUAGE', 'SDTUNER_ROOT')}
        clean.update(env if env is not None else self.env)
        return subprocess.run(cmd, capture_output=True, text=True, env=clean, timeout=120)

    def boot(self, i, log, clock_hz=None):
        write(os.path.join(self.path, 'proc', 'sys', 'kernel', 'random', 'boot_id'), BOOT[i] + '\n')
        if log is not None:
            write(os.path.join(self.path, 'dev', 'kmsg'), '\n'.join(log) + '\n')
        ios = os.path.join(self.path, 'sys', 'kernel', 'debug', 'mmc0', 'ios')
        if clock_hz is not None and os.path.exists(ios):
            lines = [f'actual clock:\t{clock_hz} Hz' if line.startswith('actual clock:') else line
                     for line in read(ios).splitlines()]
            write(ios, '\n'.join(lines) + '\n')

    def verify(self, evidence):
        path = os.path.join(self.path, 'evidence.json')
        write(path, json.dumps(evidence))
        return self.run('verify', '--evidence', path)

    def entries(self, raw=False):
        """the history files, with what differs between two runs (times) taken out"""
        out = []
        for name in sorted(os.listdir(self.history)):
            if not name.endswith('.json') or not name[0].isdigit():
                continue
            e = json.loads(read(os.path.join(self.history, name)))
            out.append(e if raw else neutral(e))
        return out

    def pending(self):
        path = os.path.join(self.state, 'pending.json')
        return neutral(json.loads(read(path))) if os.path.exists(path) else None


TIMES = ('time', 'decided_at', 'since', 'backup', 'backup_before_change', 'diff')


def neutral(value):
    """@value without its times and backup names, which differ from run to run"""
    if isinstance(value, dict):
        return {k: neutral(v) for k, v in value.items() if k not in TIMES}
    if isinstance(value, list):
        return [neutral(v) for v in value]
    return value


def verify_entry(tmp, code, args, reason, name):
    """a verify entry as a version stored it (@code None: an older version, text only)"""
    e = {'kind': 'verify', 'time': '2026-01-02T03:04:05Z', 'pending': True,
         'id': 'sd-overclock-100', 'decision': 'undo', 'reason': reason,
         'action': {'what': 'reverted'}}
    if code is not None:
        e['reason_code'] = code
        e['reason_args'] = args
    return e


def main(tmp):
    locpath, why = sdti18n.locales(('ja_JP',))
    ok(locpath is not None, 'ja_JP.UTF-8 compiled with localedef', why or '')
    if locpath is None:
        return
    ja = {'LANG': 'ja_JP.UTF-8', 'LANGUAGE': 'ja', 'LOCPATH': locpath,
          'SDTUNER_LOCALEDIR': PO_DIR}
    c = {'LANG': 'C.UTF-8', 'LANGUAGE': 'C', 'SDTUNER_LOCALEDIR': PO_DIR}
    qps = {'LANG': TEST_LOCALE, 'LANGUAGE': 'qps', 'SDTUNER_LOCALEDIR': PSEUDO_DIR}

    # 1. the same records whatever the locale of the run that writes them
    roots = {}
    for name, env in (('c', c), ('ja', ja)):
        r = Root(tmp, name, env)
        p = r.run('apply', 'sd-overclock-100')
        ok(p.returncode == 0, f'{name}: apply sd-overclock-100', p.stderr)
        # errors at 100 MHz: a step down, its reason with a list and a clock
        r.boot(1, CLEAN + ERRORS, 100000000)
        p = r.verify(FASTER)
        ok(p.returncode == 0, f'{name}: verify steps down', p.stdout + p.stderr)
        step = r.pending()
        # the next step is clean and faster: kept, its reason lists the figures
        r.boot(2, CLEAN, 80000000)
        p = r.verify(FASTER)
        ok(p.returncode == 0, f'{name}: verify keeps the next step', p.stdout + p.stderr)
        if name == 'ja':
            ok(JAPANESE.search(p.stdout) is not None,
               'ja: the verify unit\'s own output is Japanese', p.stdout)
        roots[name] = (r, r.entries(), step, r.entries(raw=True))
    (rc, hist_c, step_c, _), (rj, hist_j, step_j, raw_j) = roots['c'], roots['ja']
    ok(hist_c == hist_j and len(hist_c) >= 3,
       'the history written under ja_JP/LANGUAGE=ja is the same as under C',
       json.dumps(hist_c, ensure_ascii=False, indent=1) + '\n---\n'
       + json.dumps(hist_j, ensure_ascii=False, indent=1))
    ok(step_c == step_j, 'pending.json of the step down is the same under ja_JP as under C',
       json.dumps(step_c, ensure_ascii=False) + '\n---\n' + json.dumps(step_j, ensure_ascii=False))
    stored = json.dumps(hist_j + [step_j], ensure_ascii=False)
    ok(JAPANESE.search(stored) is None, 'nothing Japanese is stored', stored)
    verifies = [e for e in hist_j if e['kind'] == 'verify']
    ok([e.get('reason_code') for e in verifies] == ['errors-step-down', 'works']
       and verifies[0]['reason_args'][1:] == ['sd-overclock-80', '80.0']
       and isinstance(verifies[0]['reason_args'][0], list)
       and verifies[1]['reason_args'][0][0].startswith('seq-write: 18.0 → 21.5 MB/s'),
       'each verify entry stores its reason\'s code and arguments, in C numbers',
       json.dumps(verifies, ensure_ascii=False, indent=1))
    ok(step_j['decided'] is None if 'decided' in step_j else True,
       'the step down finished its decision')

    # 2. readers: each in its own language, from the same records
    for cmd in (['history'], ['status']):
        pj = rj.run(*cmd)
        pc = rj.run(*cmd, env=c)
        ok(pj.returncode == 0 and '変更は問題なく機能しています' in pj.stdout,
           f'ja reader: {cmd[0]} shows the kept change\'s reason in Japanese', pj.stdout)
        ok(pc.returncode == 0 and 'The change works: no errors' in pc.stdout
           and JAPANESE.search(pc.stdout) is None,
           f'C reader: {cmd[0]} shows it in English', pc.stdout)
        ok(re.search(r'\bseq-(read|write)\b', pj.stdout) is None,
           f'ja reader: {cmd[0]} names the benchmark tests, not their ids', pj.stdout)

    # 3. old entries: text only (English, or the Japanese an older verify unit stored),
    #    an unknown code, arguments that do not fit; every one shown, none lost
    jp_old = '設定を確認できないため、変更を元に戻しました。'
    old = [verify_entry(tmp, None, None,
                        'SD Tuner cannot verify this setting, so the change was undone.', 'en'),
           verify_entry(tmp, None, None, jp_old, 'ja'),
           verify_entry(tmp, 'no-such-code', ['x'],
                        'The Pi has not restarted since the change: restart it to verify the '
                        'change.', 'unknown'),
           verify_entry(tmp, 'clock-wrong', [{'not': 'text'}],
                        'Verification could not run: the SD clock cannot be read (no debugfs '
                        '“ios” and no “overclocking to” line), so the change was undone.',
                        'bad-args'),
           verify_entry(tmp, 'clock-wrong', ['80.0'],
                        'SD Tuner cannot verify this setting, so the change was undone.',
                        'too-few')]
    r = Root(tmp, 'old', ja)
    for i, e in enumerate(old):
        write(os.path.join(r.history, f'{1700000000000000 + i:016d}-verify.json'), json.dumps(e))
    pj = r.run('history')
    lines = pj.stdout.splitlines()
    ok(pj.returncode == 0 and len(lines) == len(old) and pj.stderr == '',
       'ja reader: every old entry is listed, none skipped', pj.stdout + pj.stderr)
    want_en = r.run('history', env=c).stdout.splitlines()
    ok(len(lines) == 5 and JAPANESE.search(lines[0]) and 'cannot verify' not in lines[0]
       and jp_old in lines[1] and JAPANESE.search(lines[2]) and 'restarted' not in lines[2]
       and 'debugfs' in lines[3] and JAPANESE.search(lines[3])
       and JAPANESE.search(lines[4]) and 'cannot verify' not in lines[4],
       'ja reader: English text of an older version translated, Japanese kept, a code that '
       'is unknown or does not fit shown from its stored text', pj.stdout)
    ok(len(want_en) == 5 and jp_old in want_en[1] and 'cannot verify this setting' in want_en[0],
       'C reader: the same entries in English, the old Japanese one as it was stored',
       '\n'.join(want_en))
    p = r.run('--json', 'history', env=c)
    ok(p.returncode == 0 and len(json.loads(p.stdout)['entries']) == 5,
       'history --json keeps all five entries', p.stdout + p.stderr)

    # 4. raw identifiers: kinds and test ids in the pseudo-locale
    q = Root(tmp, 'qps', qps)
    extra = [{'kind': 'check', 'time': '2026-01-01T00:00:00Z', 'verdict': 'genuine',
              'reason': 'No fake found.'},
             {'kind': 'soak', 'time': '2026-01-01T00:01:00Z', 'profile': 'soak',
              'target': {'path': '/var/tmp', 'stand_in': False}, 'tests': [],
              'soak': {'bytes_written': 1048576, 'bytes_checked': 1048576, 'mismatches': 0}},
             {'kind': 'soak', 'time': '2026-01-01T00:02:00Z', 'profile': 'soak',
              'target': {'path': '/var/tmp', 'stand_in': False}, 'tests': [],
              'soak': {'bytes_written': 1048576, 'bytes_checked': 1048576, 'mismatches': 4096}},
             {'kind': 'something-new', 'time': '2026-01-01T00:03:00Z'},
             [e for e in raw_j if e['kind'] == 'verify'][1]]
    for i, e in enumerate(extra):
        write(os.path.join(q.history, f'{1700000000000000 + i:016d}-{e["kind"]}.json'),
              json.dumps(e))
    p = q.run('history')
    ok(p.returncode == 0 and len(p.stdout.splitlines()) == len(extra),
       'qps: history lists the check, soak, unknown and verify entries', p.stdout + p.stderr)
    for line in p.stdout.splitlines():
        # the time's digits and the id stay; "something-new" is another version's word
        bad = sdti18n.unmarked(line.replace('something-new', ''))
        ok(not bad, f'qps: history line marked throughout: {line[:60]}…', f'{bad}\n{line}')
    # (the allow-list takes "check" as a command name: asked here on its own)
    rest = sdti18n.strip_marked(p.stdout)
    ok(re.search(r'\b(check|soak|genuine|seq-\w+)\b', rest) is None,
       'qps: no raw kind ("check", "soak"), verdict or test id outside the markers', rest)


with tempfile.TemporaryDirectory(prefix='sdt-stored-i18n-') as tmp:
    try:
        main(tmp)
    finally:
        sdti18n.cleanup()
sys.exit(finish())
