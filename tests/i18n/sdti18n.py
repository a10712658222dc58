# SPDX-License-Identifier: GPL-2.0-or-later
"""sdti18n.py - shared pieces of the translation tests (tests/i18n, tests/gui).

- locales(): de_DE.UTF-8 and ja_JP.UTF-8 compiled with localedef into a private folder
  (LOCPATH), so the tests need no system-wide locale and change nothing on the machine;
- pseudo-locale checks: text shown under the "qps" catalogue (every msgstr wrapped in
  ⟦…⟧) may hold, outside the markers, only what ALLOWED lists: numbers, units, and names
  that are data rather than words of the program (devices, paths, config.txt lines,
  card and board names, ids)."""
import os
import re
import shutil
import subprocess
import tempfile

_LOCPATH = None


def locales(names=('de_DE', 'ja_JP')):
    """LOCPATH with NAME.UTF-8 for each name, compiled once per process; None (and the
    reason) when localedef or the locale sources are missing."""
    global _LOCPATH
    if _LOCPATH is None:
        if shutil.which('localedef') is None or not os.path.isdir('/usr/share/i18n/locales'):
            return None, 'localedef or /usr/share/i18n/locales is missing (package locales)'
        _LOCPATH = tempfile.mkdtemp(prefix='sdt-locales-')
        os.chmod(_LOCPATH, 0o755)
    for name in names:
        out = os.path.join(_LOCPATH, f'{name}.UTF-8')
        if os.path.isdir(out):
            continue
        r = subprocess.run(['localedef', '--no-archive', '-i', name, '-f', 'UTF-8', out],
                           capture_output=True, text=True)
        # localedef warns (exit 1) on some locale sources but still writes them
        if not os.path.exists(os.path.join(out, 'LC_CTYPE')):
            return None, f'localedef {name}.UTF-8 failed: {r.stderr.strip()}'
    return _LOCPATH, None


def cleanup():
    if _LOCPATH is not None:
        shutil.rmtree(_LOCPATH, ignore_errors=True)


MARK_OPEN, MARK_CLOSE = '⟦', '⟧'

# what may stand outside ⟦…⟧: data and notation, never words of the program
ALLOWED = [
    r'[-+]?\d[\d.,:]*\s*(?:%|µs|MB/s|MHz|GB|GiB|MiB|KiB|MB|V|s|bits?|x|×)?',  # numbers, units
    r'MB/s|MHz|IOPS|GB|GiB|MiB|KiB|µs|%',            # units alone
    r'0x[0-9a-fA-F]+',                              # hex values (revision, ids)
    r'(?=[a-f]*\d)[0-9a-f]{6}',                     # revision codes (a02082)
    r'mmcblk\d+(?:p\d+)?|mmc\d+(?::[0-9a-f]+)?',    # device names
    r'[0-9a-f]+\.mmc|sdhost(?:-bcm2835)?|emmc2|sdhci-brcmstb|BCM\d+',  # controllers, SoCs
    r'/[\w./-]*',                                   # paths
    r'\[[\w=,.-]+\]',                               # config.txt filters
    r'[\w.]+=[\w.,=-]*',                            # config.txt lines (dtparam=…)
    r'#\s*---[^⟦⟧]*---',                            # SD Tuner's marker lines in the block
    r'[+-]{3} [ab]/\S+|@@ [-+\d, ]+ @@|[+ -]',      # unified diff notation
    r'sd-overclock-\d+|sd-cqe-\w+',                 # recommendation ids
    r'Raspberry Pi[\w .]*',                         # board model names (data from the board)
    r'SanDisk/Western Digital|SU08G|SD|“SD”',      # the fixture card's maker, name, OEM
    r'[CUVA]\d+',                                   # class marks (C10, U1, V30, A2)
    r'sdtunerctl|sd-tuner-helper|SD Tuner|config\.txt|tryboot\.txt',   # product, files
    r'sd-high-speed|legacy|uhs-\w+|mmc-\w+|quick|standard|full',        # JSON values
    r'\d\w* \(\w+\)',                                # board key and name: 3 (3B)
    r'sdtunerctl|sd-tuner-helper|SD Tuner',         # the program's names
    r'info|recommend|apply|revert|status|history|bench|check|health|verify|metrics|help|ID|DIR|COMMAND',  # CLI syntax
    r'--?[\w-]+(?:=|,)?|\[[^\]⟦⟧]*\]',               # options, [--profile quick|…]
    # GLib's own --help headings and GTK's title-bar buttons and info-bar names: translated
    # by GLib's and GTK's catalogues (glib20, gtk30), not by SD Tuner's
    r'Usage:|Options:|Help Options:|Application Options:|Show help options',
    r'Minimize|Maximize|Restore|Close|Error|Warning|Information|Question',
    r'[-—·•✓✗:;,.()（）、。/ ]',                     # punctuation, the empty cell's dash
]
_ALLOWED_RX = re.compile(r'(?:\s|' + '|'.join(f'(?:{a})' for a in ALLOWED) + r')*', re.S)


def strip_marked(text):
    """@text with every ⟦…⟧ (nested too) removed"""
    prev = None
    while prev != text:
        prev = text
        text = re.sub(r'⟦[^⟦⟧]*⟧', ' ', text)
    return text


def unmarked(text):
    """What of @text stands outside the markers and is not on the allow-list: '' if
    nothing. Unbalanced markers count as unmarked text."""
    rest = strip_marked(text)
    if MARK_OPEN in rest or MARK_CLOSE in rest:
        return rest.strip()
    bad = []
    for token in re.split(r'\s{2,}|\n', rest):
        token = token.strip()
        if token and not _ALLOWED_RX.fullmatch(token):
            bad.append(token)
    return ' | '.join(bad)
