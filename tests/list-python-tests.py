#!/usr/bin/env python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
"""The Python tests of tests/, discovered: what tests/meson.build defines from them.

Every Python file under tests/ whose name starts with "test" or "check" declares how meson
runs it in a header comment, one `# meson-test:` line per test, continued by the comment
lines right after it that are indented by at least three spaces:

    # meson-test: verify-card suite=integration timeout=600 parallel=false protocol=tap
    #   env=test args=@sdtunerctl@,{srcdir}/bench/card.sh

or, for a file that is deliberately no meson test (a helper run by another test),
`# meson-test: none` followed by the reason. The first word is the test's name; the rest
are key=value pairs:

  suite=a,b        the suites (required)
  timeout=N        seconds (meson's default, 30, when absent)
  protocol=P       tap or exitcode (the default)
  parallel=false   not beside other tests
  priority=N       started before the others (the long ones), after them when negative
  run=R            python3 (the default: the build's python3), system (/usr/bin/python3,
                   with python3-gi), gi (/usr/bin/python3 where there is one, else python3),
                   exec (the file itself, by its #! line)
  env=E            one of the environments tests/meson.build names (test, integration, ...)
  needs=a,b        what must be there for the test to exist (polkit, gtk, fuse3, ...)
  depends=a,b      the build targets it needs (tests/meson.build's names)
  args=a,b         its arguments after the file: @name@ is an object of tests/meson.build
                   (@sdtunerctl@), {srcdir} {builddir} {testsbuilddir} are the source root,
                   the build root and tests/ in the build
  cases=C          one test per case: "methods:ClassA|ClassB" (every test_* method of these
                   unittest classes, read from the file), "classes:ClassA|ClassB" or a
                   literal "a|b"; {case} in the name and the args is the case (a method
                   without test_, dashes for underscores; a class without Test, lower
                   case), {id} its unittest id (Class.test_method, Class) or the literal

Usage: list-python-tests.py SRCDIR BUILDDIR TESTSBUILDDIR [--write LISTFILE | --check LISTFILE]
Prints one line per test: name, file, run, suites, timeout, protocol, parallel, priority,
env, needs, depends, args (tab-separated; lists separated by "|"). A test file without a
header, an unknown key or a duplicate name is an error (configure fails), so that no test
drops out silently. --write also writes the list to LISTFILE (configure does); --check
compares the files now with that list instead of printing it, and
fails when a test file was added or changed since (run `meson setup --reconfigure`).
"""

import ast
import os
import re
import sys

KEYS = {'suite', 'timeout', 'protocol', 'parallel', 'priority', 'run', 'env', 'needs',
        'depends', 'args', 'cases'}
RUNS = {'python3', 'system', 'gi', 'exec'}
HEADER = re.compile(r'^# meson-test:\s*(.*)$')
MORE = re.compile(r'^#\s{3,}(\S+=.*)$')


class HeaderError(Exception):
    pass


def test_files(tests_dir):
    """the Python files that are tests by their name, sorted, relative to tests/"""
    found = []
    for d, dirs, files in os.walk(tests_dir):
        dirs[:] = sorted(x for x in dirs if x != '__pycache__')
        for f in files:
            if f.endswith('.py') and f.startswith(('test', 'check')):
                found.append(os.path.relpath(os.path.join(d, f), tests_dir))
    return sorted(found)


def headers(text):
    """the `# meson-test:` declarations of a file, continuation lines joined"""
    decls = []
    for line in text.splitlines():
        m = HEADER.match(line)
        if m:
            decls.append(m.group(1).strip())
            continue
        m = MORE.match(line)
        if m and decls and decls[-1] is not None:
            decls[-1] += ' ' + m.group(1).strip()
        elif decls and decls[-1] is not None:
            decls.append(None)  # the declaration ended
    return [d for d in decls if d is not None]


def unittest_classes(text, names):
    """{class: [test methods]} of the unittest classes @names in the file"""
    tree = ast.parse(text)
    classes = {c.name: c for c in tree.body if isinstance(c, ast.ClassDef)}
    out = []
    for n in names:
        if n not in classes:
            raise HeaderError(f'cases: no class {n} in the file')
        methods = [m.name for m in classes[n].body
                   if isinstance(m, ast.FunctionDef) and m.name.startswith('test_')]
        if not methods:
            raise HeaderError(f'cases: class {n} has no test_ method')
        out += [(m[5:].replace('_', '-'), f'{n}.{m}') for m in methods]
    return out


def cases_of(spec, text):
    if spec is None:
        return [(None, None)]
    kind, _, rest = spec.partition(':')
    if kind == 'methods' and rest:
        return unittest_classes(text, rest.split('|'))
    if kind == 'classes' and rest:
        unittest_classes(text, rest.split('|'))  # the classes are there, with tests
        return [(c[:-4].lower() if c.endswith('Test') else c.lower(), c)
                for c in rest.split('|')]
    return [(c, c) for c in spec.split('|')]


def parse(rel, text, roots):
    decls = headers(text)
    if not decls:
        raise HeaderError('no "# meson-test:" header: declare how meson runs it '
                          '(tests/list-python-tests.py), or "# meson-test: none" and why')
    if re.match(r'none\b', decls[0]):
        if len(decls) > 1:
            raise HeaderError('"none" and tests in the same file')
        return []
    tests = []
    for decl in decls:
        words = decl.split()
        name, meta = words[0], {}
        for w in words[1:]:
            k, sep, v = w.partition('=')
            if not sep or k not in KEYS:
                raise HeaderError(f'{name}: "{w}" is not one of {", ".join(sorted(KEYS))}=...')
            if k in meta:
                raise HeaderError(f'{name}: {k} twice')
            meta[k] = v
        if 'suite' not in meta:
            raise HeaderError(f'{name}: no suite=')
        run = meta.get('run', 'python3')
        if run not in RUNS:
            raise HeaderError(f'{name}: run={run} is not one of {", ".join(sorted(RUNS))}')
        if meta.get('protocol', 'exitcode') not in ('tap', 'exitcode'):
            raise HeaderError(f'{name}: protocol is tap or exitcode')
        if meta.get('parallel', 'true') not in ('true', 'false'):
            raise HeaderError(f'{name}: parallel is true or false')
        if not meta.get('timeout', '0').isdigit():
            raise HeaderError(f'{name}: timeout is a number of seconds')
        if not meta.get('priority', '0').lstrip('-').isdigit():
            raise HeaderError(f'{name}: priority is a whole number')
        for case, ident in cases_of(meta.get('cases'), text):
            if case is not None and '{case}' not in name:
                raise HeaderError(f'{name}: cases= and no {{case}} in the name')

            def fill(s):
                s = s.replace('{srcdir}', roots[0]).replace('{builddir}', roots[1])
                s = s.replace('{testsbuilddir}', roots[2])
                if case is not None:
                    s = s.replace('{case}', case).replace('{id}', ident)
                return s
            args = [fill(a) for a in meta['args'].split(',')] if meta.get('args') else []
            tests.append([fill(name), rel, run, meta['suite'].replace(',', '|'),
                          meta.get('timeout', '30'), meta.get('protocol', 'exitcode'),
                          meta.get('parallel', 'true'), meta.get('priority', '0'),
                          meta.get('env', ''), meta.get('needs', '').replace(',', '|'),
                          meta.get('depends', '').replace(',', '|'), '|'.join(args)])
    return tests


def discover(srcdir, roots):
    tests_dir = os.path.join(srcdir, 'tests')
    tests, problems = [], []
    for rel in test_files(tests_dir):
        with open(os.path.join(tests_dir, rel), encoding='utf-8') as f:
            text = f.read()
        try:
            tests += parse(rel, text, roots)
        except (HeaderError, SyntaxError) as e:
            problems.append(f'tests/{rel}: {e}')
    seen = set()
    for t in tests:
        if t[0] in seen:
            problems.append(f'tests/{t[1]}: test name {t[0]} declared twice')
        seen.add(t[0])
    return tests, problems


def main(argv):
    if len(argv) not in (4, 6) or (len(argv) == 6 and argv[4] not in ('--check', '--write')):
        print(__doc__.split('\n\n')[-2], file=sys.stderr)
        return 2
    tests, problems = discover(argv[1], argv[1:4])
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        return 1
    text = ''.join('\t'.join(t) + '\n' for t in tests)
    if len(argv) == 6 and argv[4] == '--write':
        with open(argv[5], 'w', encoding='utf-8') as f:
            f.write(text)
    elif len(argv) == 6:
        with open(argv[5], encoding='utf-8') as f:
            configured = f.read()
        if configured != text:
            old, new = set(configured.splitlines()), set(text.splitlines())
            for line in sorted(new - old):
                print('not configured: ' + line.replace('\t', ' '), file=sys.stderr)
            for line in sorted(old - new):
                print('configured, gone: ' + line.replace('\t', ' '), file=sys.stderr)
            print('the Python tests changed since configure: run meson setup --reconfigure',
                  file=sys.stderr)
            return 1
        print(f'1..1\nok 1 - {len(tests)} Python tests, as configured')
        return 0
    sys.stdout.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
