#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test-glossary.py SRCROOT - the catalogues keep po/GLOSSARY.md and the CLI's tables.

For every language of po/LINGUAS:
- no msgstr holds a form that po/GLOSSARY.md lists in the "not" column of that language's
  table (each backticked item, searched literally; the .desktop file's search terms,
  which list synonyms on purpose, are left out);
- in ja and zh_CN no space follows an ideographic full stop (。 ), and the error format
  "%s %s\\n(%s)" (what failed, what to do, the detail) joins its sentences without one;
- the benchmark tests' titles fit the column `sdtunerctl bench` pads them to, and the
  `sdtunerctl info` row labels fit theirs (terminal columns, a wide character is two),
  both widths and both lists read from the C sources.
Prints TAP."""
import os
import re
import sys
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sdttap import finish, ok  # noqa: E402

SRC = os.path.abspath(sys.argv[1])
NO_SPACE_AFTER_FULL_STOP = ('ja', 'zh_CN')
SEARCH_TERMS = 'SD;microSD;card;speed;benchmark;'


def load_mnemonics_po_reader():
    """read_po() of test-mnemonics.py: one .po reader for the i18n tests"""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'test-mnemonics.py')
    with open(path, encoding='utf-8') as f:
        text = f.read()
    start = text.index('def read_po(')
    end = text.index('\ndef mnemonic(')
    scope = {'re': re}
    exec(text[start:end], scope)  # noqa: S102 - our own file
    return scope['read_po']


read_po = load_mnemonics_po_reader()


def columns(text):
    """terminal columns of @text, as sdt_l10n_columns() counts them"""
    n = 0
    for c in text:
        if unicodedata.combining(c) or c in '\n\u200b':
            continue
        n += 2 if unicodedata.east_asian_width(c) in 'WF' else 1
    return n


def glossary():
    """{language: [forbidden literal]} from po/GLOSSARY.md"""
    out, lang = {}, None
    with open(os.path.join(SRC, 'po', 'GLOSSARY.md'), encoding='utf-8') as f:
        for line in f:
            m = re.match(r'## (\S+)', line)
            if m:
                lang = m.group(1)
                out.setdefault(lang, [])
                continue
            if lang is None or not line.startswith('|'):
                continue
            cells = [c.strip() for c in line.strip().strip('|').split('|')]
            if len(cells) < 3 or set(cells[0]) <= set('-') or cells[0] == 'English':
                continue
            for item in re.findall(r'`([^`]+)`', cells[2]):
                item = item.replace('\\u00a0', '\u00a0')
                out.setdefault(lang, []).append(item)
    return out


def c_source(path):
    with open(os.path.join(SRC, path), encoding='utf-8') as f:
        return f.read()


def bench_titles():
    """(the titles of sdt_l10n_bench_test(), the width sdtunerctl bench pads them to)"""
    text = c_source('src/libsdt/sdt-l10n.c')
    body = text[text.index('\nsdt_l10n_bench_test('):]
    body = body[:body.index('\n}\n')]
    titles = re.findall(r'N_\("((?:[^"\\]|\\.)*)"\)', body)
    widths = [int(w) for w in re.findall(r'sdt_l10n_pad\(\s*sdt_l10n_bench_test\([^()]*\),\s*(\d+)\)',
                                         c_source('src/cli/sdtunerctl-bench.c'))]
    return titles, min(widths) if widths else None


def info_labels():
    """(the labels of sdt_cli_info_row(), SDT_CLI_INFO_LABEL_WIDTH)"""
    labels, width = set(), None
    cli = os.path.join(SRC, 'src', 'cli')
    for name in sorted(os.listdir(cli)):
        if not name.endswith('.c'):
            continue
        text = c_source(os.path.join('src', 'cli', name))
        labels |= set(re.findall(r'sdt_cli_info_row\(\s*\w+,\s*_\("((?:[^"\\]|\\.)*)"\)', text))
        m = re.search(r'#define SDT_CLI_INFO_LABEL_WIDTH (\d+)', text)
        if m:
            width = int(m.group(1))
    return sorted(labels), width


def main():
    with open(os.path.join(SRC, 'po', 'LINGUAS'), encoding='utf-8') as f:
        languages = [l.strip() for l in f if l.strip() and not l.startswith('#')]
    terms = glossary()
    ok(all(lang in terms for lang in languages),
       'po/GLOSSARY.md has a table for every language of po/LINGUAS',
       'missing: ' + ' '.join(l for l in languages if l not in terms))
    titles, bench_width = bench_titles()
    labels, info_width = info_labels()
    ok(len(titles) >= 5 and bench_width, 'the benchmark test titles and their column are found',
       f'{titles} {bench_width}')
    ok(len(labels) >= 10 and info_width, 'the info row labels and their column are found',
       f'{labels} {info_width}')
    for lang in languages:
        msgs = read_po(os.path.join(SRC, 'po', f'{lang}.po'))
        shown = {k: v for k, v in msgs.items() if k[1] and not k[1].startswith(SEARCH_TERMS)}
        bad = [f'`{t}` in "{v}"' for t in terms.get(lang, []) for v in shown.values() if t in v]
        ok(not bad, f'{lang}: no form po/GLOSSARY.md rules out', '\n'.join(bad))
        if lang in NO_SPACE_AFTER_FULL_STOP:
            gaps = [v for v in shown.values() if '。 ' in v or v.endswith('。 ')]
            ok(not gaps, f'{lang}: no space after 。', '\n'.join(gaps))
            join = shown.get((None, '%s %s\n(%s)'), '')
            ok(join and not re.match(r'%s\s+%s', join),
               f'{lang}: the error format joins its two sentences without a space', repr(join))
        wide = [f'{columns(shown.get((None, t), t))} columns: "{shown.get((None, t), t)}"'
                for t in titles if columns(shown.get((None, t), t)) > bench_width]
        ok(not wide, f'{lang}: the benchmark test titles fit {bench_width} columns', '\n'.join(wide))
        wide = [f'{columns(shown.get((None, t), t))} columns: "{shown.get((None, t), t)}"'
                for t in labels if columns(shown.get((None, t), t)) > info_width]
        ok(not wide, f'{lang}: the info row labels fit {info_width} columns', '\n'.join(wide))
    return finish()


sys.exit(main())
