#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: mnemonics suite=i18n timeout=60 protocol=tap args={srcdir}
"""test-mnemonics.py SRCROOT - no two controls the user sees together share an Alt key.

For every language of po/LINGUAS, the mnemonic labels of the window are looked up in
po/LL.po and must not clash: two visible-together controls with the same mnemonic letter
(case-insensitive) mean Alt+letter reaches only one of them.  A translated label that
lost the underscore its English label has fails too (the control has no Alt key).

What is visible together comes from the .ui files in data/ui/, parsed, not listed here:
- a <template class="X"> is the widget class X; an <object class="X"> elsewhere is
  that template (and X's mnemonics set in its C file) put in place there;
- the children of a GtkStack (and the pages of a GtkNotebook) are shown one at a time:
  each is a group of its own, together with everything outside the stack (the window's
  header, info bars and buttons);
- a top-level window of its own (a template or an object that is a GtkWindow or
  GtkDialog, or a class no .ui puts anywhere) is a group of its own.
Mnemonics in C come from src/app/*.c: the _() / C_() label passed to a GTK call that
takes a mnemonic (gtk_*_new_with_mnemonic, gtk_info_bar_add_button, gtk_dialog_add_button,
...) or set on a control (gtk_button_set_label), and belong to the class of the file
(its G_DEFINE_TYPE).  Within a group every label counts, even controls that are shown
in turn (the Benchmark and Stop buttons): a key must not depend on which one is showing.

Prints TAP."""
import os
import re
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from sdttap import finish, ok  # noqa: E402

SRC = os.path.abspath(sys.argv[1])
UI_DIR = os.path.join(SRC, 'data', 'ui')
APP_DIR = os.path.join(SRC, 'src', 'app')

SWITCHED = ('GtkStack', 'GtkNotebook')            # children shown one at a time
TOPLEVEL = ('GtkWindow', 'GtkApplicationWindow', 'GtkDialog', 'GtkMessageDialog',
            'GtkAboutDialog', 'GtkAssistant', 'GtkFileChooserDialog')
TRUE = ('true', 'yes', '1', 't', 'y')

# GTK calls whose label argument (a _() or C_() string) is a mnemonic
C_MNEMONIC_CALL = re.compile(
    r'\b(gtk_\w*_new_with_mnemonic|gtk_label_set_text_with_mnemonic|gtk_label_set_markup_with_mnemonic'
    r'|gtk_info_bar_add_button|gtk_dialog_add_button|gtk_dialog_new_with_buttons'
    r'|gtk_message_dialog_format_secondary\w*|gtk_button_set_label|gtk_menu_item_set_label'
    r'|gtk_expander_set_label|gtk_file_chooser_dialog_new)\s*\(([^;]*?)\)\s*;', re.S)
C_STRING = re.compile(r'\b(?:C_\(\s*"((?:[^"\\]|\\.)*)"\s*,\s*|_\(\s*)"((?:[^"\\]|\\.)*)"\s*\)')


def read_po(path):
    """{(msgctxt, msgid): msgstr} of the translated, not fuzzy, not obsolete singular
    messages of @path"""
    out = {}
    state = {'cur': {}, 'key': None, 'fuzzy': False}

    def done():
        cur = state['cur']
        if 'msgid' in cur and 'msgstr' in cur and not state['fuzzy']:
            out[(cur.get('msgctxt'), cur['msgid'])] = cur['msgstr']
        state.update(cur={}, key=None, fuzzy=False)

    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.strip()
            m = re.match(r'(msgctxt|msgid|msgstr)\s+"(.*)"$', line)
            if not line or line.startswith('#') or (m and m.group(1) != 'msgstr'
                                                    and 'msgstr' in state['cur']):
                if 'msgstr' in state['cur'] or 'msgid' in state['cur']:
                    done()
                if line.startswith('#,') and 'fuzzy' in line:
                    state['fuzzy'] = True
                if not m:
                    continue
            if m:
                state['key'] = m.group(1)
                state['cur'][m.group(1)] = unquote(m.group(2))
            elif line.startswith('"') and state['key'] is not None:
                state['cur'][state['key']] += unquote(line[1:-1])
            else:  # msgid_plural, msgstr[N]: plurals carry no mnemonic label
                state['key'] = None
    done()
    return out


def unquote(s):
    return re.sub(r'\\(.)', lambda m: {'n': '\n', 't': '\t'}.get(m.group(1), m.group(1)), s)


def mnemonic(label):
    """the mnemonic key of @label (lower case), or None: the character after the first
    single underscore ("__" is a literal underscore)"""
    i = 0
    while i < len(label) - 1:
        if label[i] == '_':
            if label[i + 1] == '_':
                i += 2
                continue
            return label[i + 1].lower()
        i += 1
    return None


class Label:
    def __init__(self, text, context, where):
        self.text, self.context, self.where = text, context, where


def object_labels(obj, where):
    """the mnemonic label of one <object> or <template>: its translatable "label" when
    use-underline is set"""
    props = {}
    for p in obj.findall('property'):
        props[p.get('name').replace('_', '-')] = p
    use = props.get('use-underline')
    lab = props.get('label')
    if use is None or (use.text or '').strip().lower() not in TRUE or lab is None:
        return []
    if lab.get('translatable', '').lower() not in TRUE:
        return []
    ident = obj.get('id') or obj.get('class')
    return [Label(lab.text or '', lab.get('context'), f'{where}: {ident}')]


class Node:
    """a widget of a .ui: its own labels, the class it instantiates, its children (and
    whether they are shown one at a time)"""

    def __init__(self, cls, labels, children, switched, tabs):
        self.cls, self.labels, self.children = cls, labels, children
        self.switched, self.tabs = switched, tabs
        self.is_template = False
        self.name = cls


def parse_node(obj, where):
    cls = obj.get('class')
    switched = obj.tag == 'object' and cls in SWITCHED
    children, tabs = [], []
    for child in obj.findall('child'):
        if child.get('internal-child') is not None and child.find('object') is not None \
                and child.find('object').get('class') == 'AtkObject':
            continue
        packing = {p.get('name'): p.text for p in child.findall('packing/property')}
        for sub in child.findall('object'):
            node = parse_node(sub, where)
            node.name = packing.get('name') or sub.get('id') or sub.get('class')
            # a notebook's tab labels are all shown at once, with every page
            (tabs if child.get('type') == 'tab' else children).append(node)
    return Node(cls, object_labels(obj, where), children, switched, tabs)


def read_ui():
    """templates {class: Node}, top-level objects [Node], classes instantiated somewhere"""
    templates, tops, used = {}, [], set()
    for name in sorted(os.listdir(UI_DIR)):
        if not name.endswith('.ui'):
            continue
        root = ET.parse(os.path.join(UI_DIR, name)).getroot()
        for el in root.iter('object'):
            used.add(el.get('class'))
        for el in root:
            if el.tag == 'template':
                node = parse_node(el, name)
                node.parent = el.get('parent')
                node.is_template = True
                templates[el.get('class')] = node
            elif el.tag == 'object':
                node = parse_node(el, name)
                node.parent = el.get('class')
                tops.append(node)
    return templates, tops, used


def read_c():
    """{class or file: [Label]} of the mnemonics set in src/app/*.c"""
    found = {}
    for name in sorted(os.listdir(APP_DIR)):
        if not name.endswith('.c'):
            continue
        with open(os.path.join(APP_DIR, name), encoding='utf-8') as f:
            text = f.read()
        m = re.search(r'G_DEFINE_(?:FINAL_)?TYPE\w*\s*\(\s*(\w+)', text)
        owner = m.group(1) if m else name
        for call in C_MNEMONIC_CALL.finditer(text):
            for s in C_STRING.finditer(call.group(2)):
                label = re.sub(r'\\(.)', r'\1', s.group(2))
                if mnemonic(label) is not None:
                    found.setdefault(owner, []).append(
                        Label(label, s.group(1), f'src/app/{name}: {call.group(1)}'))
    return found


def groups(node, templates, c_labels, seen=()):
    """the sets of labels visible together in @node: a list of (what is showing, labels)"""
    own = list(node.labels)
    base = [('', [])]
    if not node.is_template and node.cls in templates:
        if node.cls not in seen:  # the template put in place (it brings its C labels)
            base = groups(templates[node.cls], templates, c_labels, seen + (node.cls,))
    else:
        own += c_labels.get(node.cls, [])

    def cross(a, b):
        return [((x + ' ' + y).strip(), la + lb) for x, la in a for y, lb in b]

    for tab in node.tabs:
        base = cross(base, groups(tab, templates, c_labels, seen))
    if node.switched and node.children:
        alts = []
        for child in node.children:
            alts += [((f'page "{child.name}" ' + n).strip(), g)
                     for n, g in groups(child, templates, c_labels, seen)]
        base = cross(base, alts)
    else:
        for child in node.children:
            base = cross(base, groups(child, templates, c_labels, seen))
    return [(n, own + g) for n, g in base]


def window_groups():
    templates, tops, used = read_ui()
    c_labels = read_c()
    roots = []
    for cls, node in templates.items():
        # a template nobody instantiates (the main window, a dialog) stands on its own
        if cls not in used or node.parent in TOPLEVEL:
            roots.append((cls, node))
    for node in tops:
        if node.cls in TOPLEVEL or node.labels or node.children:
            roots.append((node.cls, node))
    out = []
    for name, node in roots:
        for what, g in groups(node, templates, c_labels):
            out.append((f'{name} {what}'.strip(), g))
    # mnemonics of a class or file that no .ui places: a window of its own
    placed = used | set(templates)
    for owner, labels in c_labels.items():
        if owner not in placed:
            out.append((owner, labels))
    return out


def describe(group):
    return ', '.join(l.text for l in group)


def main():
    all_groups = window_groups()
    # the parse found the window: without a group of two mnemonics this test checks nothing
    ok(any(len(g) >= 2 for _, g in all_groups),
       'data/ui and src/app give at least one group of visible-together mnemonic labels',
       '\n'.join(f'{n}: {describe(g)}' for n, g in all_groups))
    for name, g in all_groups:
        print(f'# {name}: {describe(g)}')
        keys = {}
        for lab in g:
            keys.setdefault(mnemonic(lab.text), []).append(lab)
        clash = {k: v for k, v in keys.items() if k is not None and len(v) > 1}
        ok(not clash, f'en: {name}: one control per mnemonic',
           '\n'.join(f'Alt+{k}: ' + ' / '.join(f'"{l.text}" ({l.where})' for l in v)
                     for k, v in clash.items()))
    with open(os.path.join(SRC, 'po', 'LINGUAS'), encoding='utf-8') as f:
        languages = [l.strip() for l in f if l.strip() and not l.startswith('#')]
    for lang in languages:
        entries = read_po(os.path.join(SRC, 'po', f'{lang}.po'))
        for name, g in all_groups:
            keys, lost, missing = {}, [], []
            for lab in g:
                msgstr = entries.get((lab.context, lab.text))
                if not msgstr:
                    missing.append(lab.text)
                    continue
                key = mnemonic(msgstr)
                if key is None:
                    lost.append(f'"{lab.text}" → "{msgstr}" ({lab.where})')
                    continue
                keys.setdefault(key, []).append((lab, msgstr))
            clash = {k: v for k, v in keys.items() if len(v) > 1}
            ok(not missing, f'{lang}: {name}: every mnemonic label is translated',
               'untranslated: ' + ', '.join(missing))
            ok(not lost, f'{lang}: {name}: every translated label keeps its mnemonic',
               '\n'.join(lost))
            ok(not clash, f'{lang}: {name}: one control per mnemonic (Alt+letter)',
               '\n'.join(f'Alt+{k}: ' + ' / '.join(f'"{t}" ({l.where})' for l, t in v)
                         for k, v in clash.items()))
    return finish()


sys.exit(main())
