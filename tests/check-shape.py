#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: shape suite=style timeout=300 args={srcdir},{builddir}
# meson-test: gui-links-no-writer suite=style timeout=300 needs=gtk args={srcdir},{builddir},--gui-writer
#    depends=sd_tuner
"""The shape of the house (docs/ARCHITECTURE.md, "Rules the build checks"):

  - no folder of src/ with more than MAX_FOLDER .c files;
  - no source file in src/ over MAX_FILE lines (generated code is in the
    build tree, not in src/, so it is not counted);
  - no function over MAX_FUNCTION lines, counted from the line with its name
    to its closing brace;
  - no include circle between files of src/ (a.c/a.h count as one module);
  - a header declares only functions defined in its own folder;
  - the layers (docs/ARCHITECTURE.md "Layers"): a file of a folder of src/
    includes only headers of its own folder and of the folders below it
    (LAYERS: the direct dependencies, as src/*/meson.build declares them),
    by their bare name (no path: the include path decides what is visible);
  - JSON is built and read (json-glib, sdt_json_*) only in src/wire/, the
    codecs (docs/ARCHITECTURE.md, "The wire layer");
  - a public (non-static) function's name starts with its file's name
    (sdt-check-block.c: sdt_check_block_*, or sdt_check_block itself; main()
    is the one exception);
  - a public function of the libraries (src/ but the programs in app/, cli/
    and helper/) that takes `GError **error` checks it with
    g_return_val_if_fail(error == NULL || *error == NULL, ...) (or
    g_return_if_fail) as the first statement after its leading declarations,
    and only there: the check appears once in the function, no declaration
    follows the checks, and no leading declaration's initializer names
    `error` (a call that could set it runs after the check: declare the
    variable plain, `= NULL` or no initializer, and assign it after the
    checks; so does other work that must wait for the checks, which review
    sees, not this script);
  - a `-private.h` (what a family of files shares only among itself) is
    included only by its family: the files of its own folder of src/, and the
    tests of that folder (tests/<folder>/, or a test named after the folder,
    test-bench.c for src/bench, test-config-writer.c for src/config/writer);
  - with BUILDDIR: no call circle between modules (from the object files'
    defined and undefined symbols), no public function without a caller
    outside its own file (tests count as callers), and the GUI binary links
    none of the config writer's symbols.

    tests/check-shape.py SRCDIR [BUILDDIR] [--report | --gui-writer]

--report prints every figure (largest file, longest functions, circles)
and exits 0; without it, any breach is an error.  --gui-writer checks only
that the GUI binary links none of the writer (the `gui-links-no-writer` test).
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from layers import LAYERS, layer_closure  # noqa: E402

MAX_FILE = 800
MAX_FUNCTION = 80
MAX_FOLDER = 20  # .c files in one folder of src/
# the folders whose libraries the GUI binary never links (issue 36: the app and the
# client read the documents through src/wire; the writer is root-only)
GUI_NEVER_LINKS = ('bench', 'check', 'platform', 'decide', 'state', 'ops', 'config/writer')

# The wire layer (docs/ARCHITECTURE.md, "The wire layer"): JSON is built and read
# only in src/wire/, where every document has one type and one codec; a .c file of
# src/ elsewhere that uses json-glib or sdt_json_* fails the shape test (issue 36)
# a call of json-glib or of the wire's JSON helpers, or a node-type macro
JSON_USE_RE = re.compile(r'\b(json_\w+|sdt_json_\w+)\s*\(|\bJSON_NODE_\w+')



args = [a for a in sys.argv[1:] if not a.startswith('--')]
report = '--report' in sys.argv
gui_writer_only = '--gui-writer' in sys.argv
src = os.path.abspath(args[0] if args else '.')
build = os.path.abspath(args[1]) if len(args) > 1 else None


def sources():
    out = []
    for d, _, fs in os.walk(os.path.join(src, 'src')):
        for f in fs:
            if f.endswith(('.c', '.h')):
                out.append(os.path.join(d, f))
    return sorted(out)


def module(path):
    """a.c and a.h are module a; a-private.h is a's inner half, module a too"""
    rel = os.path.relpath(path, src)
    return re.sub(r'(-private)?\.[ch]$', '', rel)


NAME_RE = re.compile(r'^([A-Za-z_]\w*)\s*\(')


def functions(path, lines):
    """(name, first line, last line) of every function defined at column 0."""
    out = []
    i = 0
    while i < len(lines):
        if lines[i].startswith('{'):
            # the name is on the nearest line above that starts with `name (`
            j = i - 1
            while j >= 0 and not NAME_RE.match(lines[j]) and i - j < 20:
                j -= 1
            k = i + 1
            while k < len(lines) and not lines[k].startswith('}'):
                k += 1
            m = NAME_RE.match(lines[j]) if j >= 0 else None
            if m and not lines[j].startswith(('if', 'for', 'while', 'switch')):
                out.append((m.group(1), j + 1, k + 1))
            i = k + 1
            continue
        i += 1
    return out


def code_lines(lines):
    """@lines with comments and string literals blanked (line numbers kept)"""
    text = '\n'.join(lines)
    text = re.sub(r'/\*.*?\*/|//[^\n]*|"(\\.|[^"\\\n])*"',
                  lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text, flags=re.S)
    return text.split('\n')


def is_static(lines, name_line):
    """TRUE when the declaration above the name line (its return type) says static."""
    words = []
    j = name_line - 1
    while j >= 0 and lines[j].strip() and not lines[j].startswith('#') and \
            not lines[j].rstrip().endswith((';', '}', '*/', ')')):
        words += lines[j].split()
        j -= 1
    return 'static' in words


PROGRAMS = ('app', 'cli', 'helper')


# a declaration at the top of a body: `type name [= init];`, the type with its
# qualifiers (static, const, struct, unsigned, ...), pointers and g_autoptr(T),
# g_auto(T), g_autofree; arrays; more than one declarator; a brace initializer
DECL_RE = re.compile(
    r'^(?!(?:return|goto|else|case|do|break|continue|sizeof|default)\b)'
    r'(?:(?:static|const|volatile|register|unsigned|signed|struct|enum|union|long|short)\s+)*'
    r'(?:g_autoptr\s*\(\s*\w+\s*\)|g_auto\s*\(\s*\w+\s*\)|g_autofree\s+(?:const\s+)?\w+|'
    r'(?:struct|union|enum)\s*\w*\s*\{[^{}]*\}|\w+)'
    r'(?:\s+const)?(?:(?:\s*\*+\s*(?:const\b\s*)?)+|\s+)'
    r'\w+\s*(?:\[[^\]]*\]\s*)*(=|,|;$)')


# `struct {` opens a type inside a declaration, not a block
TAG_RE = re.compile(r'\s*(?:(?:static|const)\s+)*(?:struct|union|enum)\b')


def leading_statements(code):
    """the statements at the top of a body (@code: its lines, comments and strings
    blanked), whitespace folded, up to the first that opens a block ({ not after =)"""
    out = []
    depth = 0
    cur = ''
    for line in code:
        if line.lstrip().startswith('#'):
            continue  # #ifdef around a declaration
        for c in line + ' ':
            cur += c
            if c in '([{':
                if c == '{' and depth == 0 and '=' not in cur and not TAG_RE.match(cur):
                    out.append(' '.join(cur.split()))
                    return out
                depth += 1
            elif c in ')]}':
                depth -= 1
            elif c == ';' and depth == 0:
                out.append(' '.join(cur.split()))
                cur = ''
    return out


def error_check_breach(code, name_line, first, last):
    """for a function taking a GError **: None when it does not, '' when its body
    has the shape (declarations, then the checks, the error check among them and
    first, once), else what is wrong"""
    sig = ' '.join(code[name_line:first - 1])
    m = re.search(r'GError\s*\*\*\s*(\w+)', sig)
    if not m:
        return None
    e = m.group(1)
    check = re.compile(r'^g_return(_val)?_if_fail\(\s*%s\s*==\s*NULL\s*\|\|\s*\*\s*%s\s*==\s*NULL\s*'
                       r'[,)]' % (e, e))
    body = code[first:last - 1]
    count = len(re.findall(r'\bg_return(?:_val)?_if_fail\s*\(\s*%s\s*==\s*NULL\s*\|\|\s*\*\s*%s\s*'
                           r'==\s*NULL\b' % (e, e), '\n'.join(body)))
    statements = leading_statements(body)
    k = 0
    while k < len(statements) and DECL_RE.match(statements[k]):
        k += 1
    if k == len(statements) or not check.match(statements[k]):
        return (f'does not check {e} == NULL || *{e} == NULL first after its declarations '
                f'(g_return_val_if_fail or g_return_if_fail)')
    if count > 1:
        return f'checks {e} == NULL || *{e} == NULL {count} times (once, after the declarations)'
    j = k
    while j < len(statements) and statements[j].startswith('g_return'):
        j += 1
    if j < len(statements) and DECL_RE.match(statements[j]):
        return 'declares after its checks (declarations first, then the checks)'
    for d in statements[:k]:
        if '=' in d and re.search(r'\b%s\b' % e, d.split('=', 1)[1]):
            return (f'initializes a declaration with {e} before the check: declare it plain '
                    f'and assign it after the checks')
    return ''


def file_prefix(path):
    """sdt-check-block.c -> sdt_check_block"""
    return os.path.basename(path)[:-2].replace('-', '_')


def private_family_ok(header, includer):
    """may @includer (a path) include @header, a -private.h of src/?"""
    folder = os.path.relpath(os.path.dirname(header), os.path.join(src, 'src'))
    rel = os.path.relpath(includer, src)
    if rel.startswith('src' + os.sep):
        return os.path.dirname(includer) == os.path.dirname(header)
    if rel.startswith('tests' + os.sep):
        if os.path.relpath(os.path.dirname(includer), os.path.join(src, 'tests')) == folder:
            return True
        stem = re.sub(r'^(test|fuzz)-', '', os.path.basename(includer)).rsplit('.', 1)[0]
        return stem.startswith(folder.replace(os.sep, '-'))
    return False


def walk_build(top):
    """os.walk() of a folder of the build tree, without the build trees nested in it (the
    real-kernel tier's cross builds in tests/vm/<case>/build, made from the sources of
    their own run: their objects are not this build's, and a stale one would count as a
    caller)"""
    for d, dirs, fs in os.walk(top):
        dirs[:] = [x for x in dirs
                   if not os.path.exists(os.path.join(d, x, 'build.ninja'))
                   and not os.path.isdir(os.path.join(d, x, 'meson-private'))]
        yield d, dirs, fs


def test_sources():
    out = []
    for d, _, fs in os.walk(os.path.join(src, 'tests')):
        for f in fs:
            if f.endswith(('.c', '.h')):
                out.append(os.path.join(d, f))
    return sorted(out)


def sccs(graph):
    """Tarjan's strongly connected components with more than one node."""
    index = {}
    low = {}
    stack = []
    on = set()
    result = []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                result.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return result


def folder_of(path):
    """the layer folder of a file of src/ ('config/edit', 'ops', ...)"""
    rel = os.path.relpath(os.path.dirname(path), os.path.join(src, 'src'))
    return rel


problems = []
files = sources()
sizes = []
long_functions = []
public_count = 0
misnamed = []
json_outside = []
error_api = 0
checked_api = 0
unchecked = []
include_graph = {}
layer_breaches = []
headers = {os.path.basename(p): module(p) for p in files if p.endswith('.h')}
for path in files:
    with open(path, encoding='utf-8', errors='replace') as f:
        lines = f.read().split('\n')
    n = len(lines) - (1 if lines and lines[-1] == '' else 0)
    rel = os.path.relpath(path, src)
    sizes.append((n, rel))
    code = code_lines(lines)
    if n > MAX_FILE:
        problems.append(f'{rel}: {n} lines (at most {MAX_FILE})')
    for name, first, last in functions(path, lines):
        length = last - first + 1
        if length > MAX_FUNCTION:
            long_functions.append((length, f'{rel}:{first} {name}'))
            problems.append(f'{rel}:{first}: {name}() is {length} lines (at most {MAX_FUNCTION})')
        if path.endswith('.c') and name != 'main' and not is_static(lines, first - 1):
            public_count += 1
            prefix = file_prefix(path)
            top = os.path.relpath(path, os.path.join(src, 'src')).split(os.sep)[0]
            # the function's line of '{' is found again from the name line
            brace = next(k for k in range(first - 1, len(lines)) if lines[k].startswith('{'))
            breach = error_check_breach(code, first - 1, brace + 1, last) \
                if top not in PROGRAMS else None
            if breach is not None:
                error_api += 1
                if breach:
                    unchecked.append(f'{rel}:{first} {name}')
                    problems.append(f'{rel}:{first}: public {name}() takes a GError ** but {breach} '
                                    '(docs/ARCHITECTURE.md, "Rules the build checks")')
            # its first statement after the declarations is a g_return_*_if_fail()
            statements = leading_statements(code[brace + 1:last - 1])
            checks = [st for st in statements if not DECL_RE.match(st)][:1]
            if top not in PROGRAMS and checks and checks[0].startswith('g_return'):
                checked_api += 1
            if name != prefix and not name.startswith(prefix + '_'):
                misnamed.append(f'{rel}:{first} {name}')
                problems.append(f'{rel}:{first}: public {name}() does not start with its file\'s '
                                f'name {prefix}_ (rename it, or make it static)')
    if not rel.startswith('src/wire/') and rel.endswith('.c'):
        uses = [i for i, line in enumerate(code_lines(lines)) if JSON_USE_RE.search(line)]
        if uses:
            json_outside.append(rel)
            problems.append(f'{rel}:{uses[0] + 1}: builds or reads JSON; JSON is built and read '
                            f'only in src/wire/ (docs/ARCHITECTURE.md, "The wire layer"): fill '
                            f'the document\'s type and encode it with its codec')
    mod = module(path)
    folder = folder_of(path)
    if folder not in LAYERS:
        problems.append(f'{rel}: folder src/{folder} is not a layer of LAYERS '
                        '(docs/ARCHITECTURE.md "Layers")')
    for number, line in enumerate(lines, 1):
        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if m and '/' in m.group(1) and os.path.basename(m.group(1)) in headers:
            problems.append(f'{rel}:{number}: #include "{m.group(1)}" names a path; a header of '
                            'src/ is included by its name, through its layer\'s include path')
        if m and os.path.basename(m.group(1)) in headers:
            target_folder = folder_of(os.path.join(src, headers[os.path.basename(m.group(1))]))
            if (folder in LAYERS and target_folder != folder
                    and target_folder not in layer_closure(folder)):
                layer_breaches.append(f'{rel}:{number}')
                problems.append(f'{rel}:{number}: src/{folder} includes "{m.group(1)}" of '
                                f'src/{target_folder}, a layer it may not use '
                                '(docs/ARCHITECTURE.md "Layers")')
            target = headers[os.path.basename(m.group(1))]
            if target != mod:
                include_graph.setdefault(mod, set()).add(target)

# a header declares only functions of its own folder: what a higher layer defines is
# declared in that layer's header, so a lower header never names a function above it
c_modules = {os.path.basename(p)[:-2].replace('-', '_'): folder_of(p)
             for p in files if p.endswith('.c')}
foreign_declarations = []
PROTO_RE = re.compile(r'^[A-Za-z_][\w \*]*?\b(sdt\w+)\s*\(')
for path in files:
    if not path.endswith('.h'):
        continue
    with open(path, encoding='utf-8', errors='replace') as f:
        header_lines = f.read().split('\n')
    for number, line in enumerate(header_lines, 1):
        if line.startswith(('#', 'typedef', ' ', '\t', '/', '}', 'G_')):
            continue
        m = PROTO_RE.match(line)
        owners = [c for c in c_modules if m and (m.group(1) + '_').startswith(c + '_')]
        if not owners:
            continue
        owner = max(owners, key=len)
        if c_modules[owner] != folder_of(path):
            rel = os.path.relpath(path, src)
            foreign_declarations.append(f'{rel}:{number}')
            problems.append(f'{rel}:{number}: declares {m.group(1)}(), defined in '
                            f'src/{c_modules[owner]}: declare it in a header of that folder')

folder_sizes = {}
for path in files:
    if path.endswith('.c'):
        folder_sizes[folder_of(path)] = folder_sizes.get(folder_of(path), 0) + 1
for folder, count in sorted(folder_sizes.items()):
    if count > MAX_FOLDER:
        problems.append(f'src/{folder}: {count} .c files (at most {MAX_FOLDER}: split the layer)')

private_headers = {os.path.basename(p): p for p in files if p.endswith('-private.h')}
private_breaches = []
for path in files + test_sources():
    with open(path, encoding='utf-8', errors='replace') as f:
        text = f.read()
    for m in re.finditer(r'^\s*#\s*include\s+"([^"]+-private\.h)"', text, re.M):
        header = private_headers.get(os.path.basename(m.group(1)))
        if header and not private_family_ok(header, path):
            rel = os.path.relpath(path, src)
            hrel = os.path.relpath(header, src)
            private_breaches.append(f'{rel}: {hrel}')
            problems.append(f'{rel} includes {hrel}, which is private to '
                            f'{os.path.relpath(os.path.dirname(header), src)}/ (include its '
                            f'public header, or move what it needs into one)')

include_circles = sccs(include_graph)
for c in include_circles:
    problems.append('include circle: ' + ' <-> '.join(c))

call_circles = []
dead = []
gui_engines = []
folder_only = []
gui_writer = []
if build:
    # objects of src/ in the build tree: src/<dir>/<target>.p/<file>.c.o
    objs = {}
    for d, _, fs in walk_build(os.path.join(build, 'src')):
        for f in fs:
            if f.endswith('.c.o'):
                cname = f[:-2]
                # generated sources (gdbus-codegen, resources) are not modules of src/
                rel = os.path.relpath(os.path.join(d, f), build)
                srcdir = os.path.dirname(os.path.dirname(rel))
                path = os.path.join(src, srcdir, cname)
                if os.path.exists(path):
                    objs[module(path)] = os.path.join(d, f)
    defined = {}
    undefined = {}
    for mod, obj in objs.items():
        out = subprocess.run(['nm', '-P', obj], capture_output=True, text=True).stdout
        defs = set()
        undefs = set()
        for line in out.splitlines():
            parts = line.split()
            if len(parts) < 2:
                continue
            sym, kind = parts[0], parts[1]
            if kind in 'TDBR':
                defs.add(sym)
            elif kind == 'U':
                undefs.add(sym)
        undefined[mod] = undefs
        for s in defs:
            defined.setdefault(s, mod)
    call_graph = {}
    for mod, undefs in undefined.items():
        for s in undefs:
            target = defined.get(s)
            if target and target != mod:
                call_graph.setdefault(mod, set()).add(target)
    call_circles = sccs(call_graph)
    for c in call_circles:
        problems.append('call circle: ' + ' <-> '.join(c))
    # callers outside the defining file, including the tests
    used = set()
    for mod, undefs in undefined.items():
        used |= undefs
    for d, _, fs in walk_build(os.path.join(build, 'tests')):
        for f in fs:
            if f.endswith('.o'):
                out = subprocess.run(['nm', '-P', '-u', os.path.join(d, f)], capture_output=True,
                                     text=True).stdout
                used |= {line.split()[0] for line in out.splitlines() if line.split()}
    # the libFuzzer targets are tests too, built only with -Dfuzzing=true (clang)
    fuzz = os.path.join(src, 'tests', 'fuzz')
    for f in sorted(os.listdir(fuzz)) if os.path.isdir(fuzz) else []:
        if f.endswith('.c'):
            with open(os.path.join(fuzz, f), encoding='utf-8', errors='replace') as fh:
                used |= set(re.findall(r'\bsdt_\w+', fh.read()))
    for sym, mod in sorted(defined.items()):
        if sym.startswith('sdt_') and sym not in used and not sym.endswith(('_get_type', '_quark')):
            # used inside its own file only is fine when it is declared static; a public
            # function nobody else calls is dead weight in the header
            dead.append(f'{mod}: {sym}')
            problems.append(f'{mod}: public {sym}() has no caller outside its file')
    # functions a public header declares that no file of another folder of src/ uses:
    # what a folder shares only inside itself belongs in its -private.h (issue 36)
    users = {}
    for mod, undefs in undefined.items():
        for sym in undefs:
            users.setdefault(sym, set()).add(folder_of(os.path.join(src, mod + '.c')))
    # a test uses a folder from inside when it is one of that folder's own tests (the
    # -private.h rule's family), from outside otherwise
    for d, _, fs in walk_build(os.path.join(build, 'tests')):
        for f in fs:
            if not f.endswith('.c.o'):
                continue
            test = os.path.join(src, os.path.relpath(d, build).rsplit('.p', 1)[0].rsplit(os.sep, 1)[0],
                                f[:-2])
            out = subprocess.run(['nm', '-P', '-u', os.path.join(d, f)], capture_output=True,
                                 text=True).stdout
            for line in out.splitlines():
                sym = line.split()[0] if line.split() else ''
                mod = defined.get(sym)
                if mod is None:
                    continue
                home = folder_of(os.path.join(src, mod + '.c'))
                inside = private_family_ok(os.path.join(src, 'src', home, 'x-private.h'), test)
                users.setdefault(sym, set()).add(home if inside else 'tests')
    for path in files:
        if not path.endswith('.h') or path.endswith('-private.h'):
            continue
        if os.path.relpath(path, os.path.join(src, 'src')).split(os.sep)[0] in PROGRAMS:
            continue  # a program's headers are its own: no other folder may include them
        folder = folder_of(path)
        with open(path, encoding='utf-8', errors='replace') as fh:
            declared = re.findall(r'^[\w\s\*]*?\b(sdt_\w+)\s*\(', '\n'.join(code_lines(fh.read().split('\n'))), re.M)
        for sym in sorted(set(declared)):
            if sym in defined and users.get(sym, set()) <= {folder}:
                folder_only.append(f'{os.path.relpath(path, src)}: {sym}')
    gui = os.path.join(build, 'src', 'app', 'sd-tuner')
    if os.path.exists(gui):
        out = subprocess.run(['nm', '-P', gui], capture_output=True, text=True).stdout
        # the writer's files name every symbol with one of these prefixes
        # (sdt-config-writer.h, the file name is the prefix): atomic write, backup, lock,
        # journal, trial, evidence, apply, includes
        writer = re.compile(r'^sdt_config_(writer|journal|trial|evidence|apply|includes)(_|$)|'
                            r'^SdtConfigWriter|^sdt_file_write_atomic')
        gui_writer = sorted({line.split()[0] for line in out.splitlines()
                             if line.split() and writer.match(line.split()[0])})
        for s in gui_writer:
            problems.append(f'sd-tuner (the GUI) links the root-only writer: {s}')
    # what the build links into the GUI: the wire, the client and libsdt (issue 36),
    # never an engine's library; read from the link line ninja has for it
    ninja_file = os.path.join(build, 'build.ninja')
    if os.path.exists(ninja_file):
        with open(ninja_file, encoding='utf-8', errors='replace') as fh:
            m = re.search(r'^build src/app/sd-tuner: .*?(?=^build )', fh.read(), re.M | re.S)
        gui_libs = set(re.findall(r'src/([\w/]+)/lib[\w-]+\.a', m.group(0))) if m else set()
        for lib in sorted(gui_libs & set(GUI_NEVER_LINKS)):
            gui_engines.append(lib)
            problems.append(f'sd-tuner (the GUI) links the engine folder src/{lib}: the app and '
                            'the client stand on src/wire and src/libsdt only')

sizes.sort(reverse=True)
long_functions.sort(reverse=True)
if report:
    print(f'largest file: {sizes[0][1]} ({sizes[0][0]} lines); '
          f'files over {MAX_FILE}: {sum(1 for n, _ in sizes if n > MAX_FILE)}')
    biggest = max(folder_sizes.items(), key=lambda kv: kv[1])
    print(f'largest folder: src/{biggest[0]} ({biggest[1]} .c files); folders over '
          f'{MAX_FOLDER}: {sum(1 for n in folder_sizes.values() if n > MAX_FOLDER)}')
    print(f'functions over {MAX_FUNCTION} lines: {len(long_functions)}')
    for length, where in long_functions:
        print(f'  {length:4d} {where}')
    print(f'includes across layers against LAYERS: {len(layer_breaches)}')
    print(f'header declarations of another folder\'s functions: {len(foreign_declarations)}')
    for d in foreign_declarations:
        print('  ' + d)
    for b in layer_breaches:
        print('  ' + b)
    print(f'.c files outside src/wire/ that build or read JSON: {len(json_outside)}')
    print(f'public functions: {public_count}; prefix not their file\'s name: {len(misnamed)}')
    for m in misnamed:
        print('  ' + m)
    print(f'public library functions taking GError **: {error_api}; without the error '
          f'check first after their declarations, once: {len(unchecked)}; public library '
          f'functions that check their arguments: {checked_api}')
    for u in unchecked:
        print('  ' + u)
    print(f'-private.h headers: {len(private_headers)}; included outside their family: '
          f'{len(private_breaches)}')
    for b in private_breaches:
        print('  ' + b)
    print(f'include circles: {len(include_circles)}')
    for c in include_circles:
        print('  ' + ' <-> '.join(c))
    if build:
        print(f'call circles: {len(call_circles)}')
        for c in call_circles:
            print('  ' + ' <-> '.join(c))
        print(f'functions of the libraries\' public headers used only inside their folder (its files and its own tests): {len(folder_only)}')
        if '--verbose' in sys.argv:
            for d in folder_only:
                print('  ' + d)
        print(f'public functions without a caller outside their file: {len(dead)}')
        for d in dead:
            print('  ' + d)
        print(f'writer symbols in the GUI binary: {len(gui_writer)}; engine folders it links: '
              f'{len(gui_engines)}')
    sys.exit(0)

if gui_writer_only:
    if build is None or not os.path.exists(os.path.join(build, 'src', 'app', 'sd-tuner')):
        print('no GUI binary in the build folder', file=sys.stderr)
        sys.exit(1)
    problems = [p for p in problems if p.startswith('sd-tuner (the GUI)')]
    if not problems:
        print('sd-tuner links none of the config writer and no engine folder')
for p in problems:
    print(p, file=sys.stderr)
sys.exit(1 if problems else 0)
