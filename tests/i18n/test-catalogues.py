#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: catalogues suite=i18n timeout=120 protocol=tap args={srcdir},@xgettext_args@
"""test-catalogues.py SRCROOT XGETTEXT-ARG... - every catalogue of po/LINGUAS is complete.

A pot is extracted afresh from the sources (po/POTFILES.in, with the xgettext arguments
of po/meson.build), so a string added to the code without translations fails here even
when nobody ran `ninja sd-tuner-pot`. Each po/LL.po is merged with it and must pass
`msgfmt -c --check-format --statistics` with 0 fuzzy and 0 untranslated messages.
It also fails when a source file with translatable strings is missing from POTFILES.in.

Every language of po/LINGUAS must be complete: there is no way to mark one as pending.
Prints TAP."""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from sdttap import finish, ok  # noqa: E402

SRC = os.path.abspath(sys.argv[1])
XGETTEXT_ARGS = sys.argv[2:]


def lines(path):
    with open(path, encoding='utf-8') as f:
        return [l.strip() for l in f if l.strip() and not l.startswith('#')]


# POTFILES.in lists every file that has translatable strings
potfiles = set(lines(os.path.join(SRC, 'po', 'POTFILES.in')))
marked = re.compile(r'\b(?:_|N_|C_|NC_|ngettext|g_dngettext)\s*\(|translatable="yes"')
need = set()
for top in ('src', 'data', 'polkit', '.'):
    base = os.path.join(SRC, top)
    walk = os.walk(base) if top != '.' else [(base, [], os.listdir(base))]
    for d, _, files in walk:
        for f in files:
            path = os.path.relpath(os.path.join(d, f), SRC)
            if path.startswith(('_build', 'tests')):
                continue
            if f.endswith(('.desktop.in', '.policy.in', '.metainfo.xml.in', '.appdata.xml.in')):
                need.add(path)
            elif f.endswith(('.c', '.ui')):
                with open(os.path.join(d, f), encoding='utf-8', errors='replace') as fh:
                    if marked.search(fh.read()):
                        need.add(path)
missing = sorted(need - potfiles)
ok(not missing, 'po/POTFILES.in lists every file with translatable strings',
   'missing: ' + ' '.join(missing))
gone = sorted(p for p in potfiles if not os.path.exists(os.path.join(SRC, p)))
ok(not gone, 'every file in po/POTFILES.in exists', 'missing: ' + ' '.join(gone))

with tempfile.TemporaryDirectory(prefix='sdt-catalogues-') as tmp:
    pot = os.path.join(tmp, 'fresh.pot')
    r = subprocess.run(['xgettext'] + XGETTEXT_ARGS +
                       [f'--files-from={os.path.join(SRC, "po", "POTFILES.in")}',
                        f'--directory={SRC}', '-o', pot], capture_output=True, text=True)
    ok(r.returncode == 0, 'xgettext extracts a fresh pot from the sources', r.stderr)
    if r.returncode != 0:
        sys.exit(finish())
    total = sum(1 for l in open(pot, encoding='utf-8') if l.startswith('msgid ')) - 1
    print(f'# fresh pot: {total} messages')

    languages = lines(os.path.join(SRC, 'po', 'LINGUAS'))
    ok(len(languages) > 0, 'po/LINGUAS names the languages', ' '.join(languages))
    for lang in languages:
        po = os.path.join(SRC, 'po', f'{lang}.po')
        if not os.path.exists(po):
            ok(False, f'{lang}: po/{lang}.po exists')
            continue
        merged = os.path.join(tmp, f'{lang}.po')
        r = subprocess.run(['msgmerge', '--quiet', '-o', merged, po, pot],
                           capture_output=True, text=True)
        if r.returncode != 0:
            ok(False, f'{lang}: msgmerge with the fresh pot', r.stderr)
            continue
        r = subprocess.run(['msgfmt', '-c', '--check-format', '--statistics', '-o', os.devnull,
                            merged], capture_output=True, text=True, env=dict(os.environ, LC_ALL='C'))
        stats = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else ''
        m = re.search(r'(\d+) translated message', stats)
        translated = int(m.group(1)) if m else 0
        fuzzy = int((re.search(r'(\d+) fuzzy', stats) or [0, 0])[1])
        untranslated = int((re.search(r'(\d+) untranslated', stats) or [0, 0])[1])
        print(f'# {lang}: {translated} translated, {fuzzy} fuzzy, {untranslated} untranslated')
        ok(r.returncode == 0, f'{lang}: msgfmt -c --check-format passes', r.stderr)
        ok(fuzzy == 0 and untranslated == 0 and translated == total,
           f'{lang}: complete ({translated}/{total}, {fuzzy} fuzzy, {untranslated} untranslated)',
           stats)
        # the committed file itself is clean too (not only once merged)
        r = subprocess.run(['msgfmt', '-c', '--check-format', '-o', os.devnull, po],
                           capture_output=True, text=True)
        ok(r.returncode == 0, f'{lang}: po/{lang}.po passes msgfmt -c as committed', r.stderr)

sys.exit(finish())
