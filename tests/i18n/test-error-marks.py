#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: error-marks suite=i18n timeout=120 protocol=tap
#    args={srcdir},@sdt_l10n_formats@,@xgettext_args@
"""test-error-marks.py SRCROOT L10N-TABLE XGETTEXT-ARG... - every error text is translatable.

A static scan of the libraries of src/ and src/helper (issue 24): the helper sends its errors in
English and the app and sdtunerctl translate them with sdt_l10n_tr(), which knows only
what xgettext extracted. So
1. every text handed to g_set_error(), g_set_error_literal(), g_prefix_error(),
   g_propagate_prefixed_error(), sdt_error_set_from_errno(), g_error_new(),
   g_task_return_new_error() or g_dbus_method_invocation_return_error() is marked
   (_(), N_(), C_(), ngettext(), g_dngettext()); a text that is not a literal is one of
   the few forwarding sites listed in FORWARDED, each with the reason;
2. each marked text is in a pot extracted afresh from po/POTFILES.in with the
   arguments of po/meson.build, and one with printf conversions also in the generated
   table of the library's msgids (L10N-TABLE, sdt-l10n-formats.c), so the client can
   match the English sentence and fill in the translation;
3. no list is joined with an English ", " (a list separator is C_("list separator", ", "));
4. the kernel's command-queueing quirk reasons (sdt-cqe-quirks.c) are marked.
A new unmarked call site fails here. Prints TAP."""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from sdttap import finish, ok  # noqa: E402

SRC = os.path.abspath(sys.argv[1])
TABLE = os.path.abspath(sys.argv[2])
XGETTEXT_ARGS = sys.argv[3:]
DIRS = ('src/libsdt', 'src/wire', 'src/platform', 'src/config', 'src/bench', 'src/check',
        'src/decide', 'src/state', 'src/ops', 'src/dbus', 'src/helper')

# function -> index of the argument that holds the text
FUNCS = {'g_set_error': 3, 'g_set_error_literal': 3, 'g_prefix_error': 1,
         'g_prefix_error_literal': 1, 'g_propagate_prefixed_error': 2,
         'sdt_error_set_from_errno': 2, 'g_error_new': 2, 'g_error_new_literal': 2,
         'g_task_return_new_error': 3, 'g_dbus_method_invocation_return_error': 3,
         'g_dbus_method_invocation_return_error_literal': 3}
CALL = re.compile(r'\b(' + '|'.join(sorted(FUNCS, key=len, reverse=True)) + r')\s*\(')
MARK = re.compile(r'\b(?:_|N_|C_|NC_|ngettext|g_dngettext)\s*\(')

# texts that are no literal: (file, the argument) -> why it is translated anyway
FORWARDED = {
    ('src/libsdt/sdt-error.c', 'format'):
        "sdt_error_set_from_errno() itself: its callers' formats are checked here",
    ('src/config/writer/sdt-config-writer.c', 'damage'):
        "sdt_config_diagnose_block()'s text, built from _() formats",
    ('src/ops/sdt-ops-config.c', 'damage'):
        "sdt_config_diagnose_block()'s text, built from _() formats",
    ('src/helper/sdt-daemon.c', 'error->message'):
        'an error raised by the library, passed on to the D-Bus caller',
}


def strip_comments(s):
    """@s with comments blanked (same length, line breaks kept), string literals intact"""
    out = []
    i, n = 0, len(s)
    while i < n:
        if s.startswith('/*', i):
            j = s.index('*/', i) + 2
            out.append(''.join(c if c == '\n' else ' ' for c in s[i:j]))
            i = j
        elif s.startswith('//', i):
            j = s.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif s[i] in '"\'':
            q, j = s[i], i + 1
            while s[j] != q:
                j += 2 if s[j] == '\\' else 1
            out.append(s[i:j + 1])
            i = j + 1
        else:
            out.append(s[i])
            i += 1
    return ''.join(out)


def call_args(s, i):
    """the arguments of the call whose '(' ends just before @i, and where it ends"""
    depth, args, cur, j = 0, [], [], i
    while True:
        c = s[j]
        if c in '"\'':
            k = j + 1
            while s[k] != c:
                k += 2 if s[k] == '\\' else 1
            cur.append(s[j:k + 1])
            j = k + 1
            continue
        if c in '([{':
            depth += 1
        elif c in ')]}':
            if depth == 0:
                args.append(''.join(cur).strip())
                return args, j + 1
            depth -= 1
        if c == ',' and depth == 0:
            args.append(''.join(cur).strip())
            cur = []
        else:
            cur.append(c)
        j += 1


def marked_spans(s):
    """(start, end) of every _(…), N_(…), C_(…), ngettext(…) call in @s, and its arguments"""
    spans = []
    for m in MARK.finditer(s):
        args, end = call_args(s, m.end())
        spans.append((m.start(), end, m.group(0).split('(')[0].strip(), args))
    return spans


LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')


def unescape(s):
    return re.sub(r'\\(.)', lambda m: {'n': '\n', 't': '\t'}.get(m.group(1), m.group(1)), s)


def msgid_of(expr):
    """the msgid of a C string expression ("%" PRIu64 " bytes" -> "%<PRIu64> bytes")"""
    expr = re.sub(r'"\s*(PRI\w+)\s*"', r'<\1>', expr)
    expr = re.sub(r'"\s*(PRI\w+)\s*$', r'<\1>"', expr)
    return ''.join(unescape(m) for m in LITERAL.findall(expr))


def marked_texts(arg):
    """the msgids in @arg's _(…)/ngettext(…) calls, and whether a literal stands outside them"""
    texts = []
    spans = marked_spans(arg)
    for _start, _end, name, inner in spans:
        first = 1 if name in ('C_', 'NC_', 'g_dngettext') else 0
        n = 2 if name in ('ngettext', 'g_dngettext') else 1
        texts += [msgid_of(a) for a in inner[first:first + n]]
    outside = any(not any(a <= m.start() < b for a, b, _n, _i in spans)
                  for m in LITERAL.finditer(arg))
    return texts, outside


sites, unmarked, forwarded, unknown, msgids = [], [], [], [], []
for top in DIRS:
    for f in sorted(os.listdir(os.path.join(SRC, top))):
        if not f.endswith('.c'):
            continue
        path = f'{top}/{f}'
        with open(os.path.join(SRC, path), encoding='utf-8') as fh:
            text = strip_comments(fh.read())
        for m in CALL.finditer(text):
            if m.start() == 0 or text[m.start() - 1] == '\n':
                continue  # the definition of sdt_error_set_from_errno()
            line = text.count('\n', 0, m.start()) + 1
            args, _end = call_args(text, m.end())
            arg = args[FUNCS[m.group(1)]]
            where = f'{path}:{line} {m.group(1)}'
            sites.append(where)
            texts, outside = marked_texts(arg)
            if texts and not outside:
                msgids += [(where, t) for t in texts]
            elif LITERAL.search(arg):
                unmarked.append(f'{where}: {arg[:80]}')
            elif (path, arg.split()[-1]) in FORWARDED:
                forwarded.append(where)
            else:
                unknown.append(f'{where}: {arg[:80]}')
print(f'# {len(sites)} call sites raise an error with a text; {len(msgids)} marked texts, '
      f'{len(forwarded)} forwarded, {len(unmarked)} unmarked, {len(unknown)} unknown')
ok(len(sites) > 150, 'the scan finds the call sites', f'{len(sites)} sites')
ok(not unmarked, 'every error text is marked for translation', '\n'.join(unmarked))
ok(not unknown, 'every text that is no literal is a known forwarding site', '\n'.join(unknown))


def pot_msgids(pot_text):
    ids = set()
    for entry in pot_text.split('\n\n'):
        for key in ('msgid', 'msgid_plural'):
            m = re.search(rf'^{key} ((?:".*"\n?)+)', entry, re.M)
            if m:
                ids.add(unescape(''.join(re.findall(r'^"(.*)"$', m.group(1), re.M))))
    return ids


with tempfile.TemporaryDirectory(prefix='sdt-error-marks-') as tmp:
    pot = os.path.join(tmp, 'fresh.pot')
    r = subprocess.run(['xgettext'] + XGETTEXT_ARGS + ['--no-wrap',
                       f'--files-from={os.path.join(SRC, "po", "POTFILES.in")}',
                       f'--directory={SRC}', '-o', pot], capture_output=True, text=True)
    ok(r.returncode == 0, 'xgettext extracts a fresh pot', r.stderr)
    with open(pot, encoding='utf-8') as fh:
        in_pot = pot_msgids(fh.read())
missing = [f'{w}: {t!r}' for w, t in msgids if t not in in_pot]
ok(not missing, 'every marked error text is in the extracted pot (its file is in POTFILES.in)',
   '\n'.join(missing))

# the generated table: {"msgid" PRIu64 "...", NULL or "plural"},
with open(TABLE, encoding='utf-8') as fh:
    table = set()
    for row in re.findall(r'^\t\{(.*)\},$', fh.read(), re.M):
        for part in re.split(r',\s*(?=")|,\s*NULL$', row):
            if part.strip().startswith('"'):
                table.add(msgid_of(part))
conv = re.compile(r'%(?!%)')
with_values = [(w, t) for w, t in msgids if conv.search(t)]
print(f'# {len(with_values)} marked texts with values; the table has {len(table)} msgids')
not_in_table = [f'{w}: {t!r}' for w, t in with_values if t not in table]
ok(not not_in_table, 'every error text with values is in the l10n table of printf msgids',
   '\n'.join(not_in_table))

# 3. lists joined in the user's language
joins = []
for top in DIRS:
    for f in sorted(os.listdir(os.path.join(SRC, top))):
        if f.endswith('.c'):
            with open(os.path.join(SRC, top, f), encoding='utf-8') as fh:
                text = strip_comments(fh.read())
            for m in re.finditer(r'\b(?:g_string_append\w*\s*\(\s*[\w>.-]+|g_strjoin\w*\s*\()'
                                 r'\s*,?\s*", "', text):
                joins.append(f'{top}/{f}:{text.count(chr(10), 0, m.start()) + 1}')
ok(not joins, 'no list is joined with an English ", " (use C_("list separator", ", "))',
   '\n'.join(joins))

# 4. the quirk table's reasons
with open(os.path.join(SRC, 'src', 'platform', 'sdt-cqe-quirks.c'), encoding='utf-8') as fh:
    quirks = strip_comments(fh.read())
table_src = quirks[quirks.index('sdt_cqe_quirks[] = {'):]
table_src = table_src[:table_src.index('\n};')]
spans = marked_spans(table_src)
reasons = [(any(a <= m.start() < b for a, b, _n, _i in spans), m.group(1))
           for m in LITERAL.finditer(table_src) if ' ' in m.group(1)]
ok(len(reasons) >= 10 and all(mark for mark, _ in reasons),
   'every reason of the CQE quirk table is marked with N_()',
   '\n'.join(t for mark, t in reasons if not mark))

sys.exit(finish())
