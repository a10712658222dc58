#!/usr/bin/env python3
# check-tests-registered.py BUILDDIR EXPECTED [--strict]
#
# Compares the tests meson registered in BUILDDIR (`meson introspect --tests`) with
# the list the run expects (EXPECTED: one test name a line, sorted; tests/expected-tests.txt).
# A test is registered only when what it needs was found at configure time (fuse3,
# GTK, polkit, python3-gi, clang-format, ...): a package missing then makes its tests
# vanish from `meson test` without a word. This names every test missing from the
# build and every registered test missing from the list.
#   exit 0: the same; 1 (with --strict, as tools/test.sh runs it under CI=true): not
#   the same; without --strict the difference is printed as a warning and it exits 0.
import json
import subprocess
import sys


def main():
    args = [a for a in sys.argv[1:] if a != '--strict']
    strict = '--strict' in sys.argv[1:]
    if len(args) != 2:
        print('usage: check-tests-registered.py BUILDDIR EXPECTED [--strict]', file=sys.stderr)
        return 2
    builddir, expected_path = args
    r = subprocess.run(['meson', 'introspect', builddir, '--tests'], capture_output=True,
                       text=True)
    if r.returncode != 0:
        print(f'check-tests-registered: meson introspect {builddir} failed:\n{r.stderr}',
              file=sys.stderr)
        return 1
    registered = {t['name'] for t in json.loads(r.stdout)}
    with open(expected_path) as f:
        expected = {line.strip() for line in f
                    if line.strip() and not line.lstrip().startswith('#')}
    missing = sorted(expected - registered)
    unlisted = sorted(registered - expected)
    what = 'FAILED' if strict else 'WARNING'
    for name in missing:
        print(f'check-tests-registered: {what}: test {name} is not registered in {builddir} '
              '(a package or dependency it needs was missing when meson configured it)')
    for name in unlisted:
        print(f'check-tests-registered: {what}: test {name} is registered but not listed in '
              f'{expected_path} (README, "Development and tests": add it)')
    if missing or unlisted:
        print(f'check-tests-registered: {len(registered)} registered, {len(expected)} expected, '
              f'{len(missing)} missing, {len(unlisted)} not listed')
        return 1 if strict else 0
    print(f'check-tests-registered: all {len(expected)} expected tests are registered')
    return 0


if __name__ == '__main__':
    sys.exit(main())
