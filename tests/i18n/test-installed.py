#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: installed-i18n suite=i18n timeout=240 protocol=tap args={srcdir},{builddir}
"""test-installed.py SRCROOT BUILDDIR - the installed files carry every language.

Installs the build into a scratch DESTDIR (`meson install --destdir`) and checks, for
every language of po/LINGUAS: the polkit .policy has a translated <description> and
<message> for each action (what the password prompt shows), the menu entry has Name,
GenericName, Comment and Keywords, and the catalogue sd-tuner.mo is installed. TAP."""
import configparser
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from sdttap import finish, ok  # noqa: E402

SRC, BUILD = sys.argv[1:3]
XML_LANG = '{http://www.w3.org/XML/1998/namespace}lang'


def find(top, name):
    for d, _, files in os.walk(top):
        if name in files:
            return os.path.join(d, name)
    return None


languages = [l.strip() for l in open(os.path.join(SRC, 'po', 'LINGUAS'))
             if l.strip() and not l.startswith('#')]
with tempfile.TemporaryDirectory(prefix='sdt-install-') as dest:
    r = subprocess.run(['meson', 'install', '-C', BUILD, '--destdir', dest, '--no-rebuild',
                        '--quiet'], capture_output=True, text=True)
    ok(r.returncode == 0, 'meson install --destdir', r.stdout + r.stderr)

    policy = find(dest, 'org.example.sdtuner.policy')
    ok(policy is not None, 'the polkit .policy is installed')
    if policy is not None:
        root = ET.parse(policy).getroot()
        for action in root.findall('action'):
            aid = action.get('id')
            for tag in ('description', 'message'):
                english = [e.text for e in action.findall(tag) if e.get(XML_LANG) is None]
                texts = {e.get(XML_LANG): (e.text or '').strip() for e in action.findall(tag)
                         if e.get(XML_LANG) is not None}
                for lang in languages:
                    ok(texts.get(lang) and [texts.get(lang)] != english,
                       f'{aid}: <{tag} xml:lang="{lang}"> is translated',
                       f'{lang}: {texts.get(lang)!r}, English: {english!r}')

    desktop = find(dest, 'org.example.SdTuner.desktop')
    ok(desktop is not None, 'the menu entry (.desktop) is installed')
    if desktop is not None:
        cp = configparser.RawConfigParser(interpolation=None, strict=False)
        cp.optionxform = str
        cp.read(desktop, encoding='utf-8')
        entry = cp['Desktop Entry']
        for lang in languages:
            for key in ('Name', 'GenericName', 'Comment', 'Keywords'):
                value = entry.get(f'{key}[{lang}]')
                ok(bool(value), f'.desktop: {key}[{lang}]', f'{key}[{lang}] = {value!r}')
            ok(entry.get(f'Comment[{lang}]') != entry.get('Comment'),
               f'.desktop: Comment[{lang}] differs from the English comment')

    for lang in languages:
        mo = os.path.join(dest, 'usr', 'local', 'share', 'locale', lang, 'LC_MESSAGES',
                          'sd-tuner.mo')
        found = find(dest, 'sd-tuner.mo') and any(
            os.path.exists(os.path.join(d, 'sd-tuner.mo'))
            for d, _, _ in os.walk(dest) if d.endswith(os.path.join(lang, 'LC_MESSAGES')))
        ok(bool(found), f'{lang}: sd-tuner.mo is installed under locale/{lang}/LC_MESSAGES', mo)

sys.exit(finish())
